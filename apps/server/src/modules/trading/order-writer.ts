import {
  RolledBackError,
  abandonCommit,
  deferStatement,
  dropDeferred,
  holdCommit,
  rawQuery,
  releaseCommit,
} from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';

/*
 * Group commit of the API's account commands (docs/architecture.md, "Trading engine"): one
 * writer per API node takes the commands that arrive while it is idle for one event-loop
 * turn (or `windowMs`), or while its previous batch is committing, up to `maxBatch`, and
 * runs them in ONE transaction:
 *  - first the batch's accounts are locked together (`lockAll`: one statement, in one fixed
 *    order, so every node's batches take account locks in the same order: no deadlock
 *    between batches);
 *  - the commands of different accounts run side by side (their statements pipelined on the
 *    transaction's connection: a batch costs about as many round trips as one command),
 *    each account's commands one after the other in arrival order;
 *  - when any command fails (a database error, or an error of its own code), the batch is
 *    rolled back and run again one command after the other, each inside its own savepoint:
 *    the one that fails is rolled back to it and its error is its answer, its neighbours in
 *    the batch go on;
 *  - each command's promise settles only after the batch's COMMIT (or its failure: then
 *    every command of the batch fails and nothing of it was committed).
 * One batch at a time per writer: the next one gathers meanwhile, so under load the batch
 * grows instead of the transactions' count.
 * A batch whose commands all carry a `batched` form (market orders) is written by
 * `options.batch` instead: one statement per table for the whole batch (market-batch.ts);
 * when that throws BatchRolledBack (nothing of it was committed) the batch runs again one
 * command after the other as above.
 */

export type OrderCommitMode = 'group' | 'single';

export type OrderWriterOptions<B = never> = {
  /** At most this many commands in one transaction. */
  maxBatch: number;
  /** How long an idle writer waits for more commands (ms); 0: the rest of this event-loop turn. */
  windowMs: number;
  /**
   * Locks the accounts `uuids` (sorted) in the batch's transaction before its commands run:
   * one statement for the batch, in one fixed order on every node.
   */
  lockAll?: (tx: Db, uuids: readonly string[]) => Promise<unknown>;
  /**
   * Writes a batch whose commands all came with their `batched` form, in the batch's order
   * (each account's in arrival order), in the transaction `tx` and commits it; each
   * command's outcome. Throws BatchRolledBack when nothing of it was committed.
   */
  batch?: (tx: Db, items: readonly B[]) => Promise<Settled[]>;
};

export const DEFAULT_ORDER_WRITER: Pick<OrderWriterOptions, 'maxBatch' | 'windowMs'> = {
  maxBatch: 64,
  windowMs: 0,
};

