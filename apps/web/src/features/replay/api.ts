import {
  replayDeletedSchema,
  replayListSchema,
  type ReplayList,
  replayStartedSchema,
  replayViewSchema,
  type ReplayStarted,
  type ReplayView,
  type replayOrderRequestSchema,
  type startReplayRequestSchema,
} from '@ct/domain';
import type { z } from 'zod';
import { http } from '../../api/client';

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

export function listReplays(): Promise<ReplayList> {
  return http.get('/api/replays', { noCache: true, schema: replayListSchema });
}
