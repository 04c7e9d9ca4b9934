import { DEFAULT_DRAWING_STYLE } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { layoutDrawings, shownSummary, type Projection } from './layout';
import { shapeOf } from './shapes';

// time t at x = t / 10, price p at y = 1000 − p; times before 0 cannot be placed
const projection: Projection = { x: (t) => (t < 0 ? null : t / 10), y: (p) => 1000 - p };

describe('layoutDrawings', () => {
  it('places every point and keeps what a pointer hits in the same order', () => {
    const trend = shapeOf('trend', [
      { time: 100, price: 10 },
      { time: -1, price: 20 },
    ]);
    const { screen, items } = layoutDrawings(
      [{ id: 4, shape: trend, selected: true }],
      projection,
      0.01,
    );
    expect(screen).toEqual([
      {
        id: 4,
        kind: 'trend',
        points: [
          { x: 10, y: 990 },
          { x: null, y: 980 },
        ],
      },
    ]);
    expect(items[0]).toMatchObject({ kind: 'trend', selected: true, fill: 0 });
  });

  it('labels a horizontal line on the price axis in its colour and the retracement levels', () => {
    const horizontal = shapeOf('horizontal', [{ time: 0, price: 1.5 }], {
      ...DEFAULT_DRAWING_STYLE,
      color: '#f23645',
    });
    const fib = shapeOf('fibonacci', [
      { time: 0, price: 100 },
      { time: 10, price: 200 },
    ]);
    const { items, priceLabels } = layoutDrawings(
      [
        { id: 1, shape: horizontal, selected: false },
        { id: 2, shape: fib, selected: false },
      ],
      projection,
      0.01,
    );
    expect(priceLabels).toEqual([{ y: 998.5, text: '1.50', color: '#f23645' }]);
    const levels = items[1]!.levels!;
    expect(levels.length).toBeGreaterThan(2);
    expect(levels.every((l) => /^\d(\.\d+)? \(\d+\.\d{2}\)$/.test(l.label))).toBe(true);
  });

  it('gives a rectangle its fill', () => {
    const rect = shapeOf(
      'rectangle',
      [
        { time: 0, price: 1 },
        { time: 10, price: 2 },
      ],
      { ...DEFAULT_DRAWING_STYLE, fill: 0.4 },
    );
    const { items } = layoutDrawings([{ id: 1, shape: rect, selected: false }], projection, 0.01);
    expect(items[0]!.fill).toBe(0.4);
  });
});

describe('shownSummary', () => {
  it('counts the saved drawings shown and gives their latest time', () => {
    const at = (time: number) => shapeOf('vertical', [{ time, price: 1 }]);
    expect(
      shownSummary([
        { id: 1, shape: at(50), selected: false },
        { id: 2, shape: at(70), selected: false },
        { id: null, shape: at(90), selected: true },
      ]),
    ).toEqual({ count: '2', to: '70' });
    expect(shownSummary([])).toEqual({ count: '0', to: '' });
  });
});
