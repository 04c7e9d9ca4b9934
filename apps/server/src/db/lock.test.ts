import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock, DatabaseLockedError } from './lock.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function lockFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-lock-'));
  dirs.push(dir);
  return path.join(dir, 'pglite.lock');
}

describe('acquireLock', () => {
  it('is exclusive while held, free again once released', () => {
    const file = lockFile();
    const lock = acquireLock(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid));
    expect(() => acquireLock(file)).toThrow(DatabaseLockedError);
    expect(() => acquireLock(file)).toThrow(/Stop the server first/);
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
    acquireLock(file).release();
  });

  it('takes over a lock left by a process that is gone', () => {
    const file = lockFile();
    fs.writeFileSync(file, '999999999');
    const lock = acquireLock(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('takes over an unreadable lock', () => {
    const file = lockFile();
    fs.writeFileSync(file, 'garbage');
    const lock = acquireLock(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
  });
});
