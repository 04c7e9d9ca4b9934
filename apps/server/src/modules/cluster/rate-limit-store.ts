import { MAX_EVENTS_PER_KEY, type RateLimitStore } from '../auth/rate-limit-store.ts';
import type { RedisLink } from './redis.ts';

/** A key's events and its turns live under separate prefixes. */
const EVENTS = 'ct:rl:e:';
const TURNS = 'ct:rl:t:';

// Each operation is one Lua script, so it is atomic for its key across every node.
const HIT = `
local key, at, win, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local keep = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', at - win)
redis.call('ZADD', key, at, member)
local n = redis.call('ZCARD', key)
if n > keep then
  redis.call('ZREMRANGEBYRANK', key, 0, n - keep - 1)
  n = keep
end
redis.call('PEXPIRE', key, math.max(1, win))
return n`;
const UNHIT = `
local found = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1], 'LIMIT', 0, 1)
if found[1] then redis.call('ZREM', KEYS[1], found[1]) end
return 0`;
const TAKE_TURN = `
local now, spacing, maxWait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local ends = tonumber(redis.call('GET', KEYS[1]) or now)
local start = math.max(now, ends)
if start - now > maxWait then return -1 end
redis.call('SET', KEYS[1], start + spacing, 'PX', start + spacing - now + 1000)
return start`;

/**
 * The login and chat limits' counters in Redis (REDIS_URL), shared by every API node: a key's
 * events are a sorted set scored by time, its turns one value; both expire with their
 * window, so idle keys (guessed emails) leave nothing behind.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private sequence = 0;

  constructor(private readonly link: RedisLink) {}

  async hit(key: string, at: number, windowMs: number, keep = MAX_EVENTS_PER_KEY): Promise<number> {
    // a member per event, also for two events in one millisecond
    const member = `${at}:${process.pid}:${++this.sequence}`;
    const n = await this.link.commands.eval(HIT, 1, EVENTS + key, at, windowMs, member, keep);
    return Number(n);
  }

  async events(key: string, now: number, windowMs: number): Promise<number[]> {
    const found = await this.link.commands.zrangebyscore(
      EVENTS + key,
      `(${now - windowMs}`,
      '+inf',
      'WITHSCORES',
    );
    const times: number[] = [];
    for (let i = 1; i < found.length; i += 2) times.push(Number(found[i]));
    return times;
  }

  async unhit(key: string, at: number): Promise<void> {
    await this.link.commands.eval(UNHIT, 1, EVENTS + key, at);
  }

  async clear(key: string): Promise<void> {
    await this.link.commands.del(EVENTS + key, TURNS + key);
  }

  async takeTurn(
    key: string,
    now: number,
    spacingMs: number,
    maxWaitMs: number,
  ): Promise<number | null> {
    const start = Number(
      await this.link.commands.eval(TAKE_TURN, 1, TURNS + key, now, spacingMs, maxWaitMs),
    );
    return start < 0 ? null : start;
  }
}
