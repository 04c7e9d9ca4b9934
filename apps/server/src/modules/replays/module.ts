import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { BacktestModule } from '../strategy/module.ts';
import type { MarketData } from '../market/market-data.ts';
import { replayRoutes } from './routes.ts';
import { createReplayService, type ReplayService } from './service.ts';

/** The bar replay's parts tests reach. */
export type ReplaysModule = { service: ReplayService };

/** The replay calls: sessions kept per user, their strategy run in the backtest's sandbox. */
export function registerReplays(
  app: FastifyInstance,
  deps: {
    db: Db;
    market: MarketData;
    backtest: BacktestModule;
    now: () => number;
    /** The live-run window: bars main(data_array) sees at each replayed close. */
    windowBars: () => number;
  },
): ReplaysModule {
  const service = createReplayService({
    db: deps.db,
    market: deps.market,
    pool: deps.backtest.sandbox,
    now: deps.now,
    windowBars: deps.windowBars,
  });
  replayRoutes(app, service);
  return { service };
}
