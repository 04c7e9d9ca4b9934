// Same-run ratios of the fan-out bench: each pair runs the gateway and a baseline back to back
// (in turns, the other way round every other pair), and a size's figure is the median of its
// pairs' ratios with their spread, so one noisy pair on the shared machine does not decide it.
import type { FanoutResult } from './run.ts';

/** The figures compared, as ratios gateway / baseline of one pair. */
export const RATIO_FIELDS = [
  'messagesPerSecond',
  'p50Ms',
  'p99Ms',
  'lightP50Ms',
  'lightP99Ms',
  'serverCpuMsPer1000',
] as const;
export type RatioField = (typeof RATIO_FIELDS)[number];

export type Ratios = Record<RatioField, number>;

export function ratiosOf(ours: FanoutResult, base: FanoutResult): Ratios {
  const ratios = {} as Ratios;
  for (const field of RATIO_FIELDS) ratios[field] = ours[field] / base[field];
  return ratios;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** `median× (min–max)` of one figure over the pairs. */
export function spreadOf(pairs: readonly Ratios[], field: RatioField): string {
  const values = pairs.map((pair) => pair[field]);
  const fmt = (n: number) => n.toFixed(2);
  return `${fmt(median(values))}× (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}

/** How many pairs have the figure within `limit` (the aim: p99 within 1.2× of bare ws). */
export function within(pairs: readonly Ratios[], field: RatioField, limit: number): number {
  return pairs.filter((pair) => pair[field] <= limit).length;
}

/**
 * A client process whose event loop was busy this share of a slice or more was behind all
 * along: at 1,000 connections and 1,000 publications/s per channel both sides' clients were
 * at 100 % with a p99 of 20 s, against 14–25 % at 500 connections and the default rate.
 */
export const SATURATED_CLIENTS = 0.95;

/**
 * Why a side's slice measured its clients rather than its server, or nothing when it did not:
 * connections closed (a client process more than the gateway's 35 s pong limit behind is
 * closed as silent; the bare broadcasts, without pings, keep writing into the backlog),
 * messages still missing at the drain deadline, or a client process saturated. Such a
 * slice's latencies and ratios mislead.
 */
export function voidReason(result: FanoutResult): string | undefined {
  const reasons: string[] = [];
  if (result.clientBusy >= SATURATED_CLIENTS) {
    reasons.push(`clients saturated: ${(100 * result.clientBusy).toFixed(0)} % busy`);
  }
  if (result.closed > 0) reasons.push(`${result.closed} connections closed (${result.closeCodes})`);
  if (!result.drained) {
    const share = (100 * result.received) / Math.max(1, result.expected);
    reasons.push(`not drained: ${share.toFixed(1)} % delivered`);
  }
  return reasons.length > 0 ? reasons.join(', ') : undefined;
}
