import type { Database } from '../../db/connect.ts';
import type { AlertsModule } from '../alerts/module.ts';
import { InProcessBroker, type Broker } from '../gateway/broker.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import { localPins, type QuotePins } from '../market/test-control.ts';
import { Coalesced } from './coalesce.ts';
import { WatchedRows, watchedRowOf } from './watched-rows.ts';
import {
  AdvisoryLockElection,
  LocalElection,
  feedLeaderExists,
  type FeedElection,
  type FeedElectionStatus,
} from './election.ts';
import { PinRelay } from './pin-relay.ts';
import { RedisBroker } from './redis-broker.ts';
import { RedisLink, type ClusterLog } from './redis.ts';
import { ROLES, type Role } from './roles.ts';
import { SharedQuotes } from './quotes.ts';
import type { TradingModule } from '../trading/module.ts';

/** How often a standby feed computes the current quotes to keep its simulator warm (ms). */
const STANDBY_WARM_MS = 5000;

/**
 * The parts of the built app that the cluster drives (app.ts's `Services` has them): the
 * cluster sits beside the app, so it names what it needs rather than importing the app.
 */
export type ClusterServices = {
  market: MarketData;
  feed: MarketFeed;
  trading: TradingModule;
  alerts: AlertsModule;
};

/** What a process's place is decided from: ROLES, REDIS_URL, DATABASE_URL, MARKET_TEST_CONTROL. */
export type ClusterSettings = {
  roles?: Role[];
  redisUrl?: string | null;
  databaseUrl: string | null;
  marketTestControl?: boolean;
};

/** What /readyz reads (OPS): is some feed active, and what is this process's part. */
export type FeedLeaderView = { known: boolean; self: FeedElectionStatus };

/**
 * One process's place in the deployment (docs/architecture.md, "Process roles, feed
 * election and Redis"): its roles, the broker its publications go through (Redis when
 * REDIS_URL is set, else in-process), the shared quote cache, and, for the feed role, the
 * election of the one active feed and what the feed does once elected.
 */
export class Cluster {
  private readonly stops: (() => void)[] = [];
  private services: ClusterServices | null = null;

  private constructor(
    readonly roles: readonly Role[],
    readonly broker: Broker,
    private readonly database: Database,
    private readonly link: RedisLink | null,
    private readonly quotes: SharedQuotes | null,
    private readonly pins: PinRelay | null,
    readonly election: FeedElection | null,
    private readonly log: ClusterLog,
    private readonly now: () => number,
  ) {}

  static async open(options: {
    /** The settings the cluster reads (a part of config.ts's Config). */
    config: ClusterSettings;
    database: Database;
    log: ClusterLog;
    now?: () => number;
  }): Promise<Cluster> {
    const { config, database, log } = options;
    const now = options.now ?? Date.now;
    const roles = config.roles ?? [...ROLES];
    let link: RedisLink | null = null;
    let broker: Broker = new InProcessBroker();
    let quotes: SharedQuotes | null = null;
    let pins: PinRelay | null = null;
    if (config.redisUrl) {
      link = await RedisLink.open(config.redisUrl, log);
      try {
        broker = await RedisBroker.open(link);
        quotes = new SharedQuotes(link);
        if (config.marketTestControl) {
          pins = new PinRelay(link);
          await pins.open();
        }
      } catch (error) {
        await link.close();
        throw error;
      }
    }
    let election: FeedElection | null = null;
    if (roles.includes('feed')) {
      election =
        database.kind === 'pg' && config.databaseUrl
          ? new AdvisoryLockElection({ connectionString: config.databaseUrl, now, log })
          : new LocalElection(now);
    }
    return new Cluster(roles, broker, database, link, quotes, pins, election, log, now);
  }

  has(role: Role): boolean {
    return this.roles.includes(role);
  }

  /** What the test-only quote control pins through: the active feed, wherever it is. */
  testPins(local: QuotePins): QuotePins {
    return this.pins ?? local;
  }

