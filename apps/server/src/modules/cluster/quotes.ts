import type { SimQuote } from '@ct/domain';
import { z } from 'zod';
import type { MarketFeed } from '../market/feed.ts';
import type { RedisLink } from './redis.ts';

/** The Redis hash of the newest quote of every symbol (field: symbol, value: JSON quote). */
export const QUOTES_KEY = 'ct:quotes';
/** The Redis channel of new quotes, published by the active feed before their ticks. */
export const QUOTE_CHANNEL = 'ct:quote';

const quoteSchema = z.object({
  time: z.number(),
  bid: z.number(),
  ask: z.number(),
  size: z.number(),
});
const quoteMessageSchema = z.object({ s: z.string().min(1), q: quoteSchema });

/** A stored or published quote, or null when it is not one. */
function parseQuote(text: string): SimQuote | null {
  const parsed = quoteSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

/**
 * The quote cache shared through Redis. The active feed writes each new quote into a hash
 * (what a node starting up or a feed taking over reads) and publishes it on a channel
 * ahead of its ticks (same connection, so in order); every other node's feed adopts it as
 * its latest quote, the one its API prices market orders at: the quote its clients see.
 */
export class SharedQuotes {
  constructor(private readonly link: RedisLink) {}

  /** The active feed's sink (MarketFeed.shareTo): stores and announces a new quote. */
  readonly share = (symbol: string, quote: SimQuote): void => {
    const json = JSON.stringify(quote);
    this.link.commands
      .pipeline()
      .hset(QUOTES_KEY, symbol, json)
      .publish(QUOTE_CHANNEL, `{"s":${JSON.stringify(symbol)},"q":${json}}`)
      .exec()
      .catch((error: unknown) => this.link.failed(error));
  };

  /** Every stored quote by symbol. */
  async load(): Promise<Map<string, SimQuote>> {
    const stored = await this.link.commands.hgetall(QUOTES_KEY);
    const quotes = new Map<string, SimQuote>();
    for (const [symbol, text] of Object.entries(stored)) {
      const quote = parseQuote(text);
      if (quote) quotes.set(symbol, quote);
    }
    return quotes;
  }

  /**
   * Keeps `feed`'s latest quotes current from the active feed (subscribes first, then
   * reads the hash, so no quote published in between is missed); returns the stop.
   */
  async follow(feed: Pick<MarketFeed, 'adopt'>): Promise<() => void> {
    const stop = await this.link.on(QUOTE_CHANNEL, (message) => {
      const parsed = quoteMessageSchema.safeParse(JSON.parse(message));
      if (parsed.success) feed.adopt(parsed.data.s, parsed.data.q);
    });
    for (const [symbol, quote] of await this.load()) feed.adopt(symbol, quote);
    return stop;
  }
}
