import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REPO_ROOT } from './config.ts';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/app/data',
      databaseUrl: null,
      demoPassword: 'demo1234',
      sessionTtlHours: 168,
      webDist: path.join(REPO_ROOT, 'apps/web/dist'),
      logLevel: 'info',
      marketSeed: 1,
    });
    // without LIVE_TOKEN_SECRET each start makes its own random secret
    expect(config.liveTokenSecret).toMatch(/^[\w-]{43}$/);
    expect(loadConfig({}, '/srv/app').liveTokenSecret).not.toBe(config.liveTokenSecret);
  });

  it('finds the repo root from its own file, not the working directory', () => {
    expect(path.join(REPO_ROOT, 'apps/server/src/config.ts')).toBe(
      new URL('./config.ts', import.meta.url).pathname,
    );
  });

  it('reads the environment; relative paths are taken from cwd; empty means unset', () => {
    const config = loadConfig(
      {
        PORT: '18080',
        HOST: '0.0.0.0',
        DATA_DIR: 'var/data',
        DATABASE_URL: 'postgres://u@h/db',
        DEMO_PASSWORD: 'pw',
        SESSION_TTL_HOURS: '1.5',
        WEB_DIST: 'web',
        LOG_LEVEL: 'warn',
        SOMETHING_ELSE: 'x',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 18080,
      host: '0.0.0.0',
      dataDir: '/srv/app/var/data',
      databaseUrl: 'postgres://u@h/db',
      demoPassword: 'pw',
      sessionTtlHours: 1.5,
      webDist: '/srv/app/web',
      logLevel: 'warn',
    });
    expect(loadConfig({ DATABASE_URL: '' }, '/x').databaseUrl).toBeNull();
  });

  it('enables the test-only feed control only when MARKET_TEST_CONTROL says so', () => {
    expect(loadConfig({}, '/x').marketTestControl).toBe(false);
    expect(loadConfig({ MARKET_TEST_CONTROL: '0' }, '/x').marketTestControl).toBe(false);
    expect(loadConfig({ MARKET_TEST_CONTROL: '1' }, '/x').marketTestControl).toBe(true);
    expect(loadConfig({ MARKET_TEST_CONTROL: 'true' }, '/x').marketTestControl).toBe(true);
    expect(() => loadConfig({ MARKET_TEST_CONTROL: 'yes' }, '/x')).toThrow(/MARKET_TEST_CONTROL/);
  });

  it.each([{ PORT: 'abc' }, { PORT: '70000' }, { SESSION_TTL_HOURS: '0' }, { LOG_LEVEL: 'loud' }])(
    'names the variable at fault in %j',
    (env) => {
      const [name] = Object.keys(env);
      expect(() => loadConfig(env, '/x')).toThrow(ConfigError);
      expect(() => loadConfig(env, '/x')).toThrow(new RegExp(`${name}`));
    },
  );
});

