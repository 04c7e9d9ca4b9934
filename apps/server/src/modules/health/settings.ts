import { z } from 'zod';

/** METRICS_TOKEN: the environment this module reads (composed by config.ts). */
export const healthEnv = z.object({
  METRICS_TOKEN: z.string().min(16).optional(),
});

/** `/metrics` wants `Authorization: Bearer <token>`; null: direct loopback requests only. */
export function metricsTokenFromEnv(e: z.output<typeof healthEnv>): string | null {
  return e.METRICS_TOKEN ?? null;
}
