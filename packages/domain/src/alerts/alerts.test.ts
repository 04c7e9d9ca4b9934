import { describe, expect, it } from 'vitest';
import {
  channelCrossed,
  crossed,
  frequencyAllows,
  lineLevelAt,
  nextSide,
  renderAlertMessage,
  seriesCrossed,
  sideOf,
  zoneOf,
  type LevelSide,
} from './rules.ts';
import { createAlertBodySchema, updateAlertBodySchema } from './schemas.ts';

/** Feeds prices through the side memory and answers at which prices the condition fired. */
function firesOver(
  condition: 'crossing_up' | 'crossing_down' | 'crossing',
  level: number,
  prices: number[],
): number[] {
  let kept: LevelSide | null = null;
  const fired: number[] = [];
  for (const price of prices) {
    const seen = sideOf(price, level);
    if (crossed(condition, kept, seen)) fired.push(price);
    kept = nextSide(kept, seen, false);
  }
  return fired;
}

describe('crossing a level', () => {
  it('fires when the price goes through the level, judged against the previous price', () => {
    expect(firesOver('crossing_up', 100, [99, 101])).toEqual([101]);
    expect(firesOver('crossing_down', 100, [99, 101, 98])).toEqual([98]);
    expect(firesOver('crossing', 100, [99, 101, 98])).toEqual([101, 98]);
  });

  it('a touch is no crossing, nor is a return to the side the price came from', () => {
    expect(firesOver('crossing_up', 100, [99, 100, 99, 100, 98])).toEqual([]);
    expect(firesOver('crossing_down', 100, [101, 100, 101])).toEqual([]);
  });

  it('a touch then a move through is one crossing', () => {
    expect(firesOver('crossing_up', 100, [99, 100, 101, 102])).toEqual([101]);
  });

  it('the first price only arms the alert', () => {
    expect(firesOver('crossing', 100, [101])).toEqual([]);
    expect(firesOver('crossing', 100, [100, 101, 102])).toEqual([]);
  });
});

describe('a channel', () => {
  it('entering and exiting, edges are no change', () => {
    expect(zoneOf(5, 1, 10)).toBe(0);
    expect(zoneOf(10, 1, 10)).toBeNull();
    expect(zoneOf(11, 1, 10)).toBe(1);
    expect(channelCrossed('entering', 1, 0)).toBe(true);
    expect(channelCrossed('entering', 1, -1)).toBe(false);
    expect(channelCrossed('exiting', 0, -1)).toBe(true);
    expect(channelCrossed('exiting', 0, null)).toBe(false);
    expect(nextSide(0, null, true)).toBe(0);
    expect(nextSide(1, 0, true)).toBe(0);
  });
});

describe('a line level', () => {
  it('is a horizontal line price, a trend line extended through its two points', () => {
    expect(lineLevelAt([{ time: 0, price: 5 }], 100)).toBe(5);
    const trend = [
      { time: 1000, price: 10 },
      { time: 2000, price: 20 },
    ];
    expect(lineLevelAt(trend, 1500)).toBe(15);
    expect(lineLevelAt(trend, 3000)).toBe(30);
    expect(lineLevelAt(trend, 0)).toBe(0);
    expect(lineLevelAt([], 0)).toBeNull();
  });
});

describe('frequency', () => {
  it('once, once per bar, every time', () => {
    expect(frequencyAllows('once', 0, null, 60)).toBe(true);
    expect(frequencyAllows('once', 1, 60, 120)).toBe(false);
    expect(frequencyAllows('once_per_bar', 1, 60, 60)).toBe(false);
    expect(frequencyAllows('once_per_bar', 1, 60, 120)).toBe(true);
    expect(frequencyAllows('every_time', 5, 60, 60)).toBe(true);
  });
});

describe('messages', () => {
  it('replaces the placeholders and keeps anything else', () => {
    const values = { symbol: 'BTCUSDT', price: '100.5', time: '2026-01-01 00:00', alert: '7' };
    expect(
      renderAlertMessage('{{symbol}} at {{ price }} ({{time}}) #{{alert}} {{x}}', values),
    ).toBe('BTCUSDT at 100.5 (2026-01-01 00:00) #7 {{x}}');
  });
});

describe('indicator crossings', () => {
  it('judges the newest closed bar against the last side that was not a touch', () => {
    expect(seriesCrossed('crossing_up', [-1, 2])).toBe(true);
    expect(seriesCrossed('crossing_up', [-1, 0, 2])).toBe(true);
    expect(seriesCrossed('crossing_up', [1, 0, 2])).toBe(false);
    expect(seriesCrossed('crossing_down', [null, -1])).toBe(false);
    expect(seriesCrossed('crossing', [3, -1])).toBe(true);
  });
});

describe('request bodies', () => {
  it('accepts each kind with what it needs and refuses a mismatch', () => {
    const ok = (body: unknown) => createAlertBodySchema.safeParse(body).success;
    expect(ok({ symbol_id: 'BTCUSDT', kind: 'price', condition: 'crossing_up', level: 1 })).toBe(
      true,
    );
    expect(ok({ symbol_id: 'BTCUSDT', kind: 'price', condition: 'entering', level: 1 })).toBe(
      false,
    );
    expect(ok({ symbol_id: 'BTCUSDT', kind: 'price', condition: 'crossing' })).toBe(false);
    expect(ok({ symbol_id: 'X', kind: 'channel', condition: 'entering', upper: 1, lower: 2 })).toBe(
      false,
    );
    expect(
      ok({
        symbol_id: 'X',
        kind: 'indicator',
        condition: 'crossing_up',
        indicator: { line: { kind: 'rsi', params: { period: 14 } }, threshold: 70 },
      }),
    ).toBe(true);
    expect(
      ok({
        symbol_id: 'X',
        kind: 'indicator',
        condition: 'crossing_up',
        indicator: { line: { kind: 'macd', line: 'value' }, threshold: 0 },
      }),
    ).toBe(false);
    expect(
      ok({
        symbol_id: 'X',
        kind: 'price',
        condition: 'crossing',
        level: 1,
        webhook_url: 'ftp://example.com/',
      }),
    ).toBe(false);
    expect(updateAlertBodySchema.safeParse({}).success).toBe(false);
  });
});
