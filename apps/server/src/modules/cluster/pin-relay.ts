import { randomUUID } from 'node:crypto';
import type { SimQuote } from '@ct/domain';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { QuotePins } from '../market/test-control.ts';
import type { RedisLink } from './redis.ts';

/** Requests to the active feed (test-only quote pins) and its answers. */
export const PIN_CHANNEL = 'ct:pins';
export const PIN_REPLY_CHANNEL = 'ct:pins:reply';
/** The answer's code when no active feed answered (503, in the family's `http × 100` style). */
export const CODE_NO_FEED = 50300;
/** How long an API node waits for the active feed to answer a pin. */
export const PIN_TIMEOUT_MS = 10_000;

const requestSchema = z.discriminatedUnion('op', [
  z.object({
    id: z.string(),
    op: z.literal('pin'),
    symbol: z.string(),
    bid: z.number(),
    ask: z.number(),
  }),
  z.object({ id: z.string(), op: z.literal('unpin'), symbol: z.string() }),
]);
const replySchema = z.object({
  id: z.string(),
  quote: z.object({ time: z.number(), bid: z.number(), ask: z.number(), size: z.number() }),
  released: z.boolean(),
});

type Waiter = { resolve: (reply: z.infer<typeof replySchema>) => void; timer: NodeJS.Timeout };

/**
 * The test-only quote pins (MARKET_TEST_CONTROL) across a cluster: a pin must move the
 * active feed's quote, wherever it runs. An API node sends the request through Redis; the
 * active feed pins, publishes the tick, lets its trigger engine act and answers. The
 * process that is the active feed pins locally.
 */
export class PinRelay implements QuotePins {
  private readonly waiting = new Map<string, Waiter>();
  private local: QuotePins | null = null;
  private stops: (() => void)[] = [];

  constructor(
    private readonly link: RedisLink,
    private readonly timeoutMs = PIN_TIMEOUT_MS,
  ) {}

  /** Starts hearing answers (every node that may send a request). */
  async open(): Promise<void> {
    this.stops.push(
      await this.link.on(PIN_REPLY_CHANNEL, (message) => {
        const reply = replySchema.safeParse(JSON.parse(message));
        if (!reply.success) return;
        const waiter = this.waiting.get(reply.data.id);
        if (!waiter) return;
        this.waiting.delete(reply.data.id);
        clearTimeout(waiter.timer);
        waiter.resolve(reply.data);
      }),
    );
  }

  /**
   * This process became the active feed: it answers requests with its own pins (`local`,
   * after `beforePin`: the engine's index reload, so it knows orders other nodes placed).
   */
  async serve(local: QuotePins, beforePin: () => Promise<void>): Promise<void> {
    this.local = local;
    this.stops.push(
      await this.link.on(PIN_CHANNEL, (message) => {
        const request = requestSchema.safeParse(JSON.parse(message));
        if (!request.success) return;
        // no answer on failure: the asking node answers 503 when its wait ends
        this.answer(request.data, local, beforePin).catch(() => undefined);
      }),
    );
  }

  close(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
    for (const waiter of this.waiting.values()) clearTimeout(waiter.timer);
    this.waiting.clear();
  }

  async pin(symbol: string, bid: number, ask: number): Promise<SimQuote> {
    if (this.local) return this.local.pin(symbol, bid, ask);
    return (await this.ask({ op: 'pin', symbol, bid, ask })).quote;
  }

  async unpin(symbol: string): Promise<boolean> {
    if (this.local) return this.local.unpin(symbol);
    return (await this.ask({ op: 'unpin', symbol })).released;
  }

  private ask(
    request:
      { op: 'pin'; symbol: string; bid: number; ask: number } | { op: 'unpin'; symbol: string },
  ): Promise<z.infer<typeof replySchema>> {
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new AppError(CODE_NO_FEED, 'No active feed answered', 503));
      }, this.timeoutMs);
      this.waiting.set(id, { resolve, timer });
      this.link.publish(PIN_CHANNEL, JSON.stringify({ id, ...request }));
    });
  }

  private async answer(
    request: z.infer<typeof requestSchema>,
    local: QuotePins,
    beforePin: () => Promise<void>,
  ): Promise<void> {
    await beforePin();
    let quote: SimQuote = { time: 0, bid: 0, ask: 0, size: 0 };
    let released = false;
    if (request.op === 'pin') quote = await local.pin(request.symbol, request.bid, request.ask);
    else released = await local.unpin(request.symbol);
    this.link.publish(PIN_REPLY_CHANNEL, JSON.stringify({ id: request.id, quote, released }));
  }
}
