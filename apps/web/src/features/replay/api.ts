import {
  formingBars,
  nextBucketStart,
  replayDeletedSchema,
  replayListSchema,
  type ReplayList,
  replayStartedSchema,
  replayViewSchema,
  type ReplayStarted,
  type Bar,
  type Period,
  type ReplayView,
  type replayOrderRequestSchema,
  type startReplayRequestSchema,
} from '@ct/domain';
import type { z } from 'zod';
import { http } from '../../api/client';
import { fetchKlines } from '../../market/api';

/** Lower bars asked for one forming bar: more than the 60 steps a bar has at most. */
const FORMING_BARS_LIMIT = 64;

/*
 * The bar replay calls (docs/api.md, "Bar replay"); every answer is parsed with the domain's
 * schema before it reaches the cache. Refusals come as `{ detail }` (ApiError's body).
 */

export type { ReplayView } from '@ct/domain';
export type StartReplayBody = z.input<typeof startReplayRequestSchema>;
export type ReplayOrderBody = z.input<typeof replayOrderRequestSchema>;

export function startReplay(body: StartReplayBody): Promise<ReplayStarted> {
  return http.post('/api/replays', body, { schema: replayStartedSchema });
}

export function fetchReplay(id: string): Promise<ReplayView> {
  return http.get(`/api/replays/${encodeURIComponent(id)}`, {
    noCache: true,
    schema: replayViewSchema,
  });
}

export function stepReplay(id: string, bars: number): Promise<ReplayView> {
  return http.post(
    `/api/replays/${encodeURIComponent(id)}/step`,
    { bars },
    {
      schema: replayViewSchema,
    },
  );
}

export function sendReplayOrder(id: string, body: ReplayOrderBody): Promise<ReplayView> {
  return http.post(`/api/replays/${encodeURIComponent(id)}/orders`, body, {
    schema: replayViewSchema,
  });
}

export function deleteReplay(id: string): Promise<{ id: string }> {
  return http.delete(`/api/replays/${encodeURIComponent(id)}`, { schema: replayDeletedSchema });
}

/** The bar after a replay's cursor as it grows in steps of a lower period. */
export type FormingSteps = {
  /** The bar after each step (`formingBars`). */
  bars: Bar[];
  /** The moment (UTC ms) each step ends: the close of its lower bar. */
  ends: number[];
};

/**
 * The steps of the bar of `period` starting at `start` (UTC ms) through the bars of `lower`
 * inside it; empty when the lower period has no bars there.
 */
export async function fetchFormingBars(
  symbol: string,
  period: Period,
  lower: Period,
  start: number,
): Promise<FormingSteps> {
  const end = nextBucketStart(period, start);
  const klines = await fetchKlines(symbol, lower, {
    lastId: Math.floor(end / 1000),
    limit: FORMING_BARS_LIMIT,
  });
  const inside = klines
    .map((k) => ({
      time: k.id * 1000,
      open: k.open,
      high: k.high,
      low: k.low,
      close: k.close,
      volume: k.volume,
    }))
    .filter((bar) => bar.time >= start && bar.time < end);
  return {
    bars: formingBars(inside, period, start),
    ends: inside.map((bar) => nextBucketStart(lower, bar.time)),
  };
}

export function listReplays(): Promise<ReplayList> {
  return http.get('/api/replays', { noCache: true, schema: replayListSchema });
}
