import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bwrapCommand,
  findTools,
  resolvePythonLayout,
  unsandboxedCommand,
  type LaunchCommand,
  type PythonLayout,
  type SandboxMode,
  type Tools,
} from './command.ts';
import { SandboxProcess, type ProcessOutcome } from './process.ts';
import { encodeJob, encodeRunJob, type BarsSource } from './rows-wire.ts';
import { compileSeccompFilter } from './seccomp.ts';
import { queueOrder } from './queue-order.ts';
import { BarsBudget, type Release } from './bars-budget.ts';
import { barsShare, type SandboxSettings } from './settings.ts';

export { queueOrder };

/** A job for the harness: the strategy and the rows of `data_array`. */
export type SandboxJob = {
  code: string;
  filename: string;
  rows: readonly (readonly (string | number)[])[];
};

/** A run's job: its rows, or one feed's bars made into the same rows (rows-wire.ts). */
export type SandboxRunJob = SandboxJob | { code: string; filename: string; bars: BarsSource };

export type SandboxState = 'unchecked' | 'checking' | 'ready' | 'unsandboxed' | 'unavailable';

export type SandboxStatus = {
  state: SandboxState;
  mode: SandboxMode | null;
  reason: string | null;
};

/** The sandbox cannot run strategies (and the development escape hatch is off). */
export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(`Strategy sandbox unavailable: ${reason}`);
  }
}

/** Every run slot and queue place is taken. */
export class SandboxBusyError extends Error {}

export type PoolLogger = {
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
};

/** Host uids base … base + 999 are handed to live sandboxes, one each (RLIMIT_NPROC is per uid). */
export const UID_RANGE = 1000;

/**
 * Uids handed out by any pool of this process and not yet free: a new sandbox takes a while
 * to switch to its uid, so /proc alone would not show it. Another server on the same host
 * starts its search elsewhere (random) and sees ours in /proc.
 */
const ALLOCATED_UIDS = new Set<number>();

/** Uids of the range that some process on the host runs as (another server's sandboxes, zombies). */
function uidsInUse(base: number): Set<number> {
  const busy = new Set<number>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return busy;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    try {
      const { uid } = fs.statSync(`/proc/${entry}`);
      if (uid >= base && uid < base + UID_RANGE) busy.add(uid);
    } catch {
      // the process ended meanwhile
    }
  }
  return busy;
}

/**
 * Pre-started sandboxes and the run queue. Every process runs exactly one job and exits;
 * the pool starts a replacement at once, so a run rarely waits for an interpreter to start.
 */
/** Start-up check runs before the sandbox is declared unavailable. */
const CHECK_ATTEMPTS = 3;

export class SandboxPool {
  private state: SandboxState = 'unchecked';
  private mode: SandboxMode | null = null;
  private reason: string | null = null;
  private starting: Promise<SandboxStatus> | null = null;
  private layout: PythonLayout | null = null;
  private tools: Tools = { bwrap: null, prlimit: null, setpriv: null };
  /** The compiled seccomp filter every bwrap sandbox loads, and its removal. */
  private seccomp: { file: string; remove: () => void } | null = null;
  private readonly idle: SandboxProcess[] = [];
  private readonly live = new Set<SandboxProcess>();
  /** False when sandboxes run as the server's own uid (not root). */
  private ownUids = false;
  /** Where the next uid search starts (random: servers on one host rarely meet). */
  private nextUid = Math.floor(Math.random() * UID_RANGE);
  private running = 0;
  /** Runs going on per owner (a user, the AI tasks): each may hold `maxPerUser` slots. */
  private readonly runningBy = new Map<string, number>();
  /** Runs waiting for a slot, in arrival order (`seq`); dispatched fairly (`queueOrder`). */
  private waiting: Waiter[] = [];
  private nextSeq = 0;
  private closed = false;
  private warmFailures = 0;
  /** The bars runs of all users hold in memory at once (`settings.barsBudget`). */
  private readonly bars = new BarsBudget(() => ({
    budget: this.settings.barsBudget,
    share: barsShare(this.settings),
    maxQueued: this.settings.maxQueued,
  }));

  constructor(
    readonly settings: SandboxSettings,
    private readonly log: PoolLogger,
  ) {}

