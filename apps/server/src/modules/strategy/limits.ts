import { MAX_STRATEGIES_PER_USER, MAX_STRATEGY_VERSIONS } from '@ct/domain';
import { MIB } from '../backtest/sandbox/settings.ts';

/** The bounds of one user's strategies (docs/api.md, "Strategies"). */
export type StrategyLimits = {
  /** Strategies per user (STRATEGY_MAX_PER_USER). */
  maxStrategies: number;
  /** Versions kept per strategy, newest first (STRATEGY_VERSIONS_KEPT). */
  versionsPerStrategy: number;
  /** Bytes of the code of all strategies and their versions together (STRATEGY_STORAGE_MB). */
  quotaBytes: number;
};

export const DEFAULT_STRATEGY_LIMITS: StrategyLimits = {
  maxStrategies: MAX_STRATEGIES_PER_USER,
  versionsPerStrategy: MAX_STRATEGY_VERSIONS,
  quotaBytes: 16 * MIB,
};
