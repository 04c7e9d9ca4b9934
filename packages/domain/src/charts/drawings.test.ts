import { describeIssues } from '../api/envelope.ts';
import { describe, expect, it } from 'vitest';
import {
  createDrawingBodySchema,
  DEFAULT_DRAWING_STYLE,
  DRAWING_PALETTE,
  drawingEventSchema,
  drawingSchema,
  readDrawingStyle,
  rectangleFillOf,
  updateDrawingBodySchema,
} from './drawings.ts';

const A = { time: 1_767_600_000, price: 100.5 };
const B = { time: 1_767_603_600, price: 101.25 };

function problems(value: unknown): string {
  const result = createDrawingBodySchema.safeParse(value);
  return result.success ? '' : describeIssues(result.error.issues);
}

describe('createDrawingBodySchema', () => {
  it('accepts each kind with the points it needs', () => {
    for (const [kind, points] of [
      ['horizontal', [A]],
      ['vertical', [A]],
      ['trend', [A, B]],
      ['rectangle', [A, B]],
      ['fibonacci', [A, B]],
    ] as const) {
      const body = { symbol: 'BTCUSDT', kind, points, style: DEFAULT_DRAWING_STYLE };
      expect(createDrawingBodySchema.parse(body)).toEqual(body);
    }
  });

  it('refuses an unknown kind, a wrong number of points, non-finite numbers and extra fields', () => {
    const style = DEFAULT_DRAWING_STYLE;
    expect(problems({ symbol: 'X', kind: 'circle', points: [A], style })).toMatch(/kind/);
    expect(problems({ symbol: 'X', kind: 'trend', points: [A], style })).toMatch(
      /points: Expected exactly 2 points/,
    );
    expect(problems({ symbol: 'X', kind: 'horizontal', points: [A, B], style })).toMatch(
      /points: Expected exactly 1 point/,
    );
    expect(
      problems({ symbol: 'X', kind: 'horizontal', points: [{ time: 1, price: Infinity }], style }),
    ).toMatch(/points\.0\.price/);
    expect(
      problems({ symbol: 'X', kind: 'horizontal', points: [{ time: 1.5, price: 1 }], style }),
    ).toMatch(/points\.0\.time/);
    expect(problems({ symbol: 'X', kind: 'horizontal', points: [A], style, extra: 1 })).toMatch(
      /extra/,
    );
    expect(
      problems({ symbol: 'X', kind: 'horizontal', points: [A], style: { ...style, width: 9 } }),
    ).toMatch(/style\.width/);
    expect(problems({ symbol: 'a b', kind: 'horizontal', points: [A], style })).toMatch(/symbol/);
  });
});

describe('updateDrawingBodySchema', () => {
  it('takes a shape without the symbol', () => {
    const body = { kind: 'rectangle', points: [A, B], style: DEFAULT_DRAWING_STYLE };
    expect(updateDrawingBodySchema.parse(body)).toEqual(body);
    expect(updateDrawingBodySchema.safeParse({ ...body, symbol: 'X' }).success).toBe(false);
  });
});

describe('drawingSchema', () => {
  it('reads a saved drawing', () => {
    const saved = {
      id: 3,
      symbol: 'EURUSD',
      kind: 'trend',
      points: [A, B],
      style: DEFAULT_DRAWING_STYLE,
      createdAt: 10,
      updatedAt: 11,
    };
    expect(drawingSchema.parse(saved)).toEqual(saved);
  });
});

