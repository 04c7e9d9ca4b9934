import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SECCOMP_FD } from './seccomp.ts';
import type { SandboxSettings } from './settings.ts';

const execFileAsync = promisify(execFile);

/** The Python side of the protocol (stdin job, fd 1 lines, fd 3 result). */
export const HARNESS_PATH = fileURLToPath(new URL('./harness.py', import.meta.url));
/** Where the harness appears inside the sandbox. */
const HARNESS_IN_SANDBOX = '/sandbox/harness.py';

/** 'bwrap': the walls of docs/backtest.md. 'unsandboxed': development only, limits but no walls. */
export type SandboxMode = 'bwrap' | 'unsandboxed';

/** How to start one sandbox process. */
export type LaunchCommand = {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** A compiled seccomp filter handed to the process on SECCOMP_FD (bwrap only). */
  seccompFile?: string;
};

/** The interpreter and the host paths it needs, found once at start. */
export type PythonLayout = {
  /** The real interpreter file (symlinks resolved); bound and run at the same path. */
  executable: string;
  version: string;
  /** Directories bound read-only: the standard library, dist-packages, shared libraries. */
  readOnly: string[];
};

export type Tools = { bwrap: string | null; prlimit: string | null; setpriv: string | null };

/** An executable by name on PATH or in the usual system folders; null when absent. */
export function findTool(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** The tools of the sandbox; `bwrap` may be a path (used as is when executable) or a name. */
export function findTools(bwrap = 'bwrap'): Tools {
  return {
    bwrap: bwrap.includes('/') ? (isExecutable(bwrap) ? bwrap : null) : findTool(bwrap),
    prlimit: findTool('prlimit'),
    setpriv: findTool('setpriv'),
  };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Times the interpreter is asked for its layout before the answer counts as broken. */
const LAYOUT_ATTEMPTS = 3;

/**
 * The interpreter's prefix and version, asked without site-packages; null when its answer is
 * not an absolute prefix and a version. The first child a freshly started server spawns has
 * been seen to exit 0 with its output lost (Node 20 under load): an empty answer once made
 * the prefix '' and bound none of the interpreter's libraries, so every sandbox failed with
 * "bwrap: execvp /usr/bin/python3.11: No such file or directory". It is asked again then.
 */
async function askLayout(executable: string): Promise<{ prefix: string; version: string } | null> {
  const { stdout } = await execFileAsync(
    executable,
    ['-I', '-S', '-c', "import sys; print(sys.prefix); print('%d.%d' % sys.version_info[:2])"],
    { timeout: 10_000, env: {} },
  );
  const [prefix = '', version = ''] = stdout.trim().split('\n');
  return path.isAbsolute(prefix) && /^\d+\.\d+$/.test(version) ? { prefix, version } : null;
}

/** Asks the (trusted) interpreter for its prefix and version, without site-packages. */
export async function resolvePythonLayout(
  python: string,
  extraReadOnly: readonly string[],
  ask: (executable: string) => ReturnType<typeof askLayout> = askLayout,
): Promise<PythonLayout> {
  const executable = fs.realpathSync(python);
  let answer: Awaited<ReturnType<typeof askLayout>> = null;
  for (let attempt = 1; attempt <= LAYOUT_ATTEMPTS && answer === null; attempt++) {
    answer = await ask(executable);
  }
  if (answer === null) {
    throw new Error(`${executable} did not tell its prefix and version (${LAYOUT_ATTEMPTS} tries)`);
  }
  const { prefix, version } = answer;
  const lib = path.join(prefix, 'lib');
  const candidates = [
    path.join(lib, `python${version}`),
    path.join(lib, 'python3'), // Debian's dist-packages (python3-numpy, python3-pandas)
    ...safeList(lib)
      .filter((name) => /-linux-gnu/.test(name))
      .map((name) => path.join(lib, name)),
    path.join(prefix, 'lib64'),
    ...extraReadOnly,
  ];
  const readOnly = [...new Set(candidates)].filter((dir) => fs.existsSync(dir));
  return { executable, version, readOnly };
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** The environment of the strategy: nothing of the server's, only these. */
export const SANDBOX_ENV: Record<string, string> = {
  PATH: '/usr/bin:/bin',
  LANG: 'C.UTF-8',
  HOME: '/tmp',
  TMPDIR: '/tmp',
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONIOENCODING: 'utf-8',
  // numeric libraries start one thread per core otherwise (threads count as processes)
  OPENBLAS_NUM_THREADS: '1',
  OMP_NUM_THREADS: '1',
  MKL_NUM_THREADS: '1',
  NUMEXPR_NUM_THREADS: '1',
  MPLBACKEND: 'Agg',
};

function rlimitArgs(settings: SandboxSettings, prlimitPath: string, withProcessLimit: boolean) {
  const cpuSeconds = Math.ceil(settings.timeoutMs / 1000) + 2;
  return [
    prlimitPath,
    `--as=${settings.memoryBytes}`,
    `--nofile=${settings.maxOpenFiles}`,
    `--fsize=${settings.maxFileBytes}`,
    `--cpu=${cpuSeconds}:${cpuSeconds + 1}`,
    '--core=0',
    ...(withProcessLimit ? [`--nproc=${settings.maxProcesses}`] : []),
    '--',
  ];
}

function hostRootLinks(): string[] {
  const args: string[] = [];
  for (const dir of ['/lib', '/lib64']) {
    try {
      const stat = fs.lstatSync(dir);
      if (stat.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(dir), dir);
      else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
    } catch {
      // absent on this system
    }
  }
  return args;
}

/**
 * The command of one sandboxed process: prlimit (limits) → setpriv (a host uid of its own,
 * when the server is root) → bwrap (namespaces: no network, no host file system, own pids,
 * its own user namespace) → python -I -B harness.
 */
export function bwrapCommand(
  settings: SandboxSettings,
  layout: PythonLayout,
  tools: { bwrap: string; prlimit: string; setpriv: string | null },
  uid: number | null,
  /** The compiled filter (seccomp.ts); bwrap loads it right before it starts python. */
  seccompFile: string | null = null,
): LaunchCommand {
  const args: string[] = [];
  const asOtherUser = uid !== null && tools.setpriv !== null;
  // RLIMIT_NPROC counts the processes of a uid: only meaningful when the run has its own uid
  args.push(...rlimitArgs(settings, tools.prlimit, asOtherUser).slice(1));
  if (asOtherUser && tools.setpriv) {
    args.push(
      tools.setpriv,
      `--reuid=${uid}`,
      `--regid=${uid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    );
  }
  args.push(
    tools.bwrap,
    '--unshare-all', // ipc, pid, net (no network at all), uts, cgroup
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    ...(seccompFile ? ['--seccomp', String(SECCOMP_FD)] : []),
    '--clearenv',
    ...Object.entries(SANDBOX_ENV).flatMap(([key, value]) => ['--setenv', key, value]),
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--hostname',
    'sandbox',
    '--ro-bind',
    layout.executable,
    layout.executable,
    ...layout.readOnly.flatMap((dir) => ['--ro-bind', dir, dir]),
    ...hostRootLinks(),
    // no procfs at all, an empty /proc: a mounted one tells the host's CPUs, load, memory and
    // uptime (/proc/cpuinfo, /proc/loadavg …) and, in /proc/self/mountinfo, the host paths
    // of the bind mounts; neither Python nor the harness needs it
    '--dir',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(settings.tmpBytes),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    HARNESS_PATH,
    HARNESS_IN_SANDBOX,
    // the root and /dev are tmpfs mounts of bwrap's without a size: make them read-only so
    // that the size-limited /tmp is the only place a strategy can write
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    '/tmp',
    '--',
    layout.executable,
    '-I',
    '-B',
    HARNESS_IN_SANDBOX,
  );
  return {
    file: tools.prlimit,
    args,
    env: {},
    cwd: '/',
    ...(seccompFile ? { seccompFile } : {}),
  };
}

/**
 * Development only (ALLOW_UNSANDBOXED_PYTHON=1): the same limits, an empty environment and
 * (when the server is root) a uid of its own, but the strategy sees the host's files and
 * network.
 */
export function unsandboxedCommand(
  settings: SandboxSettings,
  tools: Tools,
  cwd: string,
  uid: number | null,
): LaunchCommand {
  const dropUser =
    uid !== null && tools.setpriv
      ? [
          tools.setpriv,
          `--reuid=${uid}`,
          `--regid=${uid}`,
          '--clear-groups',
          '--no-new-privs',
          '--',
        ]
      : [];
  const limits = tools.prlimit ? rlimitArgs(settings, tools.prlimit, dropUser.length > 0) : [];
  const [file, ...args] = [...limits, ...dropUser, settings.python, '-I', '-B', HARNESS_PATH];
  return { file: file ?? settings.python, args, env: { ...SANDBOX_ENV }, cwd };
}
