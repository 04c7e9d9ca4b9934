import fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { LaunchCommand } from './command.ts';
import { formatBytes, formatSeconds, type SandboxSettings } from './settings.ts';

/** Why a run ended without a result (each has its message for the user). */
export type FailureKind =
  | 'timeout'
  | 'output'
  | 'result_size'
  | 'cpu'
  | 'crash'
  | 'no_result'
  | 'malformed'
  | 'spawn'
  | 'cancelled';

export type ProcessOutcome =
  | {
      kind: 'result';
      /** The parsed result; undefined when `bytes` is given instead. */
      payload: unknown;
      wallMs: number;
      /** The result's bytes, unread (a large result, when the run asked: `run`'s `unreadFrom`). */
      bytes?: Buffer;
    }
  | { kind: 'failed'; failure: FailureKind; message: string; wallMs: number; diagnostics: string };

/** Longest log line passed on; longer output is cut into lines of this many characters. */
export const MAX_LINE_CHARS = 8192;
const MAX_DIAGNOSTIC_BYTES = 8192;
/**
 * After the process exits, its pipes get at least this long to drain before they are
 * destroyed; a run's pipes get the rest of its time limit. bwrap's outer process may end
 * before the sandbox's last write reaches us (its init reports the exit first), by seconds
 * on a loaded host: a fixed short drain lost finished results.
 */
export const DRAIN_MS = 500;

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name]),
);

/**
 * One sandbox process: started ahead of time, given exactly one job, then gone. Lines it
 * prints are passed on as they complete; the result is read from fd 3; every limit breach
 * kills the whole sandbox.
 */
export class SandboxProcess {
  private readonly child: ChildProcess;
  private state: 'idle' | 'running' | 'ended' = 'idle';
  private killedFor: { failure: FailureKind; message: string } | null = null;
  private logBytes = 0;
  private readonly resultChunks: Buffer[] = [];
  private resultBytes = 0;
  private unreadFrom = Number.POSITIVE_INFINITY;
  private diagnostics = '';
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');
  private onLine: (line: string) => void = () => undefined;
  private startedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private spawnError: Error | null = null;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** Resolves when the process has exited and its pipes are closed. */
  readonly closed: Promise<void>;
  /** Called once when the process is gone (before or after its job). */
  onClose: () => void = () => undefined;
  /** Session mode (harness.py): results are lines on fd 3, one per `next`. */
  private session = false;
  private sessionText = '';
  private waiting: ((line: string) => void) | null = null;
  private readonly resultDecoder = new StringDecoder('utf8');

