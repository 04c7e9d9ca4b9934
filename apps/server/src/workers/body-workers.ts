import { Worker } from 'node:worker_threads';
import { barsOfFlat } from '@ct/domain';
import type {
  CsvParseResult,
  FeedInstrument,
  OptimizationObjective,
  TrialsSummary,
  SummaryInput,
  SummaryTrial,
} from '@ct/domain';
import {
  flatBars,
  type EvaluationInput,
  type PiecedEvaluation,
  type TrialEvaluation,
  type TrialsOn,
} from '../modules/backtest/evaluate.ts';
import type { BodyOffload } from '../http/body-parsers.ts';
import { preparedRows } from '../modules/backtest/historical.ts';
import type { BodyAnswer, BodyTask, PreparedHistorical } from './body-worker.ts';

/*
 * Large bodies are parsed and validated off the event loop (docs/architecture.md, "Large
 * bodies off the event loop"): a few threads of Node's own `worker_threads` (body-worker.ts),
 * started on first use, each taking one task at a time from a shared queue. A thread that
 * dies is replaced; its task fails.
 */

/** BODY_WORKERS when unset. */
export const DEFAULT_BODY_WORKERS = 2;

/** A task before it is given its id. */
type NewTask = BodyTask extends infer T ? (T extends BodyTask ? Omit<T, 'id'> : never) : never;

type Pending = { resolve(answer: BodyAnswer): void; reject(error: Error): void };
type Queued = { task: BodyTask; transfer: ArrayBuffer[]; pending: Pending };

export type BodyWorkers = BodyOffload & {
  /** parseOhlcvCsv in a worker. */
  csv(text: string): Promise<CsvParseResult>;
  /** A batch of optimisation trials' result lines read, checked and computed (evaluate.ts). */
  trials(
    lines: readonly Uint8Array[],
    on: TrialsOn,
    objective: OptimizationObjective,
    withDetail: boolean,
  ): Promise<TrialEvaluation[]>;
  /** A backtest's result bytes read, checked and computed (modules/backtest/evaluate.ts). */
  backtest(
    bytes: Uint8Array,
    input: EvaluationInput,
    piece: number,
    withTrades?: boolean,
  ): Promise<PiecedEvaluation>;
  /** A backtest's result bytes on several feeds read, checked and computed (evaluate.ts). */
  feeds(
    bytes: Uint8Array,
    instruments: readonly FeedInstrument[],
    memoryBytes: number,
    piece: number,
    withTrades?: boolean,
  ): Promise<PiecedEvaluation>;
  /** An optimisation's summary (domain `optimizationSummary`) in a worker. */
  summary(
    input: Omit<SummaryInput, 'trials'> & {
      trials: (Omit<SummaryTrial, 'returns'> & { returns: Float64Array })[];
    },
  ): Promise<TrialsSummary>;
  /** Starts the threads now (a worker role about to need them), not at their first task. */
  warm(): void;
  close(): Promise<void>;
};

/**
 * Puts back, in place of each `historical_data` the worker took out of a backtest body, an
 * array of the same length without rows that stands for its bars (historical.ts).
 */
function restoreHistorical(value: unknown, prepared: readonly PreparedHistorical[]): void {
  for (const item of prepared) {
    let holder = value as Record<string | number, unknown>;
    for (const key of item.path.slice(0, -1)) holder = holder[key] as typeof holder;
    holder[item.path.at(-1) as string] = item.ok
      ? preparedRows(item.length, { ok: true, bars: barsOfFlat(item.bars) }, item.period)
      : preparedRows(item.length, { ok: false, error: item.error }, null);
  }
}

/** The input without its bars (they go as one transferred Float64Array). */
function withoutBars({ bars: _bars, ...rest }: EvaluationInput): Omit<EvaluationInput, 'bars'> {
  return rest;
}

const WORKER_URL = new URL('./body-worker-start.mjs', import.meta.url);

