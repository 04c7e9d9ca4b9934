import {
  toEpochSec,
  chartsChannel,
  chartIndicatorsBodySchema,
  DEFAULT_DRAWING_STYLE,
  chartKeySchema,
  createDrawingBodySchema,
  drawingSchema,
  drawingsQuerySchema,
  indicatorConfigSchema,
  MAX_DRAWINGS_PER_SYMBOL,
  MAX_DRAWINGS_PER_USER,
  MAX_INDICATOR_CHARTS_PER_USER,
  MAX_INDICATORS_PER_CHART,
  readDrawingStyle,
  updateDrawingBodySchema,
  type ChartIndicatorsBody,
  type Drawing,
  type DrawingEvent,
  type DrawingKind,
  type IndicatorConfig,
} from '@ct/domain';
import type { ChartDrawingRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { NotFoundError } from '../../http/errors.ts';
import type { Clock } from '../auth/rate-limit.ts';
import { ChartsUnprocessableError, parseChartsInput } from './errors.ts';
import {
  countDrawings,
  countIndicatorCharts,
  deleteDrawing,
  deleteIndicators,
  findIndicators,
  insertDrawing,
  listDrawings,
  lockUser,
  updateDrawing,
  upsertIndicators,
} from './store.ts';

export type ChartsServiceDeps = {
  db: Db;
  now: Clock;
  /** True for a catalogue instrument or one the user imported. */
  isKnownSymbol: (userId: number, symbol: string) => Promise<boolean>;
  /**
   * Tells the user's open pages (`charts:{userId}`) that a drawing was saved or deleted;
   * called after the change is stored. None: nobody is told (tests of storage alone).
   */
  publish?: (channel: string, event: DrawingEvent) => void;
};

/** The same answer for an id that does not exist and one of another user: nothing is revealed. */
const DRAWING_NOT_FOUND = 'Drawing not found';

function drawingOf(row: ChartDrawingRow): Drawing {
  return drawingSchema.parse({
    id: row.id,
    symbol: row.symbol,
    kind: row.kind,
    points: row.points,
    // a row saved before its style could be edited (or written by hand) reads with defaults
    style: readDrawingStyle(row.kind as DrawingKind, row.style),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}

/** A drawing id from the path: a positive 32-bit integer, else no drawing can have it. */
function drawingIdOf(value: string): number {
  const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
  if (!(id <= 2_147_483_647)) throw new NotFoundError(DRAWING_NOT_FOUND);
  return id;
}

/**
 * The user's chart storage: drawings per instrument and indicator settings per chart.
 * Every call is the session user's own; another user's drawing id is answered like an
 * unknown one.
 */
export function createChartsService({ db, now, isKnownSymbol, publish }: ChartsServiceDeps) {
  const seconds = () => toEpochSec(now());
  const tell = (userId: number, event: DrawingEvent) => publish?.(chartsChannel(userId), event);

  async function checkSymbol(userId: number, symbol: string): Promise<void> {
    if (!(await isKnownSymbol(userId, symbol))) {
      throw new ChartsUnprocessableError(`symbol: Unknown instrument ${symbol}`);
    }
  }

  return {
    async listDrawings(userId: number, query: unknown): Promise<{ drawings: Drawing[] }> {
      const { symbol } = parseChartsInput(drawingsQuerySchema, query);
      await checkSymbol(userId, symbol);
      return { drawings: (await listDrawings(db, userId, symbol)).map(drawingOf) };
    },

    async createDrawing(userId: number, body: unknown): Promise<Drawing> {
      const input = parseChartsInput(createDrawingBodySchema, body);
      await checkSymbol(userId, input.symbol);
      const row = await db.transaction(async (tx) => {
        if (!(await lockUser(tx, userId))) throw new NotFoundError('User not found');
        const counts = await countDrawings(tx, userId, input.symbol);
        if (counts.onSymbol >= MAX_DRAWINGS_PER_SYMBOL) {
          throw new ChartsUnprocessableError(
            `At most ${MAX_DRAWINGS_PER_SYMBOL} drawings on one instrument: delete some first`,
          );
        }
        if (counts.total >= MAX_DRAWINGS_PER_USER) {
          throw new ChartsUnprocessableError(
            `At most ${MAX_DRAWINGS_PER_USER} drawings in all: delete some first`,
          );
        }
        return insertDrawing(tx, {
          userId,
          symbol: input.symbol,
          kind: input.kind,
          points: input.points,
          style: input.style ?? DEFAULT_DRAWING_STYLE,
          at: seconds(),
        });
      });
      const drawing = drawingOf(row);
      tell(userId, { type: 'drawing_saved', drawing });
      return drawing;
    },

    async updateDrawing(userId: number, idParam: string, body: unknown): Promise<Drawing> {
      const id = drawingIdOf(idParam);
      const input = parseChartsInput(updateDrawingBodySchema, body);
      const row = await updateDrawing(db, userId, id, { ...input, at: seconds() });
      if (!row) throw new NotFoundError(DRAWING_NOT_FOUND);
      const drawing = drawingOf(row);
      tell(userId, { type: 'drawing_saved', drawing });
      return drawing;
    },

    async deleteDrawing(userId: number, idParam: string): Promise<{ deleted: number }> {
      const id = drawingIdOf(idParam);
      const symbol = await deleteDrawing(db, userId, id);
      if (symbol === null) throw new NotFoundError(DRAWING_NOT_FOUND);
      tell(userId, { type: 'drawing_deleted', id, symbol });
      return { deleted: id };
    },

    async getIndicators(userId: number, chartKeyParam: string): Promise<ChartIndicatorsBody> {
      const chartKey = parseChartsInput(chartKeySchema, chartKeyParam);
      const stored = (await findIndicators(db, userId, chartKey)) ?? [];
      // Settings saved under an older schema keep what still reads; the rest is dropped.
      const indicators: IndicatorConfig[] = [];
      const ids = new Set<string>();
      for (const item of stored) {
        const parsed = indicatorConfigSchema.safeParse(item);
        if (parsed.success && !ids.has(parsed.data.id)) {
          ids.add(parsed.data.id);
          indicators.push(parsed.data);
        }
      }
      return { indicators: indicators.slice(0, MAX_INDICATORS_PER_CHART) };
    },

    async putIndicators(
      userId: number,
      chartKeyParam: string,
      body: unknown,
    ): Promise<ChartIndicatorsBody> {
      const chartKey = parseChartsInput(chartKeySchema, chartKeyParam);
      const { indicators } = parseChartsInput(chartIndicatorsBodySchema, body);
      await db.transaction(async (tx) => {
        if (!(await lockUser(tx, userId))) throw new NotFoundError('User not found');
        if (indicators.length === 0) {
          await deleteIndicators(tx, userId, chartKey);
          return;
        }
        const charts = await countIndicatorCharts(tx, userId, chartKey);
        if (!charts.exists && charts.total >= MAX_INDICATOR_CHARTS_PER_USER) {
          throw new ChartsUnprocessableError(
            `At most ${MAX_INDICATOR_CHARTS_PER_USER} charts with indicators: clear another chart's first`,
          );
        }
        await upsertIndicators(tx, userId, chartKey, indicators, seconds());
      });
      return { indicators };
    },
  };
}

export type ChartsService = ReturnType<typeof createChartsService>;
