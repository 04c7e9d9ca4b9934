import { DEFAULT_DRAWING_STYLE, type Bar, type Drawing } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { hourlyBars } from '../../../test/fixtures';
import { moveDrawing, sameStyle, shapeOf, shownDrawings, type TimeAxis } from './shapes';

const T0 = Date.UTC(2026, 0, 5);
const H = 3_600_000;
const bars: Bar[] = hourlyBars(10, T0);
const at = (i: number) => (T0 + i * H) / 1000;
const axis: TimeAxis = { bars, period: '1h', tick: 0.1 };
const anchor = (index: number, price: number) => ({ time: at(index), price, index });
const drawing = (id: number, kind: Drawing['kind'], points: [number, number][]): Drawing =>
  ({
    id,
    symbol: 'EURUSD',
    kind,
    points: points.map(([i, price]) => ({ time: at(i), price })),
    style: DEFAULT_DRAWING_STYLE,
  }) as unknown as Drawing;

describe('shapeOf', () => {
  it('keeps a fill for a rectangle only', () => {
    const style = { ...DEFAULT_DRAWING_STYLE, fill: 0.3 };
    expect(shapeOf('rectangle', [], style).style).toEqual(style);
    expect(shapeOf('trend', [], style).style).not.toHaveProperty('fill');
  });

  it('compares styles by colour, width, line and fill', () => {
    expect(sameStyle(DEFAULT_DRAWING_STYLE, { ...DEFAULT_DRAWING_STYLE })).toBe(true);
    expect(sameStyle(DEFAULT_DRAWING_STYLE, { ...DEFAULT_DRAWING_STYLE, width: 9 })).toBe(false);
  });
});

describe('moveDrawing', () => {
  const trend = drawing(1, 'trend', [
    [2, 100],
    [4, 101],
  ]);

  it('moves a whole drawing by the bars and the price moved, on the tick', () => {
    const moved = moveDrawing(
      trend,
      { id: 1, handle: null },
      anchor(3, 100),
      anchor(5, 100.52),
      axis,
    );
    expect(moved.points).toEqual([
      { time: at(4), price: 100.5 },
      { time: at(6), price: 101.5 },
    ]);
  });

  it('moves only the grabbed handle to the pointer', () => {
    const moved = moveDrawing(trend, { id: 1, handle: 1 }, anchor(4, 101), anchor(8, 99), axis);
    expect(moved.points).toEqual([
      { time: at(2), price: 100 },
      { time: at(8), price: 99 },
    ]);
  });

  it('keeps a horizontal line its time and a vertical line its price', () => {
    const h = moveDrawing(
      drawing(2, 'horizontal', [[2, 100]]),
      { id: 2, handle: null },
      anchor(2, 100),
      anchor(6, 102),
      axis,
    );
    expect(h.points).toEqual([{ time: at(2), price: 102 }]);
    const v = moveDrawing(
      drawing(3, 'vertical', [[2, 100]]),
      { id: 3, handle: null },
      anchor(2, 100),
      anchor(6, 102),
      axis,
    );
    expect(v.points).toEqual([{ time: at(6), price: 100 }]);
  });
});

describe('shownDrawings', () => {
  const a = drawing(1, 'trend', [
    [1, 100],
    [8, 101],
  ]);
  const b = drawing(2, 'horizontal', [[3, 100]]);
  const base = {
    drawings: [a, b],
    moving: null,
    selectedId: 2,
    replayTo: null,
    drawnInReplay: new Set<number>(),
    saving: null,
    drafted: null,
  };

  it('lists the saved drawings, a moved one in its new place, then saving and drafted', () => {
    const moved = { ...b, points: [{ time: at(4), price: 100 }] } as Drawing;
    const saving = shapeOf('vertical', [{ time: at(5), price: 100 }]);
    const drafted = shapeOf('horizontal', [{ time: at(6), price: 100 }]);
    const shown = shownDrawings({ ...base, moving: moved, saving, drafted });
    expect(shown).toEqual([
      { id: 1, shape: a, selected: false },
      { id: 2, shape: moved, selected: true },
      { id: null, shape: saving, selected: false },
      { id: null, shape: drafted, selected: true },
    ]);
  });

  it('in a replay shows nothing after the last shown bar, except what was drawn in it', () => {
    const shown = shownDrawings({ ...base, replayTo: at(2) });
    expect(shown.map((x) => x.id)).toEqual([1]);
    expect(shown[0]!.shape.points[1]!.time).toBeLessThanOrEqual(at(2));
    const kept = shownDrawings({ ...base, replayTo: at(2), drawnInReplay: new Set([2]) });
    expect(kept.map((x) => x.id)).toEqual([1, 2]);
  });
});
