import { isOnTick, testQuoteRequestSchema } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import { parseInput } from '../../http/validate.ts';
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
export function marketTestControlRoutes(
  app: FastifyInstance,
  deps: { market: MarketData; feed: MarketFeed; now: () => number; settled: () => Promise<void> },
): void {
  const { market, feed, now, settled } = deps;

  app.post(TEST_QUOTE_PATH, async (request) => {
    const body = parseInput(testQuoteRequestSchema, request.body);
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
    const quote = market.pin(body.symbol, body.bid, body.ask, now());
    feed.pollSymbol(body.symbol);
    await settled();
    return { symbol: body.symbol, bid: quote.bid, ask: quote.ask, time: quote.time };
  });

  // Releases the pin: the simulation's quote is published again on the next poll.
  app.delete<{ Params: { symbol: string } }>(`${TEST_QUOTE_PATH}/:symbol`, async (request) => {
    const { symbol } = request.params;
    if (!market.has(symbol)) throw new NotFoundError(`Unknown symbol: ${symbol}`);
    const released = market.unpin(symbol);
    feed.pollSymbol(symbol);
    await settled();
    return { symbol, released };
  });
}
