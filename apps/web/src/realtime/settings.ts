import { create } from 'zustand';

/** Throttle settings (spec section 3): delays in ms, the number of points a chart keeps. */
export type ThrottleSettings = {
  priceUpdateDelay: number;
  chartDataUpdateDelay: number;
  maxDataPoints: number;
};

/** Update batching (spec section 9): flush at `maxBatchSize` items, after `batchDelay` ms of
 * quiet, and at the latest `forceFlushInterval` ms after the first queued item. */
export type BatchSettings = {
  maxBatchSize: number;
  batchDelay: number;
  forceFlushInterval: number;
};

export const DEFAULT_THROTTLE: ThrottleSettings = {
  priceUpdateDelay: 100,
  chartDataUpdateDelay: 500,
  maxDataPoints: 1000,
};

export const DEFAULT_BATCH: BatchSettings = {
  maxBatchSize: 50,
  batchDelay: 16,
  forceFlushInterval: 200,
};

/** Most chart points kept per instrument, whatever the settings say (spec section 9). */
export const INSTRUMENT_CACHE_CAP = 1000;

/** Slider bounds of the performance panel (spec section 9). */
export const THROTTLE_BOUNDS = {
  priceUpdateDelay: { min: 50, max: 500, step: 10 },
  chartDataUpdateDelay: { min: 200, max: 2000, step: 100 },
  maxDataPoints: { min: 100, max: 5000, step: 100 },
} as const;

/** The three presets of the performance test (price delay, chart delay, max points). */
export const THROTTLE_PRESETS = {
  highPerformance: { priceUpdateDelay: 50, chartDataUpdateDelay: 200, maxDataPoints: 2000 },
  balanced: { ...DEFAULT_THROTTLE },
  low: { priceUpdateDelay: 200, chartDataUpdateDelay: 1000, maxDataPoints: 500 },
} as const satisfies Record<string, ThrottleSettings>;

export type LiveSettings = { throttle: ThrottleSettings; batch: BatchSettings };

/** Throttle and batch settings every live consumer reads at the moment it schedules work. */
export const useLiveSettingsStore = create<LiveSettings>(() => ({
  throttle: { ...DEFAULT_THROTTLE },
  batch: { ...DEFAULT_BATCH },
}));

export function setThrottleSettings(patch: Partial<ThrottleSettings>): void {
  useLiveSettingsStore.setState((s) => ({ throttle: { ...s.throttle, ...patch } }));
}

export function setBatchSettings(patch: Partial<BatchSettings>): void {
  useLiveSettingsStore.setState((s) => ({ batch: { ...s.batch, ...patch } }));
}

export function resetLiveSettings(): void {
  useLiveSettingsStore.setState({ throttle: { ...DEFAULT_THROTTLE }, batch: { ...DEFAULT_BATCH } });
}

export const throttleSettings = () => useLiveSettingsStore.getState().throttle;
export const batchSettings = () => useLiveSettingsStore.getState().batch;
