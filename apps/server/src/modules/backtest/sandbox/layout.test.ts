import { describe, expect, it } from 'vitest';
import { resolvePythonLayout } from './command.ts';

/*
 * The interpreter's layout (its prefix and version, hence the library folders bound into
 * every sandbox) is asked again when an answer comes back empty or malformed: the first
 * child of a freshly started server has been seen to lose its output, which bound no
 * libraries and failed every sandbox ("bwrap: execvp /usr/bin/python3.11: No such file or
 * directory").
 */

const PYTHON = '/usr/bin/python3';

describe('the interpreter layout', () => {
  it('asks again after an empty answer and binds the library folders of the real one', async () => {
    const asked: string[] = [];
    const answers = [null, null, { prefix: '/usr', version: '3.11' }];
    const layout = await resolvePythonLayout(PYTHON, [], async (executable) => {
      asked.push(executable);
      return answers.shift() ?? null;
    });
    expect(asked).toHaveLength(3);
    expect(layout.version).toBe('3.11');
    expect(layout.readOnly.length).toBeGreaterThan(0);
    expect(layout.readOnly.every((dir) => dir.startsWith('/'))).toBe(true);
  });

  it('refuses to start the sandbox when no answer ever comes', async () => {
    await expect(resolvePythonLayout(PYTHON, [], async () => null)).rejects.toThrow(
      /did not tell its prefix and version \(3 tries\)/,
    );
  });

  it('reads the real interpreter', async () => {
    const layout = await resolvePythonLayout(PYTHON, []);
    expect(layout.version).toMatch(/^3\.\d+$/);
    expect(layout.readOnly).toContain(`/usr/lib/python${layout.version}`);
  });
});
