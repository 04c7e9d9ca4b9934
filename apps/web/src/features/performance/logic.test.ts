import { describe, expect, it } from 'vitest';
import { THROTTLE_BOUNDS, THROTTLE_PRESETS } from '../../realtime/settings';
import {
  basePriceOf,
  CHART_POINTS,
  MAX_LINE_CHARTS,
  nextSimulatedPrice,
  PAGE_MONITOR_INTERVAL_MS,
  PANEL_MONITOR_INTERVAL_MS,
  pushCapped,
  randomVolume,
  reportBetween,
  TEST_SYMBOLS,
  type Counters,
} from './logic';
import { messages } from '../../i18n/messages';

const labels = messages.perfTest;

// The spec's texts and numbers for this page (sections 2, 3 and 9), one checklist.
describe('the performance page checklist', () => {
  it('test symbols, base prices, intervals and chart sizes of the spec', () => {
    expect(TEST_SYMBOLS).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD']);
    expect(['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD', 'EURUSD'].map(basePriceOf)).toEqual(
      [45000, 3000, 2000, 25, 1000, 1000],
    );
    expect(PAGE_MONITOR_INTERVAL_MS).toBe(3000);
    expect(PANEL_MONITOR_INTERVAL_MS).toBe(5000);
    expect(CHART_POINTS).toEqual({ line: 50, candlestick: 30, volume: 30 });
    expect(MAX_LINE_CHARTS).toBe(4);
  });

  it('slider ranges and the three presets', () => {
    expect(THROTTLE_BOUNDS).toEqual({
      priceUpdateDelay: { min: 50, max: 500, step: 10 },
      chartDataUpdateDelay: { min: 200, max: 2000, step: 100 },
      maxDataPoints: { min: 100, max: 5000, step: 100 },
    });
    expect(THROTTLE_PRESETS).toEqual({
      highPerformance: { priceUpdateDelay: 50, chartDataUpdateDelay: 200, maxDataPoints: 2000 },
      balanced: { priceUpdateDelay: 100, chartDataUpdateDelay: 500, maxDataPoints: 1000 },
      low: { priceUpdateDelay: 200, chartDataUpdateDelay: 1000, maxDataPoints: 500 },
    });
  });

  it('Chinese labels', () => {
    expect(labels.heading).toBe('实时数据性能测试');
    expect(labels.presetNames).toEqual({
      highPerformance: '高性能',
      balanced: '平衡',
      low: '低性能',
    });
    expect([labels.startMonitoring, labels.stopMonitoring, labels.controlPanel]).toEqual([
      '开始监控',
      '停止监控',
      '性能控制面板',
    ]);
  });
});

describe('simulated prices', () => {
  it('start at the base price and move at most 0.1 % a step', () => {
    expect(nextSimulatedPrice('BTCUSDT', undefined, () => 0.5)).toBe(45000);
    expect(nextSimulatedPrice('BTCUSDT', 45000, () => 0.999_999)).toBeCloseTo(45045, 0);
    expect(nextSimulatedPrice('BTCUSDT', 45000, () => 0)).toBe(44955);
    expect(nextSimulatedPrice('XAGUSD', undefined, () => 0.75)).toBe(25.0125);
    expect(nextSimulatedPrice('XAGUSD', 0.1, () => 0)).toBe(0.25); // floor: 1 % of the base
  });

  it('volume bars are random in 100..1000', () => {
    expect(randomVolume(() => 0)).toBe(100);
    expect(randomVolume(() => 0.999)).toBe(999);
  });

  it('pushCapped keeps the newest items', () => {
    expect(pushCapped([1, 2, 3], 4, 3)).toEqual([2, 3, 4]);
    expect(pushCapped([], 1, 3)).toEqual([1]);
  });
});

describe('monitoring reports', () => {
  const zero: Counters = {
    at: 0,
    messages: 0,
    quotesApplied: 0,
    dropped: 0,
    batches: 0,
    batchedItems: 0,
    longTasks: 0,
    longTaskMs: 0,
    frames: 0,
  };

  it('rates per second between two reads', () => {
    const report = reportBetween(zero, {
      at: 3000,
      messages: 3000,
      quotesApplied: 150,
      dropped: 30,
      batches: 60,
      batchedItems: 3000,
      longTasks: 2,
      longTaskMs: 130.4,
      frames: 180,
    });
    expect(report).toEqual({
      seconds: 3,
      messagesPerSecond: 1000,
      updatesPerSecond: 50,
      coalescedPerSecond: 960,
      coalescedShare: 0.96,
      meanBatch: 50,
      longTasks: 2,
      longTaskMs: 130,
      fps: 60,
    });
  });

  it('no traffic: zero rates, no division by zero', () => {
    expect(reportBetween(zero, { ...zero, at: 3000 })).toMatchObject({
      messagesPerSecond: 0,
      coalescedShare: 0,
      meanBatch: 0,
    });
  });
});
