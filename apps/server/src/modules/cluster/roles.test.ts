import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { parseRoles, rolesFromArgv } from './roles.ts';

describe('process roles', () => {
  it('runs every role when none is named, and only the named ones otherwise', () => {
    expect(parseRoles(undefined)).toEqual(['api', 'feed', 'worker']);
    expect(parseRoles(' ')).toEqual(['api', 'feed', 'worker']);
    expect(parseRoles('api')).toEqual(['api']);
    expect(parseRoles('worker, FEED,feed')).toEqual(['feed', 'worker']);
  });

  it('refuses a name that is not a role', () => {
    expect(() => parseRoles('api,web')).toThrow('web is not a role (roles: api, feed, worker)');
  });

  it('reads --role from the command line in every spelling', () => {
    expect(rolesFromArgv([])).toBeUndefined();
    expect(rolesFromArgv(['--role=api'])).toBe('api');
    expect(rolesFromArgv(['--role', 'feed', '--role=worker'])).toBe('feed,worker');
    expect(rolesFromArgv(['--roles=api,worker'])).toBe('api,worker');
    expect(() => rolesFromArgv(['--role'])).toThrow('--role needs a value');
  });

  it('takes ROLES, REDIS_URL and DATABASE_POOL_SIZE from the environment', () => {
    const all = loadConfig({}, '/srv');
    expect(all.roles).toEqual(['api', 'feed', 'worker']);
    expect(all.redisUrl).toBeNull();
    expect(all.databasePoolSize).toBe(10);
    const api = loadConfig(
      { ROLES: 'api', REDIS_URL: 'unix:///run/redis.sock', DATABASE_POOL_SIZE: '32' },
      '/srv',
    );
    expect(api).toMatchObject({
      roles: ['api'],
      redisUrl: 'unix:///run/redis.sock',
      databasePoolSize: 32,
    });
  });

  it('refuses an api or a feed alone without Redis, and a REDIS_URL that is not one', () => {
    expect(() => loadConfig({ ROLES: 'api' }, '/srv')).toThrow(
      'ROLES: api and feed in separate processes need REDIS_URL',
    );
    expect(() => loadConfig({ ROLES: 'feed,worker' }, '/srv')).toThrow('need REDIS_URL');
    expect(loadConfig({ ROLES: 'worker' }, '/srv').roles).toEqual(['worker']);
    expect(loadConfig({ ROLES: 'api,feed' }, '/srv').roles).toEqual(['api', 'feed']);
    expect(() => loadConfig({ ROLES: 'api,ops' }, '/srv')).toThrow('ROLES: ops is not a role');
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' }, '/srv')).toThrow(
      'REDIS_URL: must start with redis://, rediss:// or unix://',
    );
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' }, '/srv')).toThrow('DATABASE_POOL_SIZE');
  });
});