type Job<B> = {
  uuid: string;
  work: (tx: Db) => Promise<unknown>;
  batched: B | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** A command's outcome in its batch. */
export type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = 'savepoint ct_order';
const RELEASE = 'release savepoint ct_order';
const ROLLBACK_TO = 'rollback to savepoint ct_order';

/** Batch sizes committed so far (tests and the bench read them). */
export type WriterStats = {
  batches: number;
  commands: number;
  largestBatch: number;
  /** Batches run again one command after the other (a command of theirs failed). */
  reruns: number;
  /** Batches written together by `options.batch`. */
  together: number;
};

/** Thrown out of a batch's side-by-side run when a command of it failed: run it again. */
class RunOneByOne extends Error {}

/** A batch written together failed before its COMMIT: nothing of it was committed. */
export class BatchRolledBack extends Error {
  constructor(readonly reason: unknown) {
    super(`the batch was rolled back: ${String(reason)}`);
  }
}

export class OrderWriter<B = never> {
  readonly stats: WriterStats = {
    batches: 0,
    commands: 0,
    largestBatch: 0,
    reruns: 0,
    together: 0,
  };
  private queue: Job<B>[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly options: OrderWriterOptions<B> = { ...DEFAULT_ORDER_WRITER },
  ) {}

  /**
   * Runs `work` on `uuid`'s account in the next batch's transaction; resolves with its value
   * once that transaction committed. `work`'s first statement must be a raw one (db/raw.ts:
   * the savepoint goes with it) and it must not end the transaction. With `batched`, the
   * command may be written together with its batch's by `options.batch` instead of `work`.
   */
  submit<T>(uuid: string, work: (tx: Db) => Promise<T>, batched?: B): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const resolveAny = resolve as (value: unknown) => void;
      this.queue.push({ uuid, work, batched, resolve: resolveAny, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    const go = () => {
      this.scheduled = false;
      void this.flush();
    };
    if (this.queue.length >= this.options.maxBatch) queueMicrotask(go);
    else if (this.options.windowMs > 0) setTimeout(go, this.options.windowMs);
    else setImmediate(go);
  }

  private async flush(): Promise<void> {
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    const batch = this.queue.splice(0, this.options.maxBatch);
    const ordered = batch
      .map((job, arrival) => ({ job, arrival }))
      .sort((a, b) =>
        a.job.uuid === b.job.uuid ? a.arrival - b.arrival : a.job.uuid < b.job.uuid ? -1 : 1,
      )
      .map(({ job }) => job);
    try {
      let settled: Settled[];
      try {
        settled = await this.together(ordered);
      } catch (error) {
        // nothing of the batch was committed: a command failed before the COMMIT was sent
        if (!(error instanceof RunOneByOne || error instanceof BatchRolledBack)) throw error;
        this.stats.reruns += 1;
        settled = await this.db.transaction((tx) => this.oneByOne(tx, ordered));
      }
      this.stats.batches += 1;
      this.stats.commands += ordered.length;
      this.stats.largestBatch = Math.max(this.stats.largestBatch, ordered.length);
      ordered.forEach((job, i) => {
        const result = settled[i];
        if (result?.ok) job.resolve(result.value);
        else job.reject(result?.error ?? new Error('the order was not run'));
      });
    } catch (error) {
      for (const job of ordered) job.reject(error);
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  /** The batch in one transaction: by `options.batch` when it can, else side by side. */
  private async together(ordered: readonly Job<B>[]): Promise<Settled[]> {
    const { batch } = this.options;
    const items = ordered.map((job) => job.batched);
    if (!batch || !items.every((item): item is B => item !== undefined)) {
      return this.db.transaction((tx) => this.sideBySide(tx, ordered));
    }
    const settled = await this.db.transaction((tx) => batch(tx, items));
    this.stats.together += 1;
    return settled;
  }

  /**
   * The batch's commands, each account's one after the other, the accounts side by side,
   * without savepoints; commits when all succeeded, else throws RunOneByOne (rolled back).
   */
  private async sideBySide(tx: Db, ordered: readonly Job<B>[]): Promise<Settled[]> {
    // each command's last statement (its stored answer) is not waited for: the COMMIT
    // follows it at once
    holdCommit(tx, { lastWithCommit: true });
    const results: Settled[] = [];
    let failed = false;
    // sent first: the commands' statements queue behind it on the connection
    const locked = this.options.lockAll?.(tx, accountsOf(ordered))?.catch(() => {
      failed = true;
    });
    const chains = new Map<string, number[]>();
    ordered.forEach((job, i) => chains.set(job.uuid, [...(chains.get(job.uuid) ?? []), i]));
    const runChain = async (indexes: number[]) => {
      for (const i of indexes) {
        const job = ordered[i] as Job<B>;
        if (failed) return;
        try {
          results[i] = { ok: true, value: await job.work(tx) };
        } catch (error) {
          results[i] = { ok: false, error };
          failed = true;
          return;
        }
      }
    };
    await Promise.all([locked, ...[...chains.values()].map(runChain)]);
    if (failed) {
      abandonCommit(tx);
      throw new RunOneByOne('a command of the batch failed');
    }
    try {
      await releaseCommit(tx);
    } catch (error) {
      // a stored answer failed: rolled back by its COMMIT, nothing committed
      if (error instanceof RolledBackError) throw new RunOneByOne(String(error));
      throw error;
    }
    return results;
  }

  /** The batch's commands one after the other, each in its own savepoint; commits. */
  private async oneByOne(tx: Db, ordered: readonly Job<B>[]): Promise<Settled[]> {
    holdCommit(tx);
    try {
      await this.options.lockAll?.(tx, accountsOf(ordered));
      const results: Settled[] = [];
      for (const job of ordered) results.push(await runInSavepoint(tx, job));
      await releaseCommit(tx);
      return results;
    } catch (error) {
      abandonCommit(tx);
      throw error;
    }
  }
}

/** The batch's accounts, each once, in the batch's (sorted) order. */
function accountsOf<B>(ordered: readonly Job<B>[]): string[] {
  return ordered.map((job) => job.uuid).filter((uuid, i, all) => uuid !== all[i - 1]);
}

/** One command of a batch in its own savepoint; a failure is rolled back to it. */
async function runInSavepoint<B>(tx: Db, job: Job<B>): Promise<Settled> {
  // the savepoint leaves with the command's first statement, its release with the next
  // command's (or the COMMIT)
  deferStatement(tx, SAVEPOINT);
  try {
    const value = await job.work(tx);
    deferStatement(tx, RELEASE);
    return { ok: true, value };
  } catch (error) {
    // nothing was sent: no savepoint to go back to
    if (!dropDeferred(tx)) {
      await rawQuery(tx, ROLLBACK_TO, []);
      deferStatement(tx, RELEASE);
    }
    return { ok: false, error };
  }
}
