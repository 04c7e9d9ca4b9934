import {
  feedLoadRequestSchema,
  CODE_RATE_LIMITED,
  ticksDue,
  type FeedLoadRequest,
  type FeedLoadStatus,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { AppError, NotFoundError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { sessionOf } from '../auth/guard.ts';
import type { MarketFeed } from './feed.ts';

export const FEED_LOAD_PATH = '/api/market/load';
/** The load's timer: extra ticks go out in steps this far apart. */
const STEP_MS = 20;

type Run = FeedLoadRequest & {
  userId: number | string;
  startedAt: number;
  until: number;
  lastStep: number;
  carry: number;
  published: number;
  timer: NodeJS.Timeout;
};

/**
 * The performance page's load: for a bounded time the feed publishes the current quote of
 * a few symbols again, `ticksPerSecond` times a second each (timestamped now), on their
 * public channels only. Nothing else changes: the quote the engine fills at, the bars and
 * the quote cache stay the simulation's. One load runs at a time; it ends by itself.
 */
export class FeedLoad {
  private run: Run | null = null;

  constructor(
    private readonly feed: MarketFeed,
    private readonly now: () => number = Date.now,
  ) {}

  start(userId: number | string, request: FeedLoadRequest): FeedLoadStatus {
    if (this.run && this.run.userId !== userId) {
      // one load at a time on a server: a second user waits until it ends (at most 120 s)
      throw new AppError(CODE_RATE_LIMITED, 'Another user’s load test is running', 409);
    }
    this.stop();
    const startedAt = this.now();
    this.run = {
      ...request,
      userId,
      startedAt,
      until: startedAt + request.durationSeconds * 1000,
      lastStep: startedAt,
      carry: 0,
      published: 0,
      timer: setInterval(() => this.step(), STEP_MS),
    };
    return this.status();
  }

  stop(): boolean {
    if (!this.run) return false;
    clearInterval(this.run.timer);
    this.run = null;
    return true;
  }

  status(): FeedLoadStatus {
    const run = this.run;
    return {
      load: run
        ? {
            symbols: run.symbols,
            ticksPerSecond: run.ticksPerSecond,
            until: run.until,
            published: run.published,
          }
        : null,
    };
  }

  /** Publishes the ticks due since the last step (also called by tests). */
  step(): void {
    const run = this.run;
    if (!run) return;
    const now = Math.min(this.now(), run.until);
    const { due, carry } = ticksDue(run.ticksPerSecond, now - run.lastStep, run.carry);
    run.carry = carry;
    run.lastStep = now;
    for (let i = 0; i < due; i += 1) {
      for (const symbol of run.symbols) {
        if (this.feed.republish(symbol, now)) run.published += 1;
      }
    }
    if (now >= run.until) this.stop();
  }
}

/** The load control's routes (logged-in users only; registered when enabled). */
export function feedLoadRoutes(
  app: FastifyInstance,
  load: FeedLoad,
  isKnown: (s: string) => boolean,
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const start = { preHandler: app.requireSession, schema: { body: feedLoadRequestSchema } };
  typed.post(FEED_LOAD_PATH, start, async (request) => {
    const body = request.body;
    const unknown = body.symbols.find((symbol) => !isKnown(symbol));
    if (unknown) throw new NotFoundError(`Unknown symbol: ${unknown}`);
    return load.start(sessionOf(request).userId, body);
  });
  app.get(FEED_LOAD_PATH, { preHandler: app.requireSession }, async () => load.status());
  app.delete(FEED_LOAD_PATH, { preHandler: app.requireSession }, async () => ({
    stopped: load.stop(),
  }));
  app.addHook('onClose', async () => {
    load.stop();
  });
}
