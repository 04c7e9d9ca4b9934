import { describe, expect, it } from 'vitest';
import { liveRunEnv, liveRunSettingsFromEnv } from './settings.ts';

describe('live run settings from the environment', () => {
  it('has the documented defaults', () => {
    expect(liveRunSettingsFromEnv(liveRunEnv.parse({}))).toEqual({
      maxPerUser: 5,
      windowBars: 500,
      maxFailures: 5,
      keepEvaluations: 1000,
      concurrency: 2,
    });
  });

  it('reads LIVE_RUN_* and refuses what is out of range', () => {
    const env = liveRunEnv.parse({ LIVE_RUN_MAX_PER_USER: '7', LIVE_RUN_WINDOW_BARS: '50' });
    expect(liveRunSettingsFromEnv(env)).toMatchObject({ maxPerUser: 7, windowBars: 50 });
    expect(liveRunEnv.safeParse({ LIVE_RUN_WINDOW_BARS: '5' }).success).toBe(false);
  });
});
