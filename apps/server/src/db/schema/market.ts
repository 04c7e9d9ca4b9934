import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/** An instrument of a user's own, whose history the user imported from a CSV file. */
export const importedInstruments = pgTable(
  'imported_instruments',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `{NAME}.U{userId}`: unique across users, usable as a channel and query id. */
    symbol: text('symbol').notNull(),
    name: text('name').notNull(),
    /** Period of the imported bars ('1m' … 'month'). */
    resolution: text('resolution').notNull(),
    barCount: integer('bar_count').notNull(),
    /** First and last bar start, epoch ms. */
    firstTime: bigint('first_time', { mode: 'number' }).notNull(),
    lastTime: bigint('last_time', { mode: 'number' }).notNull(),
    /** Epoch seconds. */
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('imported_instruments_symbol_idx').on(t.symbol),
    index('imported_instruments_user_idx').on(t.userId),
  ],
);

/** The bars of an imported instrument; `time` is the bar start in epoch ms. */
export const importedBars = pgTable(
  'imported_bars',
  {
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => importedInstruments.id, { onDelete: 'cascade' }),
    time: bigint('time', { mode: 'number' }).notNull(),
    open: doublePrecision('open').notNull(),
    high: doublePrecision('high').notNull(),
    low: doublePrecision('low').notNull(),
    close: doublePrecision('close').notNull(),
    volume: doublePrecision('volume').notNull(),
  },
  (t) => [primaryKey({ columns: [t.instrumentId, t.time] })],
);

export type ImportedInstrumentRow = typeof importedInstruments.$inferSelect;
