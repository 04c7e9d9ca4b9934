import type { Lots, OpenOrderRequest } from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import type { CatalogueInstrument } from '../market/catalogue.ts';
import type { IdempotencyKey } from './idempotency.ts';
import type { AccountFact, AfterCommit } from './journal.ts';

/** A market order checked for its shape (instrument, quantity), not yet against its account. */
export type MarketOrderTicket = {
  trader: Pick<TraderRow, 'uuid' | 'level'>;
  req: OpenOrderRequest;
  instrument: CatalogueInstrument;
  /** The quantity normalized to the instrument's step. */
  volume: Lots;
  key: IdempotencyKey | null;
  nowMs: number;
};

/**
 * A market order as the order writer writes it together with the others of its batch
 * (market-batch.ts): its ticket, and the command's effects, fresh for each attempt (the
 * trigger index and the account's events, after the commit).
 */
export type BatchedOrder = {
  ticket: MarketOrderTicket;
  begin(): { after: AfterCommit; record(fact: AccountFact): void };
};
