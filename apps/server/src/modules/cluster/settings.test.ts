import { describe, expect, it } from 'vitest';
import { clusterEnv, deploymentSettingsFromEnv } from './settings.ts';

describe('deployment settings from the environment', () => {
  it('runs every role in-process by default', () => {
    expect(deploymentSettingsFromEnv(clusterEnv.parse({}))).toEqual({
      roles: ['api', 'feed', 'worker'],
      redisUrl: null,
    });
  });

  it('reads ROLES and REDIS_URL, and refuses an api/feed split without Redis', () => {
    const env = clusterEnv.parse({ ROLES: 'feed', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(deploymentSettingsFromEnv(env)).toEqual({
      roles: ['feed'],
      redisUrl: 'redis://127.0.0.1:6379',
    });
    expect(() => deploymentSettingsFromEnv(clusterEnv.parse({ ROLES: 'api' }))).toThrow(
      'ROLES: api and feed in separate processes need REDIS_URL',
    );
    expect(() => deploymentSettingsFromEnv(clusterEnv.parse({ ROLES: 'chef' }))).toThrow(
      /^ROLES: chef is not a role/,
    );
  });
});
