import { z } from 'zod';

/**
 * A chart's drawings (horizontal line, trend line, vertical line, rectangle, Fibonacci
 * retracement), saved per user and instrument. One schema for the browser, the server's
 * storage and the API (`/api/charts/drawings`).
 */
export const DRAWING_KINDS = ['horizontal', 'trend', 'vertical', 'rectangle', 'fibonacci'] as const;
export type DrawingKind = (typeof DRAWING_KINDS)[number];

/** How many points each kind is drawn from. */
export const DRAWING_POINTS: Readonly<Record<DrawingKind, number>> = {
  horizontal: 1,
  vertical: 1,
  trend: 2,
  rectangle: 2,
  fibonacci: 2,
};

/** At most this many drawings per user on one instrument. */
export const MAX_DRAWINGS_PER_SYMBOL = 100;
/** At most this many drawings per user over all instruments. */
export const MAX_DRAWINGS_PER_USER = 1000;
/** At most this many charts (keys) with saved indicator settings per user. */
export const MAX_INDICATOR_CHARTS_PER_USER = 50;
/** Request bodies of the chart calls are at most this many bytes. */
export const CHARTS_BODY_LIMIT_BYTES = 16 * 1024;

/** Response code of a chart call the server cannot act on (HTTP 422). */
export const CODE_CHARTS_UNPROCESSABLE = 42200;

/** Latest time a point may have: 2100-01-01 UTC, in epoch seconds. */
const MAX_POINT_TIME = 4_102_444_800;
/** Largest absolute price a point may have. */
const MAX_POINT_PRICE = 1e12;

/** An anchor of a drawing: epoch seconds (a bar's time, or later on the future side) and a price. */
export const drawingPointSchema = z.strictObject({
  time: z.number().int().min(0).max(MAX_POINT_TIME),
  price: z.number().finite().min(-MAX_POINT_PRICE).max(MAX_POINT_PRICE),
});
export type DrawingPoint = z.infer<typeof drawingPointSchema>;

export const DRAWING_LINE_STYLES = ['solid', 'dashed', 'dotted'] as const;
export type DrawingLineStyle = (typeof DRAWING_LINE_STYLES)[number];

export const drawingStyleSchema = z.strictObject({
  /** A CSS hex colour, '#rrggbb'. */
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colour must be #rrggbb'),
  /** Line width in CSS pixels. */
  width: z.number().int().min(1).max(4),
  line: z.enum(DRAWING_LINE_STYLES),
});
export type DrawingStyle = z.infer<typeof drawingStyleSchema>;

/** The style a new drawing gets. */
export const DEFAULT_DRAWING_STYLE: DrawingStyle = { color: '#2962ff', width: 2, line: 'solid' };

const pointsOf = (count: number) =>
  z
    .array(drawingPointSchema)
    .length(count, count === 1 ? 'Expected exactly 1 point' : `Expected exactly ${count} points`);

/** An instrument's symbol as the chart calls name it. */
export const drawingSymbolSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,40}$/, 'Symbol must be 1–40 letters, digits, ., - or _');

const shapes = {
  horizontal: z.strictObject({
    kind: z.literal('horizontal'),
    points: pointsOf(1),
    style: drawingStyleSchema,
  }),
  vertical: z.strictObject({
    kind: z.literal('vertical'),
    points: pointsOf(1),
    style: drawingStyleSchema,
  }),
  trend: z.strictObject({
    kind: z.literal('trend'),
    points: pointsOf(2),
    style: drawingStyleSchema,
  }),
  rectangle: z.strictObject({
    kind: z.literal('rectangle'),
    points: pointsOf(2),
    style: drawingStyleSchema,
  }),
  fibonacci: z.strictObject({
    kind: z.literal('fibonacci'),
    points: pointsOf(2),
    style: drawingStyleSchema,
  }),
};

/** The shape of a drawing: its kind with the points that kind needs, and its style. */
export const drawingShapeSchema = z.discriminatedUnion('kind', [
  shapes.horizontal,
  shapes.vertical,
  shapes.trend,
  shapes.rectangle,
  shapes.fibonacci,
]);
export type DrawingShape = z.infer<typeof drawingShapeSchema>;

const withSymbol = { symbol: drawingSymbolSchema };

/** `POST /api/charts/drawings` body: the instrument and the shape. */
export const createDrawingBodySchema = z.discriminatedUnion('kind', [
  shapes.horizontal.extend(withSymbol),
  shapes.vertical.extend(withSymbol),
  shapes.trend.extend(withSymbol),
  shapes.rectangle.extend(withSymbol),
  shapes.fibonacci.extend(withSymbol),
]);
export type CreateDrawingBody = z.infer<typeof createDrawingBodySchema>;

/** `PUT /api/charts/drawings/{id}` body: the new shape (moved points, edited style, kind). */
export const updateDrawingBodySchema = drawingShapeSchema;
export type UpdateDrawingBody = z.infer<typeof updateDrawingBodySchema>;

/** `GET /api/charts/drawings?symbol=` query. */
export const drawingsQuerySchema = z.object({ symbol: drawingSymbolSchema });

const saved = {
  id: z.number().int().positive(),
  symbol: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
};

/** A saved drawing as the API answers it; times in epoch seconds. */
export const drawingSchema = z.discriminatedUnion('kind', [
  shapes.horizontal.extend(saved),
  shapes.vertical.extend(saved),
  shapes.trend.extend(saved),
  shapes.rectangle.extend(saved),
  shapes.fibonacci.extend(saved),
]);
export type Drawing = z.infer<typeof drawingSchema>;

/** `GET /api/charts/drawings?symbol=` answer: oldest first (later ones are drawn on top). */
export const drawingListSchema = z.object({ drawings: z.array(drawingSchema) });
export type DrawingList = z.infer<typeof drawingListSchema>;

/** `DELETE /api/charts/drawings/{id}` answer. */
export const deletedDrawingSchema = z.object({ deleted: z.number().int().positive() });
