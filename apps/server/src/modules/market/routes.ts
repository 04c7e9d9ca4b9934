import {
  toEpochSec,
  toEpochMs,
  KLINE_HISTORY_LIMIT,
  KLINE_LATEST_LIMIT,
  envelopeSchema,
  formatUtcDateTime,
  klineQuerySchema,
  klineSchema,
  marketSchema,
  symbolCacheEntrySchema,
  ok,
  parsePeriod,
  symbolCacheRequestSchema,
  type Bar,
  type Kline,
  type SymbolCacheEntry,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { ImportService } from './imports/service.ts';
import { FeedLoad, feedLoadRoutes } from './load-control.ts';
import type { MarketData } from './market-data.ts';
import { importedGroup, instrumentGroups, symbolList } from './symbols.ts';

/** Public market data: instrument list and groups, klines, the quote cache. */
export function marketRoutes(
  root: FastifyInstance,
  market: MarketData,
  imports: ImportService,
  now: () => number,
  /** The performance page's load control (config `marketLoadControl`); off by default. */
  loadControl = false,
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  // The performance page's bounded feed load (MARKET_LOAD_CONTROL=1; off in production).
  if (loadControl) feedLoadRoutes(app, new FeedLoad(app.services.feed, now), (s) => market.has(s));
  const listAnswer = {
    response: { 200: envelopeSchema(z.object({ lists: z.array(marketSchema) })) },
  };
  app.get('/trading/symbol/list', { schema: listAnswer }, async () => {
    const t = now();
    return ok({ lists: symbolList((symbol) => market.isTrading(symbol, t)) });
  });

  // A logged-in user also sees the instruments imported from their own CSV files.
  app.get('/trading/symbol/groups', async (request) => {
    const groups = instrumentGroups();
    const session = await app.sessionIfAny(request);
    if (!session) return groups;
    const own = await imports.list(session.userId);
    if (own.length === 0) return groups;
    return [...groups, importedGroup(own.map((i): [string, string] => [i.symbol, i.name]))];
  });

  const klines = {
    querystring: klineQuerySchema,
    response: { 200: envelopeSchema(z.object({ lists: z.array(klineSchema) })) },
  };
  app.get('/trading/kline/lists', { schema: klines }, async (request) => {
    const query = request.query;
    const period = parsePeriod(query.cycel);
    const paging = query.last_id !== undefined;
    const limit = query.limit ?? (paging ? KLINE_HISTORY_LIMIT : KLINE_LATEST_LIMIT);
    const endBefore = paging ? toEpochMs(query.last_id ?? 0) : Number.POSITIVE_INFINITY;
    let bars: Bar[];
    if (market.has(query.symbol)) {
      if (!period) throw new BadRequestError(`Unknown period: ${query.cycel}`);
      bars = market.bars(query.symbol, period, endBefore, limit, now());
    } else {
      const session = await app.sessionIfAny(request);
      const own =
        session && period
          ? await imports.bars(session.userId, query.symbol, period, endBefore, limit)
          : null;
      if (!own) {
        if (session && !period) throw new BadRequestError(`Unknown period: ${query.cycel}`);
        throw new NotFoundError(`Unknown symbol: ${query.symbol}`);
      }
      bars = own;
    }
    const lists: Kline[] = bars.map((bar) => {
      const seconds = toEpochSec(bar.time);
      return {
        id: seconds,
        ctm: seconds,
        ctmFmt: formatUtcDateTime(bar.time),
        open: bar.open,
        high: bar.high,
        low: bar.low,
        close: bar.close,
        volume: bar.volume,
      };
    });
    return ok({ lists });
  });

  const cache = {
    body: symbolCacheRequestSchema,
    response: { 200: envelopeSchema(z.object({ caches: z.array(symbolCacheEntrySchema) })) },
  };
  app.post('/trading/symbol/cache', { schema: cache }, async (request) => {
    const body = request.body;
    const symbols = [
      ...new Set(
        body.symbols
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = symbols.filter((symbol) => !market.has(symbol));
    if (symbols.length === 0) throw new BadRequestError('symbols: no symbol given');
    if (unknown.length > 0) throw new NotFoundError(`Unknown symbol: ${unknown.join(', ')}`);
    const t = now();
    const caches: SymbolCacheEntry[] = [];
    for (const symbol of symbols) {
      const quote = market.lastQuoteAt(symbol, t);
      if (quote) caches.push({ symbol, bid: quote.bid, ask: quote.ask });
    }
    return ok({ caches });
  });
}
