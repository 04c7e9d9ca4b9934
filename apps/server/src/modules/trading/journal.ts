import type { Db } from '../../db/types.ts';
import type { OrderEventRecord, Settlement } from './store/history.ts';
import type { Pending } from './store/pendings.ts';
import type { Position } from './store/positions.ts';

/**
 * What a command changed, as facts: the order events it appended (with the id of the order
 * they belong to) and the changes that are no order event (a close's settlement, a
 * position's new TP/SL, a pending order's new price). The pipeline collects them and, after
 * the commit, derives the account's live events from them (account-events.ts).
 */
export type AccountFact =
  | { kind: 'order'; event: Omit<OrderEventRecord, 'id'> }
  | { kind: 'settled'; position: Position; settlement: Settlement; at: number }
  | { kind: 'protectionChanged'; position: Position; at: number }
  | { kind: 'pendingChanged'; pending: Pending; at: number };

/**
 * What a use case asks to happen once its transaction has committed: the trigger index
 * follows the change. Nothing of it happens when the transaction fails.
 */
export type AfterCommit = {
  trackPending(p: Pending): void;
  untrackPending(p: Pick<Pending, 'symbol' | 'id'>): void;
  trackPosition(p: Position): void;
  untrackPosition(p: Pick<Position, 'symbol' | 'id'>): void;
};

/** A command's transaction and the record of what it changed in it. */
export type Journal = {
  tx: Db;
  record(fact: AccountFact): void;
};