  /**
   * Connects the built app: a node whose feed does not run keeps its latest quotes from
   * the active feed's (the quotes its API fills market orders at).
   */
  async attach(services: ClusterServices): Promise<void> {
    this.services = services;
    if (this.quotes) this.stops.push(await this.quotes.follow(services.feed));
  }

  /**
   * A standby computes every instrument's quote now and then without publishing it: the
   * simulator builds each day's price path on first use (seconds for the whole catalogue on
   * a busy machine), which a standby must not leave for the moment it takes over.
   */
  private warmStandby(services: ClusterServices): () => void {
    const { market } = services;
    const warm = () => {
      const now = this.now();
      for (const symbol of market.symbols()) market.quoteAt(symbol, now);
    };
    warm();
    const timer = setInterval(warm, STANDBY_WARM_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Campaigns for the feed (the `feed` role). Once elected, the feed starts from the last
   * shared quotes, the trigger engine reloads its index from the database and runs its
   * timers; `lost` is called if the lock is lost later (the caller must stop the process).
   */
  runFeed(lost: (reason: string) => void): void {
    const election = this.election;
    if (!election) return;
    const services = this.services;
    // PGlite elects at once: nothing to warm up
    const stopWarming =
      services && !(election instanceof LocalElection) ? this.warmStandby(services) : () => {};
    election.run({
      elected: () => {
        stopWarming();
        return this.activate();
      },
      lost,
    });
  }

  private async activate(): Promise<void> {
    const services = this.services;
    if (!services) throw new Error('Cluster.attach must run before the feed starts');
    const { feed, trading, market, alerts } = services;
    const engine = trading.engine;
    if (this.quotes) {
      // the quotes the previous feed published, so the first poll publishes only new ticks
      for (const [symbol, quote] of await this.quotes.load()) feed.adopt(symbol, quote);
      feed.shareTo(this.quotes.share);
    }
    await engine.load();
    // alerts resume from the sides the previous feed wrote (a crossing fires once)
    await alerts.engine.load();
    const refresher = new Coalesced(() => engine.refresh());
    if (this.link) {
      // orders other nodes took: read their rows at once instead of at the next reload
      const watched = new WatchedRows(engine);
      this.stops.push(
        this.broker.listen(({ channel, data }) => {
          const row = watchedRowOf(channel, data);
          if (!row) return;
          watched.add(row).catch((error: unknown) => {
            this.log.error(
              { err: (error as Error).message },
              'reading the rows other nodes named failed',
            );
          });
        }),
      );
    }
    if (this.pins) {
      const settled = () =>
        Promise.all([engine.whenIdle(), alerts.engine.whenIdle()]).then(() => undefined);
      const local = localPins({ market, feed, now: this.now, settled });
      await this.pins.serve(local, () => refresher.request());
    }
    feed.start();
    engine.startTimer();
    alerts.engine.startTimer();
    this.log.info({}, 'feed: polling (the trigger engine is armed)');
  }

  /** Is some feed active, and is it this process (OPS's /readyz "feed leader known"). */
  async feedLeader(): Promise<FeedLeaderView> {
    const self: FeedElectionStatus = this.election?.status() ?? { state: 'off', since: null };
    if (self.state === 'leader') return { known: true, self };
    if (this.database.kind !== 'pg') return { known: false, self };
    const pool = this.database.pool;
    const known = await feedLeaderExists((text, params) => pool.query(text, params));
    return { known, self };
  }

  /** True when Redis is not used or both its connections are up (OPS's /readyz). */
  get redisReady(): boolean {
    return this.link?.ready ?? true;
  }

  /** The Redis connection, null without REDIS_URL (e.g. for a shared rate-limit store). */
  get redis(): RedisLink | null {
    return this.link;
  }

  /** Stops the feed's campaign (freeing the lock) and closes Redis. */
  async close(): Promise<void> {
    this.services?.feed.stop();
    for (const stop of this.stops.splice(0)) stop();
    this.pins?.close();
    await this.election?.stop();
    if (this.broker instanceof RedisBroker) this.broker.close();
    await this.link?.close();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's cluster (main.ts decorates it; absent in tests that build the app). */
    cluster?: Cluster;
  }
}
