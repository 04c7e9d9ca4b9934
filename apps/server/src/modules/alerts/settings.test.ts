import { describe, expect, it } from 'vitest';
import { alertEnv, alertSettingsFromEnv } from './settings.ts';

describe('alert settings from the environment', () => {
  it('has the documented defaults', () => {
    expect(alertSettingsFromEnv(alertEnv.parse({}))).toEqual({
      maxPerUser: 200,
      webhookTimeoutMs: 5000,
      webhookMaxBytes: 65_536,
      webhookRetryMs: 60_000,
      webhookBackoffMs: 1000,
      webhookAllow: [],
    });
  });

  it('reads the webhook allow-list and refuses an entry that is not a host, address or range', () => {
    const env = alertEnv.parse({ ALERT_WEBHOOK_ALLOW: '10.0.0.0/8,hooks.local' });
    expect(alertSettingsFromEnv(env).webhookAllow).toEqual(['10.0.0.0/8', 'hooks.local']);
    expect(alertEnv.safeParse({ ALERT_WEBHOOK_ALLOW: 'http://x/y' }).success).toBe(false);
  });
});
