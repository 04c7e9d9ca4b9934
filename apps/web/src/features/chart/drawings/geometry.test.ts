import { describe, expect, it } from 'vitest';
import { distanceToSegment, hitTest, type ScreenDrawing } from './geometry';

const line = (
  id: number,
  kind: ScreenDrawing['kind'],
  ...pts: [number, number][]
): ScreenDrawing => ({
  id,
  kind,
  points: pts.map(([x, y]) => ({ x, y })),
});

describe('distanceToSegment', () => {
  it('is the perpendicular distance inside the segment and the end distance outside', () => {
    expect(distanceToSegment(5, 3, 0, 0, 10, 0)).toBe(3);
    expect(distanceToSegment(13, 4, 0, 0, 10, 0)).toBe(5);
    expect(distanceToSegment(1, 1, 2, 2, 2, 2)).toBeCloseTo(Math.SQRT2, 10);
  });
});

describe('hitTest', () => {
  const drawings = [
    line(1, 'horizontal', [0, 100]),
    line(2, 'vertical', [200, 0]),
    line(3, 'trend', [0, 0], [100, 100]),
    line(4, 'rectangle', [300, 300], [400, 350]),
    line(5, 'fibonacci', [500, 100], [600, 200]),
  ];

  it('finds a line within reach and nothing beyond it', () => {
    expect(hitTest(drawings, null, 50, 104, 6)).toEqual({ id: 1, handle: null });
    expect(hitTest(drawings, null, 50, 120, 6)).toBeNull();
    expect(hitTest(drawings, null, 195, 20, 6)).toEqual({ id: 2, handle: null });
    expect(hitTest(drawings, null, 30, 34, 6)).toEqual({ id: 3, handle: null });
    expect(hitTest(drawings, null, 30, 50, 6)).toBeNull();
  });

  it('counts the inside of a rectangle and of a retracement', () => {
    expect(hitTest(drawings, null, 350, 320, 6)).toEqual({ id: 4, handle: null });
    expect(hitTest(drawings, null, 550, 150, 6)).toEqual({ id: 5, handle: null });
  });

  it('prefers a handle of the selected drawing, then the drawing on top', () => {
    expect(hitTest(drawings, 3, 101, 99, 6)).toEqual({ id: 3, handle: 1 });
    expect(hitTest(drawings, null, 101, 99, 6)).toEqual({ id: 3, handle: null });
    // where the horizontal line (1) and the trend line (3) cross, the later one wins
    expect(hitTest(drawings, null, 100, 100, 6)).toEqual({ id: 3, handle: null });
  });

  it('skips points the chart cannot place', () => {
    expect(
      hitTest(
        [
          {
            id: 9,
            kind: 'trend',
            points: [
              { x: null, y: 0 },
              { x: 5, y: 5 },
            ],
          },
        ],
        null,
        0,
        0,
        6,
      ),
    ).toBeNull();
  });
});
