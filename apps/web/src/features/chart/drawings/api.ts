import {
  deletedDrawingSchema,
  drawingListSchema,
  drawingSchema,
  liveTokenSchema,
  type createDrawingBodySchema,
  type Drawing,
  type LiveToken,
  type updateDrawingBodySchema,
} from '@ct/domain';
import type { z } from 'zod';
import { http } from '../../../api/client';

/** Body of POST /api/charts/drawings as the client sends it. */
export type CreateDrawingRequest = z.input<typeof createDrawingBodySchema>;
/** Body of PUT /api/charts/drawings/{id} as the client sends it. */
export type UpdateDrawingRequest = z.input<typeof updateDrawingBodySchema>;

/** The user's drawings on an instrument, oldest first (`GET /api/charts/drawings`). */
export async function fetchDrawings(symbol: string): Promise<Drawing[]> {
  const answer = await http.get('/api/charts/drawings', {
    params: { symbol },
    schema: drawingListSchema,
    noCache: true,
  });
  return answer.drawings;
}

export function createDrawing(body: CreateDrawingRequest): Promise<Drawing> {
  return http.post('/api/charts/drawings', body, { schema: drawingSchema });
}

export function updateDrawing(id: number, body: UpdateDrawingRequest): Promise<Drawing> {
  return http.put(`/api/charts/drawings/${id}`, body, { schema: drawingSchema });
}

export async function deleteDrawing(id: number): Promise<void> {
  await http.delete(`/api/charts/drawings/${id}`, { schema: deletedDrawingSchema });
}

/** Tokens of the user's drawing channel `charts:{userId}` (`GET /api/charts/live-token`). */
export function fetchChartsLiveToken(): Promise<LiveToken> {
  return http.get('/api/charts/live-token', { noCache: true, schema: liveTokenSchema });
}
