import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testTmpDir } from '../../test/tmp-dir.ts';
import { KEY_FILE_NAME, KeyBox, SealedSecretError } from './key-box.ts';

const dirs: string[] = [];
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(testTmpDir(), 'ct-key-box-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const SECRET = 'a-configured-secret-of-at-least-32-characters';

describe('KeyBox', () => {
  it('opens what it sealed; the sealed text does not hold the secret', () => {
    const box = new KeyBox({ secret: SECRET, dataDir: tmp() });
    const sealed = box.seal('sk-live-abcdef', 'user:1');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('sk-live-abcdef');
    expect(box.seal('sk-live-abcdef', 'user:1')).not.toBe(sealed);
    expect(box.open(sealed, 'user:1')).toBe('sk-live-abcdef');
  });

  it('refuses a value sealed for another row, altered, or under another server key', () => {
    const box = new KeyBox({ secret: SECRET, dataDir: tmp() });
    const sealed = box.seal('sk-live-abcdef', 'user:1');
    expect(() => box.open(sealed, 'user:2')).toThrow(SealedSecretError);
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(altered, 'user:1')).toThrow(SealedSecretError);
    const other = new KeyBox({ secret: `${SECRET}-other`, dataDir: tmp() });
    expect(() => other.open(sealed, 'user:1')).toThrow(SealedSecretError);
  });

  it('without a configured secret makes a 0600 key file on first use and reuses it', () => {
    const dir = tmp();
    const box = new KeyBox({ secret: null, dataDir: path.join(dir, 'nested') });
    const file = path.join(dir, 'nested', KEY_FILE_NAME);
    expect(fs.existsSync(file)).toBe(false);
    const sealed = box.seal('sk-1', 'user:1');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = new KeyBox({ secret: null, dataDir: path.join(dir, 'nested') });
    expect(again.open(sealed, 'user:1')).toBe('sk-1');
  });

  it('with a configured secret writes no file', () => {
    const dir = tmp();
    new KeyBox({ secret: SECRET, dataDir: dir }).seal('sk-1', 'user:1');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
