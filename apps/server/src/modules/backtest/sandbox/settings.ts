import { z } from 'zod';

/** The walls and limits of one strategy run (docs/backtest.md, "Sandbox"). */
export type SandboxSettings = {
  /** The interpreter; its prefix's `lib/pythonX.Y` (and Debian's `lib/python3`) is bound read-only. */
  python: string;
  /** Wall time of one run, from the job's start (BACKTEST_TIMEOUT_MS). */
  timeoutMs: number;
  /** Address space of every sandbox process (RLIMIT_AS). */
  memoryBytes: number;
  /** Processes and threads of one sandbox, bwrap's own included (RLIMIT_NPROC, per run uid). */
  maxProcesses: number;
  /** Open files per process (RLIMIT_NOFILE). */
  maxOpenFiles: number;
  /** Largest file a run may write (RLIMIT_FSIZE); /tmp is also a size-limited tmpfs. */
  maxFileBytes: number;
  /** Size of the private /tmp. */
  tmpBytes: number;
  /** Printed output of one run; the run is killed when it prints more. */
  maxLogBytes: number;
  /** The returned records as JSON; the run is killed past it. */
  maxResultBytes: number;
  /** Sandboxes started ahead of time, waiting for a job. */
  warm: number;
  /** Runs at the same time; more wait in a queue of `maxQueued`. */
  maxConcurrent: number;
  maxQueued: number;
  /**
   * Slots one user (or the AI tasks together) may hold at once: a share below
   * `maxConcurrent`, so that another user's run finds a free slot (BACKTEST_MAX_PER_USER).
   */
  maxPerUser: number;
  /** Runs of one user waiting in the queue besides those running; more are refused. */
  maxQueuedPerUser: number;
  /**
   * Bars that the runs of all users may hold in the server's memory at once (their bars
   * loaded, sent, run and evaluated: about 1.1 GB per 1,000,000); a run past it waits its turn
   * (BACKTEST_BARS_BUDGET). One user holds at most its share of it (`maxPerUser` of
   * `maxConcurrent`), or one run of any size while holding nothing else.
   */
  barsBudget: number;
  /**
   * Host uids base … base + 999 run the sandboxes (root only): one unused uid per live
   * sandbox, so that the process limit is per run.
   */
  uidBase: number;
  /** More host paths to bind read-only (e.g. a pip site-packages outside /usr/lib). */
  extraReadOnly: string[];
  /** bubblewrap: a path, or a name looked up on PATH. */
  bwrap: string;
  /** ALLOW_UNSANDBOXED_PYTHON=1: run without bubblewrap when it cannot work (development). */
  allowUnsandboxed: boolean;
};

export const MIB = 1024 * 1024;

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  python: '/usr/bin/python3',
  timeoutMs: 30_000,
  memoryBytes: 512 * MIB,
  maxProcesses: 8,
  maxOpenFiles: 64,
  maxFileBytes: 16 * MIB,
  tmpBytes: 16 * MIB,
  maxLogBytes: 1 * MIB,
  maxResultBytes: 64 * MIB,
  warm: 2,
  maxConcurrent: 2,
  maxQueued: 16,
  maxPerUser: 1,
  maxQueuedPerUser: 4,
  barsBudget: 2_000_000,
  uidBase: 64_000,
  extraReadOnly: [],
  bwrap: 'bwrap',
  allowUnsandboxed: false,
};

/** Sizes for messages: whole MiB or KiB. */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** Seconds for messages: '30 s', '2.5 s'. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** BACKTEST_*, ALLOW_UNSANDBOXED_PYTHON: the environment the sandbox reads (composed by config.ts). */
export const sandboxEnv = z.object({
  BACKTEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  BACKTEST_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(512),
  BACKTEST_POOL_SIZE: z.coerce.number().int().min(0).max(16).default(2),
  BACKTEST_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  BACKTEST_PYTHON: z.string().min(1).default('/usr/bin/python3'),
  BACKTEST_EXTRA_RO_PATHS: z.string().optional(),
  BACKTEST_UID_BASE: z.coerce.number().int().min(1000).max(4_294_900_000).default(64_000),
  BACKTEST_MAX_PER_USER: z.coerce.number().int().min(1).max(32).optional(),
  BACKTEST_BARS_BUDGET: z.coerce.number().int().min(1000).max(100_000_000).default(2_000_000),
  ALLOW_UNSANDBOXED_PYTHON: z.enum(['0', '1', 'true', 'false']).default('0'),
});

/** The bars one owner may hold of the budget: its share of the run slots. */
export function barsShare(settings: SandboxSettings): number {
  return Math.floor((settings.barsBudget * settings.maxPerUser) / settings.maxConcurrent);
}

/** One user's share of the backtest slots: half of them, at least one. */
export function defaultPerUser(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

/** The sandbox's settings from the environment; throws when the share passes the slots. */
export function sandboxSettingsFromEnv(e: z.output<typeof sandboxEnv>): SandboxSettings {
  if (e.BACKTEST_MAX_PER_USER !== undefined && e.BACKTEST_MAX_PER_USER > e.BACKTEST_CONCURRENCY) {
    throw new Error('BACKTEST_MAX_PER_USER must be at most BACKTEST_CONCURRENCY');
  }
  return {
    ...DEFAULT_SANDBOX_SETTINGS,
    python: e.BACKTEST_PYTHON,
    timeoutMs: e.BACKTEST_TIMEOUT_MS,
    memoryBytes: e.BACKTEST_MEMORY_MB * MIB,
    warm: e.BACKTEST_POOL_SIZE,
    maxConcurrent: e.BACKTEST_CONCURRENCY,
    // a share below the global limit, so that one user never holds every slot
    maxPerUser: e.BACKTEST_MAX_PER_USER ?? defaultPerUser(e.BACKTEST_CONCURRENCY),
    barsBudget: e.BACKTEST_BARS_BUDGET,
    uidBase: e.BACKTEST_UID_BASE,
    extraReadOnly: (e.BACKTEST_EXTRA_RO_PATHS ?? '').split(':').filter(Boolean),
    allowUnsandboxed: e.ALLOW_UNSANDBOXED_PYTHON === '1' || e.ALLOW_UNSANDBOXED_PYTHON === 'true',
  };
}
