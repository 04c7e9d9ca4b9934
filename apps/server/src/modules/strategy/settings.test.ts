import { describe, expect, it } from 'vitest';
import { MIB } from '../backtest/sandbox/settings.ts';
import { DEFAULT_STRATEGY_LIMITS } from './limits.ts';
import { strategyEnv, strategySettingsFromEnv } from './settings.ts';

describe('strategy settings from the environment', () => {
  it('has the documented defaults', () => {
    expect(strategySettingsFromEnv(strategyEnv.parse({}))).toEqual({
      resultMaxBytes: 8 * MIB,
      resultQuotaBytes: 64 * MIB,
      strategyLimits: DEFAULT_STRATEGY_LIMITS,
    });
  });

  it('reads STRATEGY_* and refuses a quota below one result', () => {
    const env = strategyEnv.parse({ STRATEGY_VERSIONS_KEPT: '0', STRATEGY_STORAGE_MB: '2' });
    expect(strategySettingsFromEnv(env).strategyLimits).toMatchObject({
      versionsPerStrategy: 0,
      quotaBytes: 2 * MIB,
    });
    const small = strategyEnv.parse({
      STRATEGY_RESULT_MAX_MB: '8',
      STRATEGY_RESULTS_QUOTA_MB: '4',
    });
    expect(() => strategySettingsFromEnv(small)).toThrow(
      'STRATEGY_RESULTS_QUOTA_MB must be at least STRATEGY_RESULT_MAX_MB',
    );
  });
});
