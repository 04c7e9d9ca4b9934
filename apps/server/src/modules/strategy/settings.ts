import { z } from 'zod';
import { MIB } from '../backtest/sandbox/settings.ts';
import { DEFAULT_STRATEGY_LIMITS, type StrategyLimits } from './limits.ts';

/** The bounds of strategies and their saved results, as the environment gives them. */
export type StrategySettings = {
  /** STRATEGY_RESULT_MAX_MB: the largest saved strategy result (deals, figures and log). */
  resultMaxBytes: number;
  /** STRATEGY_RESULTS_QUOTA_MB: all saved results of one user together. */
  resultQuotaBytes: number;
  /** STRATEGY_MAX_PER_USER, STRATEGY_VERSIONS_KEPT, STRATEGY_STORAGE_MB. */
  strategyLimits: StrategyLimits;
};

/** STRATEGY_*: the environment this module reads (config.ts composes it with the others). */
export const strategyEnv = z.object({
  STRATEGY_RESULT_MAX_MB: z.coerce.number().int().min(1).max(1024).default(8),
  STRATEGY_RESULTS_QUOTA_MB: z.coerce.number().int().min(1).max(65_536).default(64),
  STRATEGY_MAX_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_STRATEGY_LIMITS.maxStrategies),
  STRATEGY_VERSIONS_KEPT: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(DEFAULT_STRATEGY_LIMITS.versionsPerStrategy),
  // at least 1 MiB: the largest code (256 Ki characters) fits
  STRATEGY_STORAGE_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(65_536)
    .default(DEFAULT_STRATEGY_LIMITS.quotaBytes / MIB),
});

/** The settings from the environment; throws when the quota is below one result. */
export function strategySettingsFromEnv(e: z.output<typeof strategyEnv>): StrategySettings {
  if (e.STRATEGY_RESULTS_QUOTA_MB < e.STRATEGY_RESULT_MAX_MB) {
    throw new Error('STRATEGY_RESULTS_QUOTA_MB must be at least STRATEGY_RESULT_MAX_MB');
  }
  return {
    resultMaxBytes: e.STRATEGY_RESULT_MAX_MB * MIB,
    resultQuotaBytes: e.STRATEGY_RESULTS_QUOTA_MB * MIB,
    strategyLimits: {
      maxStrategies: e.STRATEGY_MAX_PER_USER,
      versionsPerStrategy: e.STRATEGY_VERSIONS_KEPT,
      quotaBytes: e.STRATEGY_STORAGE_MB * MIB,
    },
  };
}
