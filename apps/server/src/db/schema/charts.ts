import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
} from 'drizzle-orm/pg-core';
import type { DrawingPoint, DrawingStyle } from '@ct/domain';
import { users } from './identity.ts';

/**
 * Drawings on charts (trend lines, rectangles…), per user and instrument. Points and style
 * are the domain's schemas (`drawingPointSchema`, `drawingStyleSchema`), checked before
 * they are written. Times are epoch seconds.
 */
export const chartDrawings = pgTable(
  'chart_drawings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    kind: text('kind').notNull(),
    points: jsonb('points').$type<DrawingPoint[]>().notNull(),
    style: jsonb('style').$type<DrawingStyle>().notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('chart_drawings_user_symbol_idx').on(t.userId, t.symbol, t.id)],
);

export type ChartDrawingRow = typeof chartDrawings.$inferSelect;

/**
 * A chart's indicator settings per user and chart key (`chartIndicatorsSchema`): one row
 * per chart that has any; an empty list deletes the row.
 */
export const chartIndicators = pgTable(
  'chart_indicators',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chartKey: text('chart_key').notNull(),
    indicators: jsonb('indicators').$type<unknown[]>().notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.chartKey] })],
);

export type ChartIndicatorsRow = typeof chartIndicators.$inferSelect;
