import { describe, expect, it } from 'vitest';
import { tradingEnv, tradingSettingsFromEnv } from './settings.ts';

describe('trading settings from the environment', () => {
  it('warns below 100 % and commits in groups by default', () => {
    expect(tradingSettingsFromEnv(tradingEnv.parse({}))).toEqual({
      marginWarningLevel: 100,
      orderCommit: { mode: 'group', maxBatch: 64, windowMs: 0 },
    });
  });

  it('reads MARGIN_WARNING_LEVEL and ORDER_*, and refuses an unknown commit mode', () => {
    const env = tradingEnv.parse({ MARGIN_WARNING_LEVEL: '150', ORDER_COMMIT: 'single' });
    expect(tradingSettingsFromEnv(env)).toMatchObject({
      marginWarningLevel: 150,
      orderCommit: { mode: 'single' },
    });
    expect(tradingEnv.safeParse({ ORDER_COMMIT: 'batch' }).success).toBe(false);
  });
});