describe('drawing styles', () => {
  const body = (kind: string, style: unknown) => ({
    symbol: 'BTCUSDT',
    kind,
    points: kind === 'horizontal' ? [A] : [A, B],
    style,
  });

  it('accepts every palette colour, any #rrggbb, widths 1 to 4 and the three line styles', () => {
    for (const color of [...DRAWING_PALETTE, '#A1b2C3']) {
      for (const width of [1, 2, 3, 4]) {
        for (const line of ['solid', 'dashed', 'dotted']) {
          expect(problems(body('trend', { color, width, line }))).toBe('');
        }
      }
    }
  });

  it('refuses other colours, widths and line styles, naming the field', () => {
    const ok = { color: '#2962ff', width: 2, line: 'solid' };
    expect(problems(body('trend', { ...ok, color: 'red' }))).toMatch(/style\.color: Colour must/);
    expect(problems(body('trend', { ...ok, color: '#12345' }))).toMatch(/style\.color/);
    expect(problems(body('trend', { ...ok, color: '#1234567' }))).toMatch(/style\.color/);
    expect(problems(body('trend', { ...ok, width: 0 }))).toMatch(/style\.width/);
    expect(problems(body('trend', { ...ok, width: 5 }))).toMatch(/style\.width/);
    expect(problems(body('trend', { ...ok, width: 1.5 }))).toMatch(/style\.width/);
    expect(problems(body('trend', { ...ok, line: 'wavy' }))).toMatch(/style\.line/);
    expect(problems(body('trend', { ...ok, glow: true }))).toMatch(/glow/);
  });

  it('takes a fill opacity on rectangles only, 0 to 1 with at most 2 decimals', () => {
    const ok = { color: '#2962ff', width: 2, line: 'solid' };
    for (const fill of [0, 0.12, 0.25, 0.5, 1]) {
      expect(problems(body('rectangle', { ...ok, fill }))).toBe('');
    }
    expect(problems(body('rectangle', { ...ok, fill: -0.1 }))).toMatch(/style\.fill/);
    expect(problems(body('rectangle', { ...ok, fill: 1.01 }))).toMatch(/style\.fill/);
    expect(problems(body('rectangle', { ...ok, fill: 0.125 }))).toMatch(/style\.fill/);
    expect(problems(body('trend', { ...ok, fill: 0.25 }))).toMatch(/fill/);
    expect(problems(body('fibonacci', { ...ok, fill: 0.25 }))).toMatch(/fill/);
  });

  it('lets a body leave the style out (new: the default; a change: kept)', () => {
    expect(problems({ symbol: 'BTCUSDT', kind: 'horizontal', points: [A] })).toBe('');
    expect(updateDrawingBodySchema.safeParse({ kind: 'trend', points: [A, B] }).success).toBe(true);
    // a saved drawing always has one
    const saved = { id: 1, symbol: 'X', kind: 'trend', points: [A, B], createdAt: 1, updatedAt: 1 };
    expect(drawingSchema.safeParse(saved).success).toBe(false);
  });

  it('reads a stored style field by field, the default standing in for what is missing or bad', () => {
    expect(readDrawingStyle('trend', undefined)).toEqual(DEFAULT_DRAWING_STYLE);
    expect(readDrawingStyle('trend', null)).toEqual(DEFAULT_DRAWING_STYLE);
    expect(readDrawingStyle('trend', { color: '#f23645' })).toEqual({
      color: '#f23645',
      width: 2,
      line: 'solid',
    });
    expect(
      readDrawingStyle('trend', { color: 'red', width: 9, line: 'dotted', fill: 0.5 }),
    ).toEqual({
      color: '#2962ff',
      width: 2,
      line: 'dotted',
    });
    expect(
      readDrawingStyle('rectangle', { color: '#089981', width: 1, line: 'dashed', fill: 0.5 }),
    ).toEqual({ color: '#089981', width: 1, line: 'dashed', fill: 0.5 });
    expect(readDrawingStyle('rectangle', { fill: 3 })).toEqual(DEFAULT_DRAWING_STYLE);
  });

  it('draws a rectangle without a fill of its own at 12 %', () => {
    expect(rectangleFillOf(DEFAULT_DRAWING_STYLE)).toBe(0.12);
    expect(rectangleFillOf({ ...DEFAULT_DRAWING_STYLE, fill: 0 })).toBe(0);
    expect(rectangleFillOf({ ...DEFAULT_DRAWING_STYLE, fill: 0.5 })).toBe(0.5);
  });
});

describe('drawingEventSchema', () => {
  it('reads a saved and a deleted drawing event, and nothing else', () => {
    const drawing = {
      id: 3,
      symbol: 'EURUSD',
      kind: 'horizontal',
      points: [A],
      style: DEFAULT_DRAWING_STYLE,
      createdAt: 10,
      updatedAt: 11,
    };
    expect(drawingEventSchema.parse({ type: 'drawing_saved', drawing })).toEqual({
      type: 'drawing_saved',
      drawing,
    });
    expect(drawingEventSchema.parse({ type: 'drawing_deleted', id: 3, symbol: 'EURUSD' })).toEqual({
      type: 'drawing_deleted',
      id: 3,
      symbol: 'EURUSD',
    });
    expect(drawingEventSchema.safeParse({ type: 'drawing_moved', id: 3 }).success).toBe(false);
    expect(
      drawingEventSchema.safeParse({ type: 'drawing_deleted', id: 0, symbol: 'X' }).success,
    ).toBe(false);
  });
});
