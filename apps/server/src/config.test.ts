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
