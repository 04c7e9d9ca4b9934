import { describe, expect, it } from 'vitest';
import type { Bar } from '../market/bars.ts';
import { HOUR_MS, MINUTE_MS, PERIODS } from '../market/periods.ts';
import type { DrawingShape } from '../charts/drawings.ts';
import {
  replayJumpBars,
  stepChunks,
  barAtOrBefore,
  drawingUpTo,
  formingBars,
  lastClosedBarStart,
  REPLAY_STEP_PERIOD,
} from './chart.ts';

const H = Date.UTC(2026, 0, 5, 10); // a Monday, 10:00 UTC
const bar = (
  time: number,
  open: number,
  high: number,
  low: number,
  close: number,
  volume = 1,
): Bar => ({
  time,
  open,
  high,
  low,
  close,
  volume,
});
const style = { color: '#2962ff', width: 2, line: 'solid' } as const;

describe('formingBars', () => {
  const minutes = [
    bar(H - MINUTE_MS, 9, 9, 9, 9), // the hour before: not in the bar
    bar(H, 10, 11, 9.5, 10.5, 2),
    bar(H + MINUTE_MS, 10.5, 12, 10.2, 11.8, 3),
    bar(H + 2 * MINUTE_MS, 11.8, 11.9, 8, 8.5, 0.5),
    bar(H + HOUR_MS, 20, 20, 20, 20), // the next hour: not in the bar
  ];

  it('grows the bar step by step: open stays, high/low/close/volume from the lower bars so far', () => {
    expect(formingBars(minutes, '1h', H)).toEqual([
      bar(H, 10, 11, 9.5, 10.5, 2),
      bar(H, 10, 12, 9.5, 11.8, 5),
      bar(H, 10, 12, 8, 8.5, 5.5),
    ]);
  });

  it('ends as the lower bars aggregated, and is empty without lower bars in the bar', () => {
    const whole = formingBars(minutes, '1h', H).at(-1);
    expect(whole).toEqual({ time: H, open: 10, high: 12, low: 8, close: 8.5, volume: 5.5 });
    expect(formingBars(minutes, '1h', H + 5 * HOUR_MS)).toEqual([]);
    expect(formingBars([], '1h', H)).toEqual([]);
  });

  it('keeps the bar start as the time of every step', () => {
    const steps = formingBars(minutes.slice(1, 4), '1h', H);
    expect(steps.map((b) => b.time)).toEqual([H, H, H]);
  });
});

describe('REPLAY_STEP_PERIOD', () => {
  it('is a lower period for every period but 1m, with at most 60 steps a bar', () => {
    expect(REPLAY_STEP_PERIOD['1m']).toBeNull();
    expect(REPLAY_STEP_PERIOD['1h']).toBe('1m');
    for (const period of PERIODS) {
      const lower = REPLAY_STEP_PERIOD[period];
      if (lower === null) continue;
      expect(PERIODS.indexOf(lower)).toBeLessThan(PERIODS.indexOf(period));
    }
  });
});

describe('lastClosedBarStart', () => {
  it('is the newest bar closed at the moment, never one still forming', () => {
    // 10:15 exactly: the 15m bar of 10:00 has closed, the hour of 10:00 has not
    expect(lastClosedBarStart('15m', H + 15 * MINUTE_MS)).toBe(H);
    expect(lastClosedBarStart('1h', H + 15 * MINUTE_MS)).toBe(H - HOUR_MS);
    // the same period at the close of a bar: that bar
    expect(lastClosedBarStart('1m', H + MINUTE_MS)).toBe(H);
    expect(lastClosedBarStart('1h', H + HOUR_MS)).toBe(H);
    // inside a bar: the one before it
    expect(lastClosedBarStart('1h', H + HOUR_MS + 1)).toBe(H);
  });
});

