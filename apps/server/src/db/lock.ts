import fs from 'node:fs';

/** Another live process holds the data directory. */
export class DatabaseLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holderPid: number,
  ) {
    super(
      `The database at ${lockFile.replace(/\.lock$/, '')} is in use by another process ` +
        `(pid ${holderPid}). Stop the server first.`,
    );
  }
}

export type Lock = { release(): void };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock file holding our pid. PGlite itself does not stop two processes
 * from opening one data directory (which corrupts it), so every opener goes through here.
 * A lock left by a dead process is taken over.
 */
export function acquireLock(lockFile: string): Lock {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          fs.unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readOrEmpty(lockFile), 10);
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new DatabaseLockedError(lockFile, holder);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockFile}`);
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
