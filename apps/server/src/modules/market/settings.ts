import { z } from 'zod';

const flag = z.enum(['0', '1', 'true', 'false']).default('0');
const on = (value: '0' | '1' | 'true' | 'false') => value === '1' || value === 'true';

/** The market's settings, as the environment gives them. */
export type MarketSettings = {
  /** MARKET_SEED: the simulator's seed; the same seed gives the same prices. */
  marketSeed: number;
  /** MARKET_TEST_CONTROL=1: the test-only routes that pin quotes. Never on in production. */
  marketTestControl: boolean;
  /** MARKET_LOAD_CONTROL=1: the performance page's bounded feed load. Off unless set. */
  marketLoadControl: boolean;
  /** IMPORTS_MAX_PER_USER / IMPORT_ROWS_MAX_PER_USER: a user's imports, and their bars together. */
  importLimits: { maxCount: number; maxRows: number };
};

/** MARKET_*, IMPORT*: the environment this module reads (composed by config.ts). */
export const marketEnv = z.object({
  MARKET_SEED: z.coerce.number().int().min(0).max(4294967295).default(1),
  MARKET_TEST_CONTROL: flag,
  MARKET_LOAD_CONTROL: flag,
  IMPORTS_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  IMPORT_ROWS_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000_000).default(2_000_000),
});

export function marketSettingsFromEnv(e: z.output<typeof marketEnv>): MarketSettings {
  return {
    marketSeed: e.MARKET_SEED,
    marketTestControl: on(e.MARKET_TEST_CONTROL),
    marketLoadControl: on(e.MARKET_LOAD_CONTROL),
    importLimits: { maxCount: e.IMPORTS_MAX_PER_USER, maxRows: e.IMPORT_ROWS_MAX_PER_USER },
  };
}
