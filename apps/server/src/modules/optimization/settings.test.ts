import { describe, expect, it } from 'vitest';
import { optimizationEnv, optimizationSettingsFromEnv } from './settings.ts';

describe('optimisation settings from the environment', () => {
  it('has the documented defaults', () => {
    expect(optimizationSettingsFromEnv(optimizationEnv.parse({}))).toEqual({
      maxTrials: 1000,
      maxActivePerUser: 2,
      maxActivePerOptimization: 2,
      concurrency: 2,
      maxOpenPerUser: 3,
      leaseMs: 30_000,
    });
  });

  it('reads OPTIMIZATION_* and refuses what is out of range', () => {
    const env = optimizationEnv.parse({
      OPTIMIZATION_MAX_ACTIVE_PER_RUN: '4',
      OPTIMIZATION_LEASE_MS: '5000',
    });
    expect(optimizationSettingsFromEnv(env)).toMatchObject({
      maxActivePerOptimization: 4,
      leaseMs: 5000,
    });
    expect(optimizationEnv.safeParse({ OPTIMIZATION_MAX_TRIALS: '0' }).success).toBe(false);
  });
});
