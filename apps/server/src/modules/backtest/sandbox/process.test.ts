// One sandbox process and its pipes. bwrap's outer process can end before the sandbox's
// result reaches the server (its init reports the exit first; by seconds on a loaded host):
// the result written after that exit must still be read, within the run's time limit.
import { describe, expect, it } from 'vitest';
import { DRAIN_MS, SandboxProcess } from './process.ts';
import { DEFAULT_SANDBOX_SETTINGS } from './settings.ts';

/** The direct child exits at once; a process it left behind writes the result later. */
function lateResult(delayMs: number): SandboxProcess {
  const payload = JSON.stringify({ ok: true, count: 0, records: [], elapsed_ms: 1 });
  const script = `( sleep ${delayMs / 1000}; printf '%s' '${payload}' >&3 ) & exit 0`;
  return new SandboxProcess(
    { file: '/bin/sh', args: ['-c', script], env: {}, cwd: '/' },
    DEFAULT_SANDBOX_SETTINGS,
    false,
  );
}

describe('SandboxProcess', () => {
  it('reads a result written after its direct child exited', async () => {
    const outcome = await lateResult(DRAIN_MS * 3).run('{}\n', () => undefined);
    expect(outcome.kind).toBe('result');
    expect(outcome.kind === 'result' && outcome.payload).toMatchObject({ ok: true, count: 0 });
  });

  it('does not wait past the run time limit for a process left behind', async () => {
    const settings = { ...DEFAULT_SANDBOX_SETTINGS, timeoutMs: DRAIN_MS };
    const child = new SandboxProcess(
      { file: '/bin/sh', args: ['-c', '( sleep 600 ) >&3 & exit 0'], env: {}, cwd: '/' },
      settings,
      false,
    );
    const outcome = await child.run('{}\n', () => undefined);
    process.kill(-(child.pid ?? 0), 'SIGKILL'); // the process left behind
    expect(outcome.kind).toBe('failed');
  });
});