  constructor(
    command: LaunchCommand,
    private readonly settings: SandboxSettings,
    /** bwrap reports a child's death by signal N as exit code 128 + N. */
    private readonly exitCodeCarriesSignal: boolean,
  ) {
    // the seccomp filter on fd 4 (SECCOMP_FD): bwrap reads it whole before python starts
    const filterFd = command.seccompFile ? fs.openSync(command.seccompFile, 'r') : null;
    try {
      this.child = spawn(command.file, command.args, {
        cwd: command.cwd,
        env: command.env,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe', ...(filterFd === null ? [] : [filterFd])],
        detached: true, // own process group: a kill reaches anything it started
      });
    } finally {
      if (filterFd !== null) fs.closeSync(filterFd);
    }
    const stdin = this.child.stdin as Writable;
    stdin.on('error', () => undefined); // EPIPE when the process died first
    const stdout = this.child.stdio[1] as Readable;
    const stderr = this.child.stdio[2] as Readable;
    const result = this.child.stdio[3] as Readable;
    stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    stderr.on('data', (chunk: Buffer) => this.addDiagnostics(chunk));
    result.on('data', (chunk: Buffer) => this.onResult(chunk));
    for (const stream of [stdout, stderr, result]) stream.on('error', () => undefined);
    this.child.on('error', (error) => {
      this.spawnError = error;
    });
    this.child.on('exit', (code, signal) => {
      this.exitInfo = { code, signal };
      if (this.timer) clearTimeout(this.timer);
      // an escaped grandchild must not keep the pipes (and the run) open past its time limit
      setTimeout(() => {
        for (const stream of [stdout, stderr, result]) stream.destroy();
      }, this.drainMs()).unref();
    });
    this.closed = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.exitInfo ??= { code, signal };
        if (this.timer) clearTimeout(this.timer);
        this.state = 'ended';
        resolve();
        this.onClose();
      });
    });
  }

  /** How long the pipes may stay open after the exit: the rest of a run's time limit. */
  private drainMs(): number {
    if (this.state !== 'running' || this.killedFor !== null) return DRAIN_MS;
    const left = this.settings.timeoutMs - (performance.now() - this.startedAt);
    return Math.max(DRAIN_MS, left);
  }

  /** True while it can still take a job. */
  get idle(): boolean {
    return this.state === 'idle' && this.exitInfo === null && this.spawnError === null;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Gives the process its job and waits for the outcome. */
  async run(
    /** The job as harness.py reads it (rows-wire.ts), or one JSON line. */
    job: string | Uint8Array,
    onLine: (line: string) => void,
    /** A result of this many bytes or more is given back unread (its caller reads it). */
    unreadFrom = Number.POSITIVE_INFINITY,
  ): Promise<ProcessOutcome> {
    if (this.state !== 'idle') throw new Error('a sandbox process runs one job only');
    this.state = 'running';
    this.unreadFrom = unreadFrom;
    this.onLine = onLine;
    this.startedAt = performance.now();
    this.timer = setTimeout(
      () => this.kill('timeout', `Time limit exceeded (${formatSeconds(this.settings.timeoutMs)})`),
      this.settings.timeoutMs,
    );
    (this.child.stdin as Writable).end(job);
    await this.closed;
    return this.outcome();
  }

  /**
   * Starts a session (optimisation trials): the job (code and rows, `session: true`) is sent
   * once and the process stays; each `next` runs one line in the strategy's module and main.
   */
  startSession(job: Uint8Array): void {
    if (this.state !== 'idle') throw new Error('a sandbox process runs one job only');
    this.state = 'running';
    this.session = true;
    (this.child.stdin as Writable).write(job);
  }

  /**
   * One run of a session: `update` (the trial's PARAMS line) then main(). The outcome as
   * `run` gives it; a failure other than the strategy's own ends the session (the process is
   * killed or gone): check `idle`-like `alive` before the next.
   */
  async next(
    update: string,
    /** The result line given back unread (`bytes`), for a body worker to parse. */
    unread = false,
  ): Promise<ProcessOutcome> {
    const [outcome] = await this.nextMany([update], unread);
    return outcome as ProcessOutcome;
  }

  /**
   * Several runs of a session in one message (`{"updates": [...]}`): each update then main(),
   * in order, each with its own time, output and result limits. One outcome per run that
   * ended: a failure other than the strategy's own (a limit, a crash) ends the session, and
   * it is the last outcome; the updates after it did not run.
   */
  async nextMany(
    updates: readonly string[],
    /** The result lines given back unread (`bytes`), for a body worker to parse. */
    unread = false,
  ): Promise<ProcessOutcome[]> {
    const lines: { text: string; wallMs: number }[] = [];
    const arm = () => {
      if (this.timer) clearTimeout(this.timer);
      this.startedAt = performance.now();
      this.logBytes = 0;
      this.timer = setTimeout(
        () =>
          this.kill('timeout', `Time limit exceeded (${formatSeconds(this.settings.timeoutMs)})`),
        this.settings.timeoutMs,
      );
    };
    arm();
    const ended = new Promise<void>((resolve) => {
      this.waiting = (text) => {
        lines.push({ text, wallMs: performance.now() - this.startedAt });
        if (lines.length >= updates.length) resolve();
        else arm();
      };
      void this.closed.then(() => resolve());
    });
    (this.child.stdin as Writable).write(`${JSON.stringify({ updates })}\n`);
    await ended;
    this.waiting = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const outcomes: ProcessOutcome[] = [];
    for (const { text, wallMs } of lines) {
      if (unread) {
        outcomes.push({ kind: 'result', payload: undefined, bytes: Buffer.from(text), wallMs });
        continue;
      }
      try {
        outcomes.push({ kind: 'result', payload: JSON.parse(text), wallMs });
      } catch {
        this.kill('malformed', 'The strategy process returned a malformed result');
        outcomes.push({
          kind: 'failed',
          failure: 'malformed',
          message: 'The strategy process returned a malformed result',
          wallMs,
          diagnostics: '',
        });
        return outcomes;
      }
    }
    if (lines.length < updates.length) outcomes.push(this.outcome());
    return outcomes;
  }

  /** True while a session can take another run. */
  get alive(): boolean {
    return this.session && this.exitInfo === null && this.killedFor === null;
  }

  /** Kills the sandbox (the process group; bwrap takes its namespace down with it). */
  kill(failure: FailureKind = 'cancelled', message = 'The run was cancelled'): void {
    this.killedFor ??= { failure, message };
    const pid = this.child.pid;
    if (pid === undefined || this.exitInfo !== null) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  private onStdout(chunk: Buffer): void {
    if (this.killedFor) return;
    if (this.state !== 'running') {
      this.addDiagnostics(chunk);
      return;
    }
    this.logBytes += chunk.length;
    if (this.logBytes > this.settings.maxLogBytes) {
      // pass on what fits, then stop the run
      const fits = chunk.subarray(0, chunk.length - (this.logBytes - this.settings.maxLogBytes));
      this.emitText(this.decoder.write(fits));
      this.flushPartial();
      this.kill(
        'output',
        `Output limit exceeded (${formatBytes(this.settings.maxLogBytes)} of printed output)`,
      );
      return;
    }
    this.emitText(this.decoder.write(chunk));
  }

  private emitText(text: string): void {
    if (text === '') return;
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.emitLine(line);
    while (this.partial.length > MAX_LINE_CHARS) {
      this.emitLine(this.partial.slice(0, MAX_LINE_CHARS));
      this.partial = this.partial.slice(MAX_LINE_CHARS);
    }
  }

  private emitLine(line: string): void {
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    for (let i = 0; i < clean.length || i === 0; i += MAX_LINE_CHARS) {
      this.onLine(clean.slice(i, i + MAX_LINE_CHARS));
    }
  }

  private flushPartial(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest !== '') this.emitLine(rest);
  }

  private onResult(chunk: Buffer): void {
    if (this.killedFor) return;
    this.resultBytes += chunk.length;
    if (this.session) {
      if (this.resultBytes > this.settings.maxResultBytes) {
        this.sessionText = '';
        this.kill(
          'result_size',
          `Result too large (more than ${formatBytes(this.settings.maxResultBytes)} of trade records)`,
        );
        return;
      }
      this.sessionText += this.resultDecoder.write(chunk);
      // a message of several updates may bring several result lines in one chunk
      for (let end = this.sessionText.indexOf('\n'); end >= 0;) {
        const text = this.sessionText.slice(0, end);
        this.sessionText = this.sessionText.slice(end + 1);
        this.resultBytes = Buffer.byteLength(this.sessionText);
        this.waiting?.(text);
        end = this.sessionText.indexOf('\n');
      }
      return;
    }
    if (this.resultBytes > this.settings.maxResultBytes) {
      this.resultChunks.length = 0;
      this.kill(
        'result_size',
        `Result too large (more than ${formatBytes(this.settings.maxResultBytes)} of trade records)`,
      );
      return;
    }
    this.resultChunks.push(chunk);
  }

  private addDiagnostics(chunk: Buffer): void {
    if (this.diagnostics.length < MAX_DIAGNOSTIC_BYTES) {
      this.diagnostics += chunk.toString('utf8').slice(0, MAX_DIAGNOSTIC_BYTES);
    }
  }

  private outcome(): ProcessOutcome {
    const wallMs = this.startedAt > 0 ? performance.now() - this.startedAt : 0;
    if (!this.killedFor) this.flushPartial();
    const failed = (failure: FailureKind, message: string): ProcessOutcome => ({
      kind: 'failed',
      failure,
      message,
      wallMs,
      diagnostics: this.diagnostics.trim(),
    });
    if (this.killedFor) return failed(this.killedFor.failure, this.killedFor.message);
    if (this.spawnError) {
      return failed('spawn', `The sandbox could not start: ${this.spawnError.message}`);
    }
    if (this.resultBytes >= this.unreadFrom) {
      return {
        kind: 'result',
        payload: undefined,
        bytes: Buffer.concat(this.resultChunks),
        wallMs,
      };
    }
    if (this.resultBytes > 0) {
      try {
        return {
          kind: 'result',
          payload: JSON.parse(Buffer.concat(this.resultChunks).toString('utf8')),
          wallMs,
        };
      } catch {
        return failed('malformed', 'The strategy process returned a malformed result');
      }
    }
    const { code, signal } = this.exitInfo ?? { code: null, signal: null };
    const signalName =
      signal ??
      (this.exitCodeCarriesSignal && code !== null && code > 128
        ? (SIGNAL_NAMES.get(code - 128) ?? `signal ${code - 128}`)
        : null);
    if (signalName === 'SIGXCPU') {
      return failed(
        'cpu',
        `CPU time limit exceeded (${Math.ceil(this.settings.timeoutMs / 1000) + 2} s)`,
      );
    }
    if (signalName) return failed('crash', `The strategy process crashed (${signalName})`);
    return failed(
      'no_result',
      `The strategy process ended without returning a result (exit code ${code ?? 'unknown'})`,
    );
  }
}