  /**
   * Room for a run's `bars` in the server's memory, across all users: resolves with its
   * release once they fit (waiting in a fair queue, told its place by `onQueued`, 0 when
   * admitted after waiting). Throws SandboxBusyError when the queue is full and
   * SandboxUnavailableError once the pool is closed. Taken before a run's bars are loaded
   * and given back when its answer is made; the run slot (`run`) is taken after it.
   */
  admitBars(owner: string, bars: number, onQueued?: (position: number) => void): Promise<Release> {
    if (this.closed) {
      return Promise.reject(new SandboxUnavailableError('the server is shutting down'));
    }
    return this.bars.acquire(
      owner,
      bars,
      onQueued,
      () => new SandboxBusyError('Too many backtests are running; try again in a moment'),
    );
  }

  /** Bars held by admitted runs now, and runs waiting for room (tests, status). */
  barsHeld(): { held: number; waiting: number } {
    return { held: this.bars.heldBars(), waiting: this.bars.waitingCount() };
  }

  status(): SandboxStatus {
    return { state: this.state, mode: this.mode, reason: this.reason };
  }

  /** Checks the sandbox with a trivial job (once) and starts the warm processes. */
  start(): Promise<SandboxStatus> {
    this.starting ??= this.check().then((status) => {
      this.refill();
      return status;
    });
    return this.starting;
  }

  /**
   * Runs one job; `onLine` gets each printed line as it completes. Throws
   * SandboxUnavailableError or SandboxBusyError before anything runs.
   */
  async run(
    job: SandboxRunJob,
    onLine: (line: string) => void,
    options: RunOptions = {},
  ): Promise<ProcessOutcome> {
    await this.start();
    if (this.state === 'unavailable') throw new SandboxUnavailableError(this.reason ?? 'unknown');
    if (this.closed) throw new SandboxUnavailableError('the server is shutting down');
    if (this.state === 'unsandboxed') {
      this.log.warn(
        'ALLOW_UNSANDBOXED_PYTHON=1: running strategy code WITHOUT the sandbox (host files and network reachable). Development only.',
      );
    }
    const owner = options.owner ?? ANONYMOUS_OWNER;
    await this.enterQueue(owner, options.onQueued);
    try {
      const process = this.take();
      // the rows go as columns (rows-wire.ts), made between other work
      return await process.run(
        await encodeRunJob(job),
        withoutProgress(onLine, options.onProgress),
        options.unreadFrom,
      );
    } finally {
      this.leaveQueue(owner);
      this.refill();
    }
  }

  /**
   * A warm interpreter for many runs of one strategy on the same rows (optimisation
   * trials): the same sandbox and limits as `run`, the code loaded and the rows sent once;
   * each `next(update)` runs that line in the strategy's module and main() again, holding a
   * run slot of `owner` (the fair queue applies) while it runs; `nextMany` runs several in
   * one message and one slot. Used only for runs of one
   * optimisation, so nothing of one user's code meets another's.
   */
  async openSession(job: SandboxJob): Promise<SandboxSession> {
    await this.start();
    if (this.state === 'unavailable') throw new SandboxUnavailableError(this.reason ?? 'unknown');
    if (this.closed) throw new SandboxUnavailableError('the server is shutting down');
    const encoded = await encodeJob({ ...job, session: true });
    // a pre-started interpreter when one waits (its start is paid before the first trial)
    const process = this.take();
    this.refill();
    process.startSession(encoded);
    return {
      next: async (update, options = {}) => {
        const owner = options.owner ?? ANONYMOUS_OWNER;
        await this.enterQueue(owner, options.onQueued);
        try {
          return await process.next(update, options.unread === true);
        } finally {
          this.leaveQueue(owner);
        }
      },
      nextMany: async (updates, options = {}) => {
        const owner = options.owner ?? ANONYMOUS_OWNER;
        await this.enterQueue(owner, options.onQueued);
        try {
          return await process.nextMany(updates, options.unread === true);
        } finally {
          this.leaveQueue(owner);
        }
      },
      get alive() {
        return process.alive;
      },
      close: () => process.kill(),
    };
  }

  /** Kills every sandbox and refuses further runs. */
  async close(): Promise<void> {
    this.closed = true;
    this.bars.failAll(new SandboxUnavailableError('the server is shutting down'));
    for (const waiter of this.waiting.splice(0)) {
      waiter.fail(new SandboxUnavailableError('the server is shutting down'));
    }
    const all = [...this.live];
    for (const process of all) process.kill();
    await Promise.all(all.map((p) => p.closed));
    this.seccomp?.remove();
    this.seccomp = null;
  }

