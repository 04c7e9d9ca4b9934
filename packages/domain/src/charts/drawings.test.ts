import { describeIssues } from '../api/envelope.ts';
import { describe, expect, it } from 'vitest';
import {
  createDrawingBodySchema,
  DEFAULT_DRAWING_STYLE,
  drawingSchema,
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