export function createBodyWorkers(size: number): BodyWorkers {
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const busy = new Map<Worker, Queued>();
  const queue: Queued[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Worker {
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    worker.unref();
    all.add(worker);
    worker.on('message', (reply: BodyAnswer) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        if (reply.kind === 'failed') job.pending.reject(new Error(reply.message));
        else job.pending.resolve(reply);
      }
      idle.push(worker);
      pump();
    });
    worker.on('error', (error) => {
      busy.get(worker)?.pending.reject(error);
      busy.delete(worker);
    });
    worker.on('exit', () => {
      all.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const job = busy.get(worker);
      busy.delete(worker);
      job?.pending.reject(new Error('body worker exited'));
      pump();
    });
    return worker;
  }

  function pump(): void {
    while (!closed && queue.length > 0) {
      let worker = idle.pop();
      if (!worker && all.size < size) worker = spawn();
      if (!worker) return;
      const job = queue.shift() as Queued;
      busy.set(worker, job);
      worker.postMessage(job.task, job.transfer);
    }
  }

  function submit(task: NewTask, transfer: ArrayBuffer[] = []): Promise<BodyAnswer> {
    if (closed) return Promise.reject(new Error('body workers closed'));
    return new Promise((resolve, reject) => {
      queue.push({
        task: { ...task, id: nextId++ } as BodyTask,
        transfer,
        pending: { resolve, reject },
      });
      pump();
    });
  }

  return {
    async body(bytes, schema) {
      const own = new Uint8Array(bytes); // a copy of its own, handed over without another
      const answer = await submit({ kind: 'body', schema, bytes: own }, [own.buffer]);
      if (answer.kind !== 'body') throw new Error('unexpected body worker answer');
      if (answer.outcome === 'valid') restoreHistorical(answer.value, answer.historical);
      return answer;
    },
    async csv(text) {
      const answer = await submit({ kind: 'csv', text });
      if (answer.kind !== 'csv') throw new Error('unexpected body worker answer');
      if (!answer.ok) return { ok: false, error: answer.error };
      return { ok: true, bars: barsOfFlat(answer.bars) };
    },
    async backtest(bytes, { bars, ...input }, piece, withTrades = false) {
      const own = new Uint8Array(bytes);
      const flat = flatBars(bars);
      const task = { kind: 'backtest', bytes: own, bars: flat, input, piece, withTrades } as const;
      const answer = await submit(task, [own.buffer, flat.buffer as ArrayBuffer]);
      if (answer.kind !== 'backtest') throw new Error('unexpected body worker answer');
      return answer.evaluation;
    },
    async feeds(bytes, instruments, memoryBytes, piece, withTrades = false) {
      const own = new Uint8Array(bytes);
      const flat = instruments.map((instrument) => ({
        ...instrument,
        bars: flatBars(instrument.bars),
      }));
      const answer = await submit(
        { kind: 'feeds', bytes: own, instruments: flat, memoryBytes, piece, withTrades },
        [own.buffer, ...flat.map((instrument) => instrument.bars.buffer as ArrayBuffer)],
      );
      if (answer.kind !== 'feeds') throw new Error('unexpected body worker answer');
      return answer.evaluation;
    },
    async trials(lines, on, objective, withDetail) {
      const own = lines.map((line) => new Uint8Array(line));
      const bars = flatBars('input' in on ? on.input.bars : on.bars);
      const instruments =
        'input' in on
          ? undefined
          : on.instruments.map((instrument) => ({
              ...instrument,
              bars: flatBars(instrument.bars),
            }));
      const answer = await submit(
        {
          kind: 'trials',
          lines: own,
          bars,
          ...('input' in on
            ? { input: withoutBars(on.input) }
            : { instruments: instruments ?? [] }),
          memoryBytes: 'input' in on ? on.input.memoryBytes : on.memoryBytes,
          objective,
          withDetail,
        },
        [
          ...own.map((line) => line.buffer as ArrayBuffer),
          bars.buffer as ArrayBuffer,
          ...(instruments ?? []).map((instrument) => instrument.bars.buffer as ArrayBuffer),
        ],
      );
      if (answer.kind !== 'trials') throw new Error('unexpected body worker answer');
      return answer.evaluations;
    },
    async summary(input) {
      const answer = await submit(
        { kind: 'summary', input },
        input.trials.map((t) => t.returns.buffer as ArrayBuffer),
      );
      if (answer.kind !== 'summary') throw new Error('unexpected body worker answer');
      return answer.summary;
    },
    warm() {
      while (!closed && all.size < size) idle.push(spawn());
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.pending.reject(new Error('body workers closed'));
      await Promise.all([...all].map((worker) => worker.terminate()));
    },
  };
}