  /** Processes alive now (idle and running), for tests and the health of the pool. */
  liveCount(): number {
    return this.live.size;
  }

  idleCount(): number {
    return this.idle.filter((p) => p.idle).length;
  }

  private async check(): Promise<SandboxStatus> {
    this.state = 'checking';
    const problem = await this.findProblem();
    if (!problem) {
      this.state = 'ready';
      this.mode = 'bwrap';
      this.log.info(
        `Strategy sandbox ready (bubblewrap, python ${this.layout?.version ?? '?'}, ${this.uidMode()})`,
      );
    } else if (this.settings.allowUnsandboxed) {
      this.state = 'unsandboxed';
      this.mode = 'unsandboxed';
      this.reason = problem;
      this.log.error(
        `Strategy sandbox unavailable: ${problem}. ALLOW_UNSANDBOXED_PYTHON=1 is set: strategies run WITHOUT the sandbox. Never do this in production.`,
      );
    } else {
      this.state = 'unavailable';
      this.mode = null;
      this.reason = problem;
      this.log.error(
        `Strategy sandbox unavailable: ${problem}. Strategy runs are refused (install bubblewrap: scripts/ensure-sandbox.sh).`,
      );
    }
    return this.status();
  }

  private uidMode(): string {
    return this.ownUids
      ? `host uids ${this.settings.uidBase}-${this.settings.uidBase + UID_RANGE - 1}`
      : 'the server uid (not root: no per-run process limit)';
  }

  /** Null when a sandboxed trivial job runs and sees none of the host; else why not. */
  private async findProblem(): Promise<string | null> {
    this.tools = findTools(this.settings.bwrap);
    if (process.getuid?.() === 0 && this.tools.setpriv) this.ownUids = true;
    if (!this.tools.bwrap) {
      return `bubblewrap (${this.settings.bwrap}) is not installed (run scripts/ensure-sandbox.sh)`;
    }
    if (!this.tools.prlimit) return 'prlimit (util-linux) is not installed';
    try {
      this.layout = await resolvePythonLayout(this.settings.python, this.settings.extraReadOnly);
    } catch (error) {
      return `cannot run ${this.settings.python}: ${(error as Error).message}`;
    }
    try {
      this.seccomp ??= await compileSeccompFilter(this.layout.executable);
    } catch (error) {
      return `the seccomp filter could not be built: ${(error as Error).message}`;
    }
    this.mode = 'bwrap';
    // a loaded host can fail one start of a sandbox (seen: bwrap not finding the
    // interpreter once): only a check that fails every time makes the sandbox unavailable
    let problem: string | null = null;
    for (let attempt = 1; attempt <= CHECK_ATTEMPTS; attempt++) {
      problem = await this.checkRun();
      if (problem === null) return null;
      if (attempt < CHECK_ATTEMPTS)
        this.log.warn(`Strategy sandbox check failed, trying again: ${problem}`);
    }
    return problem;
  }

  /** One sandboxed trivial job: null when it ran and printed, else why not. */
  private async checkRun(): Promise<string | null> {
    const lines: string[] = [];
    let outcome: ProcessOutcome;
    try {
      const process = this.spawn();
      outcome = await process.run(JSON.stringify(CHECK_JOB), (line) => lines.push(line));
    } catch (error) {
      return `the check run could not start: ${(error as Error).message}`;
    }
    if (outcome.kind === 'failed') {
      return `the check run failed: ${outcome.message}${outcome.diagnostics ? ` (${outcome.diagnostics})` : ''}`;
    }
    const payload = outcome.payload as { ok?: boolean; error?: string };
    if (payload.ok !== true) return `the check run failed: ${payload.error ?? 'no result'}`;
    if (!lines.includes(CHECK_LINE)) return 'the check run printed nothing';
    return null;
  }

