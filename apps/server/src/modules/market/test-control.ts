import { isOnTick, testQuoteRequestSchema, type SimQuote } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { MarketFeed } from './feed.ts';
import type { MarketData } from './market-data.ts';

export const TEST_QUOTE_PATH = '/api/test/market/quote';

/**
 * The test-only feed control, registered only with MARKET_TEST_CONTROL=1 (never in
 * production): browser journeys move an instrument's price to where they need it instead
 * of racing the simulator's clock. A pinned quote goes through the feed like a simulated
 * tick (the quote cache, `public:{symbol}` and the trigger engine all see it); the answer
 * comes once the engine has acted on it (`settled`).
 */
/**
 * Pins and releases quotes. In one process the feed is here; on an API node of a cluster
 * (modules/cluster) they are asked of the active feed, wherever it runs.
 */
export type QuotePins = {
  /** Pins the quote, publishes it as a tick and resolves once the engine acted on it. */
  pin(symbol: string, bid: number, ask: number): Promise<SimQuote>;
  /** Releases the pin (false when none), publishing the simulation's quote again. */
  unpin(symbol: string): Promise<boolean>;
};

/** The pins of this process's own feed. */
export function localPins(deps: {
  market: MarketData;
  feed: MarketFeed;
  now: () => number;
  settled: () => Promise<void>;
}): QuotePins {
  const { market, feed, now, settled } = deps;
  return {
    async pin(symbol, bid, ask) {
      const quote = market.pin(symbol, bid, ask, now());
      feed.pollSymbol(symbol);
      await settled();
      return quote;
    },
    async unpin(symbol) {
      const released = market.unpin(symbol);
      feed.pollSymbol(symbol);
      await settled();
      return released;
    },
  };
}

export function marketTestControlRoutes(
  app: FastifyInstance,
  deps: {
    market: MarketData;
    feed: MarketFeed;
    now: () => number;
    settled: () => Promise<void>;
    /** Where pins go instead of this process's feed (a cluster's API node). */
    pins?: QuotePins;
  },
): void {
  const { market } = deps;
  const pins = deps.pins ?? localPins(deps);

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(TEST_QUOTE_PATH, { schema: { body: testQuoteRequestSchema } }, async (request) => {
    const body = request.body;
    const instrument = market.instrument(body.symbol);
    if (!instrument || !market.has(body.symbol)) {
      throw new NotFoundError(`Unknown symbol: ${body.symbol}`);
    }
    const tick = instrument.min_price_tick;
    for (const side of ['bid', 'ask'] as const) {
      if (!isOnTick(body[side], tick)) {
        throw new BadRequestError(`${side}: must be a multiple of the tick ${tick}`);
      }
    }
    const quote = await pins.pin(body.symbol, body.bid, body.ask);
    return { symbol: body.symbol, bid: quote.bid, ask: quote.ask, time: quote.time };
  });

  // Releases the pin: the simulation's quote is published again on the next poll.
  app.delete<{ Params: { symbol: string } }>(`${TEST_QUOTE_PATH}/:symbol`, async (request) => {
    const { symbol } = request.params;
    if (!market.has(symbol)) throw new NotFoundError(`Unknown symbol: ${symbol}`);
    return { symbol, released: await pins.unpin(symbol) };
  });
}
