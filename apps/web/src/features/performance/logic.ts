import type { ThrottleSettings } from '../../realtime/settings';

/** The test symbols (spec section 2). */
export const TEST_SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD'] as const;

/** Simulated prices start here (spec section 9); any other symbol at 1000. */
export const SIMULATED_BASE_PRICES: Readonly<Record<string, number>> = {
  BTCUSDT: 45000,
  ETHUSDT: 3000,
  XAUUSD: 2000,
  XAGUSD: 25,
};
export const DEFAULT_BASE_PRICE = 1000;

/** The monitoring report interval of this page (the panel's is 5 s; spec section 9). */
export const PAGE_MONITOR_INTERVAL_MS = 3_000;
export const PANEL_MONITOR_INTERVAL_MS = 5_000;

/** Points the test page's charts keep (spec section 9). */
export const CHART_POINTS = { line: 50, candlestick: 30, volume: 30 } as const;
/** The page shows at most this many line charts. */
export const MAX_LINE_CHARTS = 4;

/** A symbol without a live price for this long is simulated. */
export const LIVE_STALE_MS = 5_000;

export function basePriceOf(symbol: string): number {
  return SIMULATED_BASE_PRICES[symbol] ?? DEFAULT_BASE_PRICE;
}

/**
 * The next simulated price: a random step of at most ±0.1 % from `previous` (the base
 * price at first), never below 1 % of the base. `random` is in [0, 1).
 */
export function nextSimulatedPrice(
  symbol: string,
  previous: number | undefined,
  random: () => number,
): number {
  const base = basePriceOf(symbol);
  const from = previous ?? base;
  const next = from * (1 + (random() - 0.5) * 0.002);
  return Math.max(base * 0.01, Number(next.toFixed(base < 100 ? 4 : 2)));
}

/** Random volume bars of the volume chart (spec: random data). */
export function randomVolume(random: () => number): number {
  return Math.round(100 + random() * 900);
}

/** Appends to a list keeping its newest `max` items. */
export function pushCapped<T>(list: T[], item: T, max: number): T[] {
  const next = [...list, item];
  return next.length > max ? next.slice(next.length - max) : next;
}

/** The counters one monitoring report compares. */
export type Counters = {
  at: number;
  messages: number;
  quotesApplied: number;
  dropped: number;
  batches: number;
  batchedItems: number;
  longTasks: number;
  longTaskMs: number;
  frames: number;
};

/** One monitoring report: rates per second over the interval between two counter reads. */
export type Report = {
  seconds: number;
  messagesPerSecond: number;
  updatesPerSecond: number;
  coalescedPerSecond: number;
  /** Share of received messages that were coalesced or dropped, 0..1. */
  coalescedShare: number;
  meanBatch: number;
  longTasks: number;
  longTaskMs: number;
  fps: number;
};

/** The report between two reads of the counters (rates per second, 1 decimal). */
export function reportBetween(before: Counters, after: Counters): Report {
  const seconds = Math.max(0.001, (after.at - before.at) / 1000);
  const messages = after.messages - before.messages;
  const applied = after.quotesApplied - before.quotesApplied;
  const coalesced = Math.max(0, messages - applied) + (after.dropped - before.dropped);
  const batches = after.batches - before.batches;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    seconds: round(seconds),
    messagesPerSecond: round(messages / seconds),
    updatesPerSecond: round(applied / seconds),
    coalescedPerSecond: round(coalesced / seconds),
    coalescedShare: messages > 0 ? Math.min(1, coalesced / messages) : 0,
    meanBatch: batches > 0 ? round((after.batchedItems - before.batchedItems) / batches) : 0,
    longTasks: after.longTasks - before.longTasks,
    longTaskMs: Math.round(after.longTaskMs - before.longTaskMs),
    fps: round((after.frames - before.frames) / seconds),
  };
}

export type PresetName = 'highPerformance' | 'balanced' | 'low';
export type PresetRow = { preset: PresetName; settings: ThrottleSettings; report: Report };

/** The preset test's durations to choose from, in seconds. */
export const PRESET_TEST_SECONDS = [5, 10, 30] as const;
