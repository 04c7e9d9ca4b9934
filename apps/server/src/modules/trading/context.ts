import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Broker } from '../gateway/broker.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import type { BatchedOrder } from './batched-order.ts';
import type { AccountFact } from './journal.ts';
import type { OrderWriter } from './order-writer.ts';
import type { TriggerIndex } from './trigger-index.ts';

/** What every trading use case needs; built once by the module (module.ts). */
export type TradingContext = {
  db: Db;
  market: MarketData;
  broker: Broker;
  /** The quotes clients were sent: orders fill at these, never at a price no screen showed. */
  feed: Pick<MarketFeed, 'latestQuote'>;
  /** Epoch milliseconds (tests move it by hand). */
  now: () => number;
  /** Working pending orders and TP/SL positions by symbol, for the trigger engine. */
  index: TriggerIndex;
  log: FastifyBaseLogger;
  /**
   * The API node's order writer (group commit: ORDER_COMMIT=group, the default); absent, each
   * API command is a transaction of its own (ORDER_COMMIT=single).
   */
  writer?: OrderWriter<BatchedOrder>;
  /**
   * Records the notifications of a trigger engine command's facts in its transaction and
   * returns what publishes them after the commit (modules/notifications/trading.ts).
   */
  notify?: (tx: Db, facts: readonly AccountFact[]) => Promise<() => void>;
  /**
   * Records a margin warning of the account (the margin watch saw its level fall below the
   * warning level) in `tx`; returns what publishes it after the commit.
   */
  notifyMarginWarning?: (
    tx: Db,
    uuid: string,
    warning: { level: number; warningLevel: number; at: number },
  ) => Promise<() => void>;
};