describe('drawingUpTo', () => {
  const s = H / 1000;
  const cursor = s + 3600;
  it('keeps a drawing wholly at or before the cursor as it is', () => {
    const trend: DrawingShape = {
      kind: 'trend',
      points: [
        { time: s, price: 10 },
        { time: cursor, price: 20 },
      ],
      style,
    };
    expect(drawingUpTo(trend, cursor)).toBe(trend);
  });

  it('cuts a trend line at the cursor, at its price there, whichever point comes first', () => {
    const points = [
      { time: s, price: 10 },
      { time: s + 7200, price: 30 },
    ];
    const forward: DrawingShape = { kind: 'trend', points, style };
    expect(drawingUpTo(forward, cursor)?.points).toEqual([
      { time: s, price: 10 },
      { time: cursor, price: 20 },
    ]);
    const backward: DrawingShape = { kind: 'trend', points: [points[1]!, points[0]!], style };
    expect(drawingUpTo(backward, cursor)?.points).toEqual([
      { time: cursor, price: 20 },
      { time: s, price: 10 },
    ]);
  });

  it("moves a rectangle's later side to the cursor", () => {
    const rect: DrawingShape = {
      kind: 'rectangle',
      points: [
        { time: s, price: 10 },
        { time: s + 7200, price: 30 },
      ],
      style,
    };
    expect(drawingUpTo(rect, cursor)?.points).toEqual([
      { time: s, price: 10 },
      { time: cursor, price: 30 },
    ]);
  });

  it('hides lines and retracements with a point after the cursor, and anything wholly after it', () => {
    const after = { time: cursor + 60, price: 10 };
    const before = { time: s, price: 12 };
    expect(drawingUpTo({ kind: 'horizontal', points: [after], style }, cursor)).toBeNull();
    expect(drawingUpTo({ kind: 'vertical', points: [after], style }, cursor)).toBeNull();
    expect(drawingUpTo({ kind: 'fibonacci', points: [before, after], style }, cursor)).toBeNull();
    expect(
      drawingUpTo(
        { kind: 'trend', points: [after, { time: cursor + 120, price: 1 }], style },
        cursor,
      ),
    ).toBeNull();
    expect(drawingUpTo({ kind: 'horizontal', points: [before], style }, cursor)).not.toBeNull();
  });
});

describe('barAtOrBefore', () => {
  it('is the bar containing a picked time, or null before the first bar', () => {
    const times = [H, H + HOUR_MS, H + 2 * HOUR_MS];
    expect(barAtOrBefore(times, H + HOUR_MS)).toBe(H + HOUR_MS);
    expect(barAtOrBefore(times, H + HOUR_MS + 59 * MINUTE_MS)).toBe(H + HOUR_MS);
    expect(barAtOrBefore(times, H + 9 * HOUR_MS)).toBe(H + 2 * HOUR_MS);
    expect(barAtOrBefore(times, H - 1)).toBeNull();
  });
});

describe('replayJumpBars', () => {
  const times = [0, 10, 20, 30, 40, 50, 60];
  const session = { start: 10, lastBar: 50 };
  it('counts the bars to the bar at or before the date, forward or back', () => {
    expect(replayJumpBars(times, { ...session, cursor: 20, at: 45 })).toBe(2);
    expect(replayJumpBars(times, { ...session, cursor: 40, at: 20 })).toBe(-2);
    expect(replayJumpBars(times, { ...session, cursor: 30, at: 30 })).toBe(0);
  });
  it('stays between the start and the newest closed bar', () => {
    expect(replayJumpBars(times, { ...session, cursor: 30, at: 0 })).toBe(-2);
    expect(replayJumpBars(times, { ...session, cursor: 30, at: 1000 })).toBe(2);
  });
  it('is null when the cursor is not among the bars', () => {
    expect(replayJumpBars(times, { ...session, cursor: 35, at: 20 })).toBeNull();
  });
});

describe('stepChunks', () => {
  it('splits a move into calls of at most the limit, keeping its direction', () => {
    expect(stepChunks(2500, 1000)).toEqual([1000, 1000, 500]);
    expect(stepChunks(-1200, 1000)).toEqual([-1000, -200]);
    expect(stepChunks(3, 1000)).toEqual([3]);
    expect(stepChunks(0, 1000)).toEqual([]);
  });
});
