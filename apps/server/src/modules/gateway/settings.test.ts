import { describe, expect, it } from 'vitest';
import { gatewayEnv, gatewaySettingsFromEnv } from './settings.ts';

describe('gateway settings from the environment', () => {
  it('makes a random token secret per start and uses no Centrifugo by default', () => {
    const first = gatewaySettingsFromEnv(gatewayEnv.parse({}));
    const second = gatewaySettingsFromEnv(gatewayEnv.parse({}));
    expect(first.centrifugo).toBeNull();
    expect(first.liveTokenSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.liveTokenSecret).not.toBe(second.liveTokenSecret);
  });

  it('reads the secret and the Centrifugo URL and key, which go together', () => {
    const env = gatewayEnv.parse({
      LIVE_TOKEN_SECRET: 'a-secret-of-the-cluster',
      CENTRIFUGO_API_URL: 'http://centrifugo:8000/api',
      CENTRIFUGO_API_KEY: 'key',
    });
    expect(gatewaySettingsFromEnv(env)).toEqual({
      liveTokenSecret: 'a-secret-of-the-cluster',
      centrifugo: { apiUrl: 'http://centrifugo:8000/api', apiKey: 'key' },
    });
    const half = gatewayEnv.parse({ CENTRIFUGO_API_KEY: 'key' });
    expect(() => gatewaySettingsFromEnv(half)).toThrow(
      'CENTRIFUGO_API_URL and CENTRIFUGO_API_KEY go together',
    );
  });
});
