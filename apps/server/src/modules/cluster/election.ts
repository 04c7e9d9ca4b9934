import pg from 'pg';

/**
 * The advisory lock that elects the active feed: the two-key form, so that it never meets
 * the migration lock (db/migrate.ts, one bigint key) and reads plainly in pg_locks
 * (classid = FEED_LOCK[0], objid = FEED_LOCK[1], objsubid = 2).
 */
export const FEED_LOCK = [7_402_119, 1] as const;

/** This process's part in the feed election, as OPS's /readyz and the logs read it. */
export type FeedLeaderState = 'leader' | 'standby' | 'off';

export type FeedElectionStatus = {
  state: FeedLeaderState;
  /** Epoch ms when this process became the leader; null while it is not. */
  since: number | null;
};

export type ElectionCallbacks = {
  /** This process is the active feed from now on. */
  elected(): Promise<void> | void;
  /**
   * This process lost the lock (its connection broke): another feed may take over at any
   * moment, so it must stop triggering at once (main.ts exits; a supervisor restarts it).
   */
  lost(reason: string): void;
};

export interface FeedElection {
  /** Starts campaigning; `elected` runs once this process holds the lock. */
  run(callbacks: ElectionCallbacks): void;
  status(): FeedElectionStatus;
  /** Gives the lock up (closing its connection) and stops campaigning. */
  stop(): Promise<void>;
}

/** PGlite: one process owns the database, so its feed is trivially the only one. */
export class LocalElection implements FeedElection {
  private since: number | null = null;
  private stopped = false;

  constructor(private readonly now: () => number = Date.now) {}

  run(callbacks: ElectionCallbacks): void {
    this.since = this.now();
    Promise.resolve()
      .then(() => callbacks.elected())
      .catch((error: unknown) => {
        this.since = null;
        callbacks.lost(`the feed could not start: ${(error as Error).message}`);
      });
  }

  status(): FeedElectionStatus {
    if (this.stopped) return { state: 'off', since: null };
    return this.since === null
      ? { state: 'standby', since: null }
      : { state: 'leader', since: this.since };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.since = null;
  }
}

export type AdvisoryElectionOptions = {
  connectionString: string;
  /** How long a standby waits before trying again after its connection failed (ms). */
  pollMs?: number;
  /** How often the leader checks that its connection (and so its lock) still lives (ms). */
  checkMs?: number;
  now?: () => number;
  log: {
    info: (details: Record<string, unknown>, message: string) => void;
    warn: (details: Record<string, unknown>, message: string) => void;
  };
};

/**
 * PostgreSQL: the active feed holds a session advisory lock on a connection of its own.
 * A standby waits for the lock on its own connection; the lock is freed the moment the
 * leader's session ends, also when its process is killed (the server sees the socket
 * close), and the standby holds it at once. A standby whose connection fails tries again
 * after `pollMs`. The leader checks its connection every `checkMs`: a broken one means the
 * lock may be someone else's, and it steps down.
 */
export class AdvisoryLockElection implements FeedElection {
  private client: pg.Client | null = null;
  private since: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private callbacks: ElectionCallbacks | null = null;
  private readonly pollMs: number;
  private readonly checkMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AdvisoryElectionOptions) {
    this.pollMs = options.pollMs ?? 500;
    this.checkMs = options.checkMs ?? 2000;
    this.now = options.now ?? Date.now;
  }

  run(callbacks: ElectionCallbacks): void {
    this.callbacks = callbacks;
    void this.campaign();
  }

  status(): FeedElectionStatus {
    if (this.stopped) return { state: 'off', since: null };
    return this.since === null
      ? { state: 'standby', since: null }
      : { state: 'leader', since: this.since };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.since = null;
    const client = this.client;
    this.client = null;
    // ending the session frees the lock for a standby at once
    await client?.end().catch(() => undefined);
  }

  private later(step: () => Promise<void>, ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void step(), ms);
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'ct-feed-election',
      keepAlive: true,
    });
    // a broken connection surfaces here and in the next query; both are handled
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.client === client) this.client = null;
      if (this.since !== null && !this.stopped) this.lose('the election connection ended');
    });
    await client.connect();
    this.client = client;
    return client;
  }

  private readonly campaign = async (): Promise<void> => {
    if (this.stopped) return;
    try {
      const client = await this.connection();
      // a standby waits inside pg_advisory_lock: it gets the lock the moment the leader's
      // session ends, so the takeover costs no polling interval
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_advisory_lock($1, $2) is not null as ok',
        [...FEED_LOCK],
      );
      if (this.stopped) return;
      if (rows[0]?.ok) {
        this.since = this.now();
        this.options.log.info({}, 'feed election: this process is the active feed');
        try {
          await this.callbacks?.elected();
        } catch (error) {
          this.lose(`the feed could not start: ${(error as Error).message}`);
          return;
        }
        this.later(this.check, this.checkMs);
        return;
      }
    } catch (error) {
      if (this.stopped) return;
      this.options.log.warn({ err: (error as Error).message }, 'feed election: lock try failed');
      await this.dropClient();
    }
    this.later(this.campaign, this.pollMs);
  };

  private readonly check = async (): Promise<void> => {
    if (this.stopped || this.since === null) return;
    const client = this.client;
    try {
      if (!client) throw new Error('no connection');
      await withTimeout(client.query('select 1'), Math.max(5000, this.checkMs * 3));
    } catch (error) {
      this.lose(`the election connection failed: ${(error as Error).message}`);
      return;
    }
    this.later(this.check, this.checkMs);
  };

  private lose(reason: string): void {
    if (this.since === null) return;
    this.since = null;
    void this.dropClient();
    this.callbacks?.lost(reason);
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Whether some process of the cluster holds the feed lock now (read from pg_locks, so any
 * node can tell, leader or not): what /readyz calls "feed leader known".
 */
export async function feedLeaderExists(
  query: (text: string, params: unknown[]) => Promise<{ rows: { held: boolean }[] }>,
): Promise<boolean> {
  const { rows } = await query(
    `select exists (select 1 from pg_locks where locktype = 'advisory' and granted
       and classid = $1 and objid = $2 and objsubid = 2) as held`,
    [...FEED_LOCK],
  );
  return rows[0]?.held === true;
}