describe('abuse bounds settings (issue 18)', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      publicOrigins: [],
      requestTimeoutMs: 60_000,
      resultMaxBytes: 8 * 1024 * 1024,
      resultQuotaBytes: 64 * 1024 * 1024,
    });
    // a user's share of the backtest slots: half of them, at least one
    expect(config.sandbox?.maxPerUser).toBe(1);
    expect(loadConfig({ BACKTEST_CONCURRENCY: '6' }).sandbox?.maxPerUser).toBe(3);
    expect(loadConfig({ BACKTEST_CONCURRENCY: '1' }).sandbox?.maxPerUser).toBe(1);
  });

  it('reads public origins, normalized, and refuses what is not an origin', () => {
    expect(
      loadConfig({ PUBLIC_ORIGIN: 'https://Trade.Example.com, http://10.0.0.5:8080/' })
        .publicOrigins,
    ).toEqual(['https://trade.example.com', 'http://10.0.0.5:8080']);
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'https://x.example/app' })).toThrow(
      /PUBLIC_ORIGIN: https:\/\/x\.example\/app is not an origin/,
    );
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'ftp://x.example' })).toThrow(ConfigError);
  });

  it('reads the origins allowed to frame our pages: none by default, a normalized list', () => {
    expect(loadConfig({}).frameAncestors).toEqual([]);
    expect(loadConfig({ FRAME_ANCESTORS: '' }).frameAncestors).toEqual([]);
    expect(
      loadConfig({
        FRAME_ANCESTORS:
          'https://Portal.Example.com, http://127.0.0.1:5173/ ,https://portal.example.com',
      }).frameAncestors,
    ).toEqual(['https://portal.example.com', 'http://127.0.0.1:5173']);
  });

  it.each([
    'https://portal.example/embed',
    'ftp://portal.example',
    '*',
    "'self'",
    'portal.example',
  ])('refuses FRAME_ANCESTORS %s with the variable and the origin named', (text) => {
    expect(() => loadConfig({ FRAME_ANCESTORS: `https://ok.example, ${text}` })).toThrow(
      new ConfigError(
        `Invalid environment: FRAME_ANCESTORS: ${text} is not an origin like https://host[:port]`,
      ),
    );
  });

  it('refuses a share above the slots and a quota below one result', () => {
    expect(() => loadConfig({ BACKTEST_CONCURRENCY: '2', BACKTEST_MAX_PER_USER: '3' })).toThrow(
      /BACKTEST_MAX_PER_USER must be at most BACKTEST_CONCURRENCY/,
    );
    expect(() =>
      loadConfig({ STRATEGY_RESULT_MAX_MB: '16', STRATEGY_RESULTS_QUOTA_MB: '8' }),
    ).toThrow(/STRATEGY_RESULTS_QUOTA_MB must be at least STRATEGY_RESULT_MAX_MB/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});

describe('strategy bounds', () => {
  it('defaults to 500 strategies, 20 versions each and 16 MiB per user, and reads the settings', () => {
    expect(loadConfig({}).strategyLimits).toEqual({
      maxStrategies: 500,
      versionsPerStrategy: 20,
      quotaBytes: 16 * 1024 * 1024,
    });
    expect(
      loadConfig({
        STRATEGY_MAX_PER_USER: '50',
        STRATEGY_VERSIONS_KEPT: '5',
        STRATEGY_STORAGE_MB: '4',
      }).strategyLimits,
    ).toEqual({ maxStrategies: 50, versionsPerStrategy: 5, quotaBytes: 4 * 1024 * 1024 });
    expect(() => loadConfig({ STRATEGY_MAX_PER_USER: '0' })).toThrow(/STRATEGY_MAX_PER_USER/);
    expect(() => loadConfig({ STRATEGY_STORAGE_MB: '0' })).toThrow(/STRATEGY_STORAGE_MB/);
  });
});

describe('operations settings (issue 17)', () => {
  it('has the documented defaults: metrics for loopback, 35 s grace, no request lines, no Centrifugo', () => {
    expect(loadConfig({})).toMatchObject({
      metricsToken: null,
      shutdownGraceMs: 35_000,
      logRequests: false,
      centrifugo: null,
    });
  });

  it('reads them, and wants the Centrifugo URL and key together', () => {
    expect(
      loadConfig({
        METRICS_TOKEN: 'a-long-enough-token',
        SHUTDOWN_GRACE_MS: '5000',
        LOG_REQUESTS: '1',
        CENTRIFUGO_API_URL: 'http://centrifugo.internal:8000/api',
        CENTRIFUGO_API_KEY: 'key',
      }),
    ).toMatchObject({
      metricsToken: 'a-long-enough-token',
      shutdownGraceMs: 5000,
      logRequests: true,
      centrifugo: { apiUrl: 'http://centrifugo.internal:8000/api', apiKey: 'key' },
    });
    expect(() => loadConfig({ CENTRIFUGO_API_URL: 'http://c:8000/api' })).toThrow(
      /CENTRIFUGO_API_URL and CENTRIFUGO_API_KEY go together/,
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '-1' })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(() =>
      loadConfig({ CENTRIFUGO_API_URL: 'ftp://c/api', CENTRIFUGO_API_KEY: 'k' }),
    ).toThrow(/CENTRIFUGO_API_URL/);
  });
});
