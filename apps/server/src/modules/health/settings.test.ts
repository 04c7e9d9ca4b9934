import { describe, expect, it } from 'vitest';
import { healthEnv, metricsTokenFromEnv } from './settings.ts';

describe('health settings from the environment', () => {
  it('opens /metrics to loopback only unless METRICS_TOKEN is set, at least 16 characters', () => {
    expect(metricsTokenFromEnv(healthEnv.parse({}))).toBeNull();
    expect(metricsTokenFromEnv(healthEnv.parse({ METRICS_TOKEN: 'x'.repeat(16) }))).toBe(
      'x'.repeat(16),
    );
    expect(healthEnv.safeParse({ METRICS_TOKEN: 'short' }).success).toBe(false);
  });
});
