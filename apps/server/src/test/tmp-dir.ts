import fs from 'node:fs';
import os from 'node:os';

/**
 * Where test databases are copied: CT_TEST_TMPDIR if set, else /dev/shm when it is a
 * writable directory (Linux tmpfs), else os.tmpdir(). A PGlite directory is ~40 MB; on a
 * disk mounted with `discard` deleting one takes 1-2 s, in memory it takes milliseconds.
 */
export function testTmpDir(): string {
  const override = process.env.CT_TEST_TMPDIR;
  if (override) return override;
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    if (fs.statSync('/dev/shm').isDirectory()) return '/dev/shm';
  } catch {
    // not Linux, or no shared memory mount
  }
  return os.tmpdir();
}
