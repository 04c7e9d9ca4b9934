import { TOLERANCE } from '../values/tolerance.ts';
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

/**
 * The colours the style toolbar offers: mid-tone hues that read on the light and the dark
 * chart background alike (each has a contrast of at least 3:1 against white and against
 * the dark theme's #141414). Any other `#rrggbb` is accepted too (a colour saved by another
 * client).
 */
export const DRAWING_PALETTE = [
  '#2962ff',
  '#f23645',
  '#089981',
  '#ef6c00',
  '#ab47bc',
  '#0097a7',
  '#e91e63',
  '#787b86',
] as const;

/** Line widths a drawing may have, in CSS pixels. */
export const DRAWING_WIDTHS = [1, 2, 3, 4] as const;

/** The rectangle fill opacities the style toolbar offers (0: no fill). */
export const DRAWING_FILL_OPACITIES = [0, 0.12, 0.25, 0.5] as const;

/** A rectangle's fill opacity when its style has none (drawings saved before the choice). */
export const DEFAULT_RECTANGLE_FILL = 0.12;

const colorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colour must be #rrggbb');
const widthSchema = z.number().int().min(1).max(4);
const lineSchema = z.enum(DRAWING_LINE_STYLES);
/** A fill opacity: 0 (none) … 1 (solid), at most two decimals. */
const fillSchema = z
  .number()
  .min(0)
  .max(1)
  .refine(
    (v) => Math.abs(v * 100 - Math.round(v * 100)) < TOLERANCE.snap,
    'Fill must have at most 2 decimals',
  );

export const drawingStyleSchema = z.strictObject({
  /** A CSS hex colour, '#rrggbb' (the palette's or any other). */
  color: colorSchema,
  /** Line width in CSS pixels, 1–4. */
  width: widthSchema,
  line: lineSchema,
});

/** A rectangle's style: the line's, and the opacity of its fill in the line's colour. */
export const rectangleStyleSchema = drawingStyleSchema.extend({ fill: fillSchema.optional() });

/** The style of any drawing (`fill` only ever on rectangles). */
export type DrawingStyle = z.infer<typeof drawingStyleSchema> & { fill?: number };

/** The style a new drawing gets. */
export const DEFAULT_DRAWING_STYLE: DrawingStyle = { color: '#2962ff', width: 2, line: 'solid' };

/**
 * A stored drawing's style as it can be shown: each field that is missing or invalid (a
 * drawing saved before styles were edited, a row written by hand) takes the default's;
 * `fill` is kept on rectangles only.
 */
export function readDrawingStyle(kind: DrawingKind, value: unknown): DrawingStyle {
  const raw = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const pick = <T>(schema: z.ZodType<T>, field: unknown, fallback: T): T => {
    const parsed = schema.safeParse(field);
    return parsed.success ? parsed.data : fallback;
  };
  const style: DrawingStyle = {
    color: pick(colorSchema, raw.color, DEFAULT_DRAWING_STYLE.color),
    width: pick(widthSchema, raw.width, DEFAULT_DRAWING_STYLE.width),
    line: pick(lineSchema, raw.line, DEFAULT_DRAWING_STYLE.line),
  };
  if (kind === 'rectangle' && raw.fill !== undefined) {
    const fill = fillSchema.safeParse(raw.fill);
    if (fill.success) style.fill = fill.data;
  }
  return style;
}

/** The fill opacity a rectangle is drawn with: its own, else the default. */
export function rectangleFillOf(style: DrawingStyle): number {
  return style.fill ?? DEFAULT_RECTANGLE_FILL;
}

const pointsOf = (count: number) =>
  z
    .array(drawingPointSchema)
    .length(count, count === 1 ? 'Expected exactly 1 point' : `Expected exactly ${count} points`);

/** An instrument's symbol as the chart calls name it. */
export const drawingSymbolSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,40}$/, 'Symbol must be 1–40 letters, digits, ., - or _');

/** Each kind with its points and its style schema (`style` optional: see the bodies). */
function shapesWith<S extends 'required' | 'optional'>(mode: S) {
  const style = <T extends z.ZodType>(schema: T) =>
    (mode === 'required' ? schema : schema.optional()) as S extends 'required'
      ? T
      : z.ZodOptional<T>;
  return {
    horizontal: z.strictObject({
      kind: z.literal('horizontal'),
      points: pointsOf(1),
      style: style(drawingStyleSchema),
    }),
    vertical: z.strictObject({
      kind: z.literal('vertical'),
      points: pointsOf(1),
      style: style(drawingStyleSchema),
    }),
    trend: z.strictObject({
      kind: z.literal('trend'),
      points: pointsOf(2),
      style: style(drawingStyleSchema),
    }),
    rectangle: z.strictObject({
      kind: z.literal('rectangle'),
      points: pointsOf(2),
      style: style(rectangleStyleSchema),
    }),
    fibonacci: z.strictObject({
      kind: z.literal('fibonacci'),
      points: pointsOf(2),
      style: style(drawingStyleSchema),
    }),
  };
}

const shapes = shapesWith('required');
/** Request bodies may leave the style out: a new drawing takes the default, a change keeps it. */
const bodyShapes = shapesWith('optional');

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

/**
 * `POST /api/charts/drawings` body: the instrument and the shape; without a style the
 * drawing gets the default one.
 */
export const createDrawingBodySchema = z.discriminatedUnion('kind', [
  bodyShapes.horizontal.extend(withSymbol),
  bodyShapes.vertical.extend(withSymbol),
  bodyShapes.trend.extend(withSymbol),
  bodyShapes.rectangle.extend(withSymbol),
  bodyShapes.fibonacci.extend(withSymbol),
]);
export type CreateDrawingBody = z.infer<typeof createDrawingBodySchema>;

/**
 * `PUT /api/charts/drawings/{id}` body: the new shape (moved points, edited style, kind);
 * without a style the drawing keeps the one it has.
 */
export const updateDrawingBodySchema = z.discriminatedUnion('kind', [
  bodyShapes.horizontal,
  bodyShapes.vertical,
  bodyShapes.trend,
  bodyShapes.rectangle,
  bodyShapes.fibonacci,
]);
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

/** The user's private live channel of chart drawings (`charts:{userId}`). */
export const chartsChannel = (userId: number | string) => `charts:${userId}`;

/**
 * Publications on `charts:{userId}`: a drawing of the user was saved (created, moved or
 * restyled) or deleted, on any device. A page patches the instrument's drawing list with it.
 */
export const drawingEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('drawing_saved'), drawing: drawingSchema }),
  z.object({
    type: z.literal('drawing_deleted'),
    id: z.number().int().positive(),
    symbol: z.string(),
  }),
]);
export type DrawingEvent = z.infer<typeof drawingEventSchema>;
