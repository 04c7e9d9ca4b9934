import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Broker } from '../gateway/broker.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import type { TradingContext } from './context.ts';
import { DEFAULT_MARGIN_WARNING_LEVEL } from './account-summary.ts';
import { TriggerEngine } from './engine.ts';
import { MarginWatch } from './margin-watch.ts';
import { DEFAULT_ORDER_WRITER, OrderWriter } from './order-writer.ts';
import { lockAccounts } from './store/accounts.ts';
import type { BatchedOrder } from './batched-order.ts';
import { writeMarketBatch } from './market-batch.ts';
import { tradingRoutes } from './routes.ts';
import { TriggerIndex } from './trigger-index.ts';

export type TradingModule = { engine: TriggerEngine; context: TradingContext };

/**
 * The paper-trading venue: its routes and its trigger engine, which listens to every tick
 * of the feed and resumes from the database (working pending orders, TP/SL positions).
 * `runTimers` starts the GFD expiry sweep (the server; tests sweep by hand).
 */
export async function registerTrading(
  app: FastifyInstance,
  deps: {
    db: Db;
    market: MarketData;
    feed: MarketFeed;
    broker: Broker;
    now: () => number;
    liveTokenSecret: string;
    /** The margin level (percent) below which the account summary warns. */
    marginWarningLevel?: number;
    runTimers: boolean;
    /** Records the notifications of the trigger engine's fills and closes (context.ts). */
    notify?: TradingContext['notify'];
    /** Records a margin warning of the margin watch (context.ts). */
    notifyMarginWarning?: TradingContext['notifyMarginWarning'];
    /** Group commit of the API's commands (the default) or one transaction each (config.ts). */
    orderCommit?: { mode: 'group' | 'single'; maxBatch: number; windowMs: number };
  },
): Promise<TradingModule> {
  const context: TradingContext = {
    db: deps.db,
    market: deps.market,
    broker: deps.broker,
    feed: deps.feed,
    now: deps.now,
    index: new TriggerIndex(),
    log: app.log,
    notify: deps.notify,
    notifyMarginWarning: deps.notifyMarginWarning,
    writer:
      deps.orderCommit?.mode === 'single'
        ? undefined
        : new OrderWriter<BatchedOrder>(deps.db, {
            ...(deps.orderCommit ?? DEFAULT_ORDER_WRITER),
            lockAll: lockAccounts,
            batch: (tx, items) => writeMarketBatch(context, tx, items),
          }),
  };
  const margin = new MarginWatch(context, deps.marginWarningLevel ?? DEFAULT_MARGIN_WARNING_LEVEL);
  const engine = new TriggerEngine(context, margin);
  await engine.load();
  const stopListening = deps.feed.onQuote(engine.onQuote);
  if (deps.runTimers) app.addHook('onListen', async () => engine.startTimer());
  app.addHook('onClose', async () => {
    stopListening();
    engine.stop();
    await engine.whenIdle();
  });
  tradingRoutes(app, context, {
    liveTokenSecret: deps.liveTokenSecret,
    marginWarningLevel: deps.marginWarningLevel,
  });
  return { engine, context };
}
