import { z } from 'zod';

/** The trading engine's settings, as the environment gives them. */
export type TradingSettings = {
  /** MARGIN_WARNING_LEVEL: the margin level (percent) below which an account is warned. */
  marginWarningLevel: number;
  /**
   * ORDER_COMMIT: `group` (default) commits the API's account commands of many accounts in
   * one transaction (order-writer.ts); `single`, one transaction each. ORDER_BATCH_MAX /
   * ORDER_BATCH_WINDOW_MS: a batch's size and how long an idle writer waits for more.
   */
  orderCommit: { mode: 'group' | 'single'; maxBatch: number; windowMs: number };
};

/** MARGIN_WARNING_LEVEL, ORDER_*: the environment this module reads (composed by config.ts). */
export const tradingEnv = z.object({
  MARGIN_WARNING_LEVEL: z.coerce.number().min(0).max(100_000).default(100),
  ORDER_COMMIT: z.enum(['group', 'single']).default('group'),
  ORDER_BATCH_MAX: z.coerce.number().int().min(1).max(1000).default(64),
  ORDER_BATCH_WINDOW_MS: z.coerce.number().min(0).max(2).default(0),
});

export function tradingSettingsFromEnv(e: z.output<typeof tradingEnv>): TradingSettings {
  return {
    marginWarningLevel: e.MARGIN_WARNING_LEVEL,
    orderCommit: {
      mode: e.ORDER_COMMIT,
      maxBatch: e.ORDER_BATCH_MAX,
      windowMs: e.ORDER_BATCH_WINDOW_MS,
    },
  };
}
