import { deferStatement, dropDeferred, holdCommit, rawQuery, releaseCommit } from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';

/*
 * Group commit of the API's account commands (docs/architecture.md, "Trading engine"): one
 * writer per API node takes the commands that arrive while it is idle for one event-loop
 * turn (or `windowMs`), or while its previous batch is committing, up to `maxBatch`, and
 * runs them in ONE transaction:
 *  - in arrival order per account, the accounts in one fixed order (by uuid: a stable sort,
 *    so each account's commands keep their order, and every node's batches take account
 *    locks in the same order: no deadlock between batches);
 *  - each command inside its own savepoint: one that fails is rolled back to it and its
 *    error is its answer, its neighbours in the batch go on;
 *  - each command's promise settles only after the batch's COMMIT (or its failure: then
 *    every command of the batch fails and nothing of it was committed).
 * One batch at a time per writer: the next one gathers meanwhile, so under load the batch
 * grows instead of the transactions' count.
 */

export type OrderCommitMode = 'group' | 'single';

export type OrderWriterOptions = {
  /** At most this many commands in one transaction. */
  maxBatch: number;
  /** How long an idle writer waits for more commands (ms); 0: the rest of this event-loop turn. */
  windowMs: number;
};

export const DEFAULT_ORDER_WRITER: OrderWriterOptions = { maxBatch: 64, windowMs: 0 };

type Job = {
  uuid: string;
  work: (tx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = 'savepoint ct_order';
const RELEASE = 'release savepoint ct_order';
const ROLLBACK_TO = 'rollback to savepoint ct_order';

/** Batch sizes committed so far (tests and the bench read them). */
export type WriterStats = { batches: number; commands: number; largestBatch: number };

export class OrderWriter {
  readonly stats: WriterStats = { batches: 0, commands: 0, largestBatch: 0 };
  private queue: Job[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly options: OrderWriterOptions = DEFAULT_ORDER_WRITER,
  ) {}

  /**
   * Runs `work` on `uuid`'s account in the next batch's transaction; resolves with its value
   * once that transaction committed. `work`'s first statement must be a raw one (db/raw.ts:
   * the savepoint goes with it) and it must not end the transaction.
   */
  submit<T>(uuid: string, work: (tx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ uuid, work, resolve: resolve as (value: unknown) => void, reject });
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
      const settled = await this.db.transaction(async (tx) => {
        const results: Settled[] = [];
        holdCommit(tx);
        for (const job of ordered) results.push(await runInSavepoint(tx, job));
        await releaseCommit(tx);
        return results;
      });
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
}

/** One command of a batch in its own savepoint; a failure is rolled back to it. */
async function runInSavepoint(tx: Db, job: Job): Promise<Settled> {
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
