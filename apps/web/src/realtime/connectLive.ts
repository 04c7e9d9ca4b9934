import { z } from 'zod';
import { http } from '../api/client';

const healthSchema = z.object({ status: z.literal('ok') }).loose();

/** The start-up check should fail fast rather than wait for the general 300 s timeout. */
const HEALTH_TIMEOUT_MS = 10_000;

/**
 * Establishes the live connection. Until the push gateway exists this only proves the
 * server answers (GET /api/health); the live-data issue replaces the body with the
 * centrifuge client connecting to /connection/websocket.
 */
export async function connectLive(): Promise<void> {
  await http.get('/api/health', { schema: healthSchema, timeoutMs: HEALTH_TIMEOUT_MS });
}
