import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SETTINGS, MIB, sandboxEnv, sandboxSettingsFromEnv } from './settings.ts';

describe('sandbox settings from the environment', () => {
  it('has the documented defaults: half the slots per user', () => {
    expect(sandboxSettingsFromEnv(sandboxEnv.parse({}))).toEqual(DEFAULT_SANDBOX_SETTINGS);
    expect(sandboxSettingsFromEnv(sandboxEnv.parse({ BACKTEST_CONCURRENCY: '6' })).maxPerUser).toBe(
      3,
    );
  });

  it('reads BACKTEST_* and refuses a share above the slots', () => {
    const env = sandboxEnv.parse({
      BACKTEST_MEMORY_MB: '256',
      BACKTEST_EXTRA_RO_PATHS: '/opt/a:/opt/b',
      ALLOW_UNSANDBOXED_PYTHON: 'true',
    });
    expect(sandboxSettingsFromEnv(env)).toMatchObject({
      memoryBytes: 256 * MIB,
      extraReadOnly: ['/opt/a', '/opt/b'],
      allowUnsandboxed: true,
    });
    const tooMany = sandboxEnv.parse({ BACKTEST_CONCURRENCY: '2', BACKTEST_MAX_PER_USER: '3' });
    expect(() => sandboxSettingsFromEnv(tooMany)).toThrow(
      'BACKTEST_MAX_PER_USER must be at most BACKTEST_CONCURRENCY',
    );
  });
});
