import { describe, expect, it } from 'vitest';
import { marketEnv, marketSettingsFromEnv } from './settings.ts';

describe('market settings from the environment', () => {
  it('has the documented defaults: seed 1, no test or load control', () => {
    expect(marketSettingsFromEnv(marketEnv.parse({}))).toEqual({
      marketSeed: 1,
      marketTestControl: false,
      marketLoadControl: false,
      importLimits: { maxCount: 20, maxRows: 2_000_000 },
    });
  });

  it('reads MARKET_* and IMPORT*', () => {
    const env = marketEnv.parse({
      MARKET_SEED: '7',
      MARKET_TEST_CONTROL: '1',
      MARKET_LOAD_CONTROL: 'true',
      IMPORTS_MAX_PER_USER: '3',
    });
    expect(marketSettingsFromEnv(env)).toMatchObject({
      marketSeed: 7,
      marketTestControl: true,
      marketLoadControl: true,
      importLimits: { maxCount: 3 },
    });
    expect(marketEnv.safeParse({ MARKET_TEST_CONTROL: 'yes' }).success).toBe(false);
  });
});