  private command(uid: number | null): { command: LaunchCommand; cleanup: () => void } {
    if (this.mode === 'bwrap' && this.layout && this.tools.bwrap && this.tools.prlimit) {
      const tools = {
        bwrap: this.tools.bwrap,
        prlimit: this.tools.prlimit,
        setpriv: this.tools.setpriv,
      };
      return {
        command: bwrapCommand(this.settings, this.layout, tools, uid, this.seccomp?.file ?? null),
        cleanup: () => undefined,
      };
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-unsandboxed-'));
    if (uid !== null) fs.chownSync(dir, uid, uid);
    return {
      command: unsandboxedCommand(this.settings, this.tools, dir, uid),
      cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }

  private spawn(): SandboxProcess {
    const uid = this.allocateUid();
    const { command, cleanup } = this.command(uid);
    const child = new SandboxProcess(command, this.settings, this.mode === 'bwrap');
    this.live.add(child);
    child.onClose = () => {
      this.live.delete(child);
      const at = this.idle.indexOf(child);
      if (at >= 0) this.idle.splice(at, 1);
      // the uid is free again only once nothing of this sandbox is left
      if (uid !== null) ALLOCATED_UIDS.delete(uid);
      cleanup();
    };
    return child;
  }

  /** A uid no process on the host runs as; null when sandboxes run as the server's uid. */
  private allocateUid(): number | null {
    if (!this.ownUids) return null;
    const base = this.settings.uidBase;
    const busy = uidsInUse(base);
    for (let i = 0; i < UID_RANGE; i++) {
      const offset = (this.nextUid + i) % UID_RANGE;
      const uid = base + offset;
      if (ALLOCATED_UIDS.has(uid) || busy.has(uid)) continue;
      this.nextUid = (offset + 1) % UID_RANGE;
      ALLOCATED_UIDS.add(uid);
      return uid;
    }
    throw new SandboxBusyError('Too many strategy sandboxes are alive; try again in a moment');
  }

  private take(): SandboxProcess {
    while (this.idle.length > 0) {
      const next = this.idle.shift();
      if (next?.idle) return next;
    }
    return this.spawn();
  }

  /** Tops the warm processes up to `settings.warm`. */
  private refill(): void {
    if (this.closed || (this.state !== 'ready' && this.state !== 'unsandboxed')) return;
    while (this.idle.length < this.settings.warm && this.warmFailures < 3) {
      let child: SandboxProcess;
      try {
        child = this.spawn();
      } catch {
        return;
      }
      const bornAt = Date.now();
      const previousOnClose = child.onClose;
      child.onClose = () => {
        const diedIdle = this.idle.includes(child);
        previousOnClose();
        // a warm process that dies young while waiting means spawning is broken: stop warming
        if (diedIdle && !this.closed) {
          if (Date.now() - bornAt < 1000) this.warmFailures += 1;
          this.log.warn('A pre-started strategy sandbox ended while waiting for a job');
        }
      };
      this.idle.push(child);
    }
  }

  private startRun(owner: string): void {
    this.running += 1;
    this.runningBy.set(owner, (this.runningBy.get(owner) ?? 0) + 1);
  }

  private mayStart(owner: string): boolean {
    return (
      this.running < this.settings.maxConcurrent &&
      (this.runningBy.get(owner) ?? 0) < this.settings.maxPerUser
    );
  }

  private enterQueue(owner: string, onQueued?: (position: number) => void): Promise<void> {
    if (this.mayStart(owner)) {
      this.startRun(owner);
      return Promise.resolve();
    }
    if (this.waiting.length >= this.settings.maxQueued) {
      return Promise.reject(
        new SandboxBusyError('Too many backtests are running; try again in a moment'),
      );
    }
    return new Promise((resume, fail) => {
      this.waiting.push({ owner, seq: this.nextSeq++, resume, fail, onQueued, position: 0 });
      this.announcePositions();
    });
  }

  private leaveQueue(owner: string): void {
    this.running -= 1;
    const left = (this.runningBy.get(owner) ?? 1) - 1;
    if (left > 0) this.runningBy.set(owner, left);
    else this.runningBy.delete(owner);
    this.dispatch();
  }

  /** Starts waiting runs, fairly, while slots are free and their owners under their share. */
  private dispatch(): void {
    let started = false;
    while (this.running < this.settings.maxConcurrent) {
      const next = queueOrder(this.waiting).find((w) => this.mayStart(w.owner));
      if (!next) break;
      this.waiting = this.waiting.filter((w) => w !== next);
      this.startRun(next.owner);
      next.onQueued?.(0);
      next.resume();
      started = true;
    }
    if (started) this.announcePositions();
  }

  /** Tells each waiting run its place when it changed (1 = next to start). */
  private announcePositions(): void {
    queueOrder(this.waiting).forEach((waiter, index) => {
      if (waiter.position === index + 1) return;
      waiter.position = index + 1;
      waiter.onQueued?.(index + 1);
    });
  }

  /** Runs waiting for a slot now (tests, status). */
  queuedCount(): number {
    return this.waiting.length;
  }

  /** Runs holding a slot now (metrics, graceful shutdown). */
  runningCount(): number {
    return this.running;
  }
}

/** A warm interpreter of `openSession`. */
export type SandboxSession = {
  /** `unread`: the result comes back as its bytes, not parsed (a body worker reads it). */
  next(update: string, options?: RunOptions & { unread?: boolean }): Promise<ProcessOutcome>;
  /**
   * Several runs in one message and one slot of the fair queue (a batch of trials): one
   * outcome per run that ended, in order; fewer than `updates` when a limit or a crash ended
   * the session (its failure is the last outcome; the runs after it did not happen).
   */
  nextMany(
    updates: readonly string[],
    options?: RunOptions & { unread?: boolean },
  ): Promise<ProcessOutcome[]>;
  /** False once its process is gone (a limit, a crash): open another. */
  readonly alive: boolean;
  close(): void;
};

/** The owner of runs that name none. */
const ANONYMOUS_OWNER = 'anonymous';

/** How a run is queued: whose it is, and who hears its place in the queue. */
export type RunOptions = {
  /** The user (or the AI tasks) the run belongs to: each holds at most `maxPerUser` slots. */
  owner?: string;
  /** Its place in the queue (1 = next) each time it changes; 0 when it starts after waiting. */
  onQueued?: (position: number) => void;
  /** A result of this many bytes or more comes back unread, as `bytes` (its caller reads it). */
  unreadFrom?: number;
  /** How far main() is through the rows (percent), as harness.py tells it while it runs. */
  onProgress?: (percent: number) => void;
};

/** harness.py's progress line ("\x1eprogress N"): told to `onProgress`, never logged. */
const PROGRESS_MARK = '\u001eprogress ';

/** `onLine` without the harness's progress lines, which go to `onProgress`. */
export function withoutProgress(
  onLine: (line: string) => void,
  onProgress: ((percent: number) => void) | undefined,
): (line: string) => void {
  return (line) => {
    const percent = line.startsWith(PROGRESS_MARK) ? line.slice(PROGRESS_MARK.length) : null;
    if (percent !== null && /^\d{1,3}$/.test(percent)) onProgress?.(Math.min(100, Number(percent)));
    else onLine(line);
  };
}

type Waiter = {
  owner: string;
  seq: number;
  resume: () => void;
  fail: (error: Error) => void;
  onQueued: ((position: number) => void) | undefined;
  position: number;
};

const CHECK_LINE = 'sandbox-check-ok';

/** The start-up check: it must run, print, return, and see no host file or network. */
const CHECK_JOB = {
  filename: 'sandbox_check.py',
  rows: [],
  code: [
    'import os, socket',
    'def main(data_array):',
    "    assert not os.path.exists('/etc/passwd'), 'the host file system is visible'",
    "    extra = set(os.listdir('/')) - {'usr', 'lib', 'lib64', 'tmp', 'dev', 'proc', 'sandbox'}",
    "    assert not extra, 'host folders are visible: %s' % sorted(extra)",
    "    assert os.getuid() == 65534, 'not the unprivileged uid'",
    // no route out of the sandbox's network namespace: a UDP connect only looks the route
    // up (no packet is sent); there is no procfs to list the interfaces in
    '    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)',
    '    try:',
    "        probe.connect(('192.0.2.1', 9))",
    "        raise AssertionError('the network is reachable')",
    '    except OSError:',
    '        pass',
    "    assert not os.listdir('/proc'), 'the host /proc is visible'",
    "    assert not any(k for k in os.environ if k not in ('PATH', 'LANG', 'HOME', 'TMPDIR', 'PWD') and not k.startswith(('PYTHON', 'OPENBLAS', 'OMP', 'MKL', 'NUMEXPR', 'MPL'))), 'server environment visible'",
    `    print('${CHECK_LINE}')`,
    '    return []',
  ].join('\n'),
};
