import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The helper that compiles the filter with libseccomp (see its docstring for the rules). */
export const SECCOMP_HELPER = fileURLToPath(new URL('./seccomp.py', import.meta.url));

/** The fd on which bwrap reads the filter (`--seccomp 4`): after stdin, stdout, stderr, result. */
export const SECCOMP_FD = 4;

/**
 * Compiles the sandbox's seccomp filter once (host interpreter, isolated mode) into a file
 * of its own; each sandbox gets it on SECCOMP_FD. Returns the file and its removal.
 */
export async function compileSeccompFilter(
  python: string,
): Promise<{ file: string; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-seccomp-'));
  const file = path.join(dir, 'filter.bpf');
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    await execFileAsync(python, ['-I', '-S', SECCOMP_HELPER, file], {
      timeout: 10_000,
      env: {},
    });
    const size = fs.statSync(file).size;
    // a classic BPF program: whole 8-byte instructions, at least the arch check and a return
    if (size < 16 || size % 8 !== 0) throw new Error(`unexpected filter size ${size}`);
  } catch (error) {
    remove();
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(stderr || (error as Error).message, { cause: error });
  }
  return { file, remove };
}
