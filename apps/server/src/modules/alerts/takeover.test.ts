import { randomBytes } from 'node:crypto';
import { alertLogSchema } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Node,
  hasPostgres,
  loginDemo,
  redisServerBinary,
  request,
  startPostgres,
  startRedis,
  waitUntil,
  type Stoppable,
} from '../../test/cluster.ts';

/*
 * Real processes of apps/server/src/main.ts: an API node, an active and a standby feed on a
 * throwaway PostgreSQL and Redis. A price alert is judged by the active feed; after that
 * feed is killed with SIGKILL, the standby takes over and the crossing it already fired is
 * not fired again, while a new crossing is.
 */

const READY = redisServerBinary() !== null && hasPostgres();
if (!READY) console.warn('takeover.test.ts is skipped: needs redis-server and PostgreSQL');

const SYMBOL = 'BTCUSDT';

describe.skipIf(!READY)('alerts across a feed takeover', () => {
  const stoppables: Stoppable[] = [];
  const nodes: Node[] = [];
  let api: Node;
  let cookie = '';

  async function call(method: string, url: string, body?: unknown): Promise<unknown> {
    const reply = await request(api.port, method, url, body, cookie);
    if (reply.status >= 300) throw new Error(`${method} ${url}: ${reply.status} ${reply.body}`);
    return JSON.parse(reply.body) as unknown;
  }
  const pin = (bid: number) =>
    call('POST', '/api/test/market/quote', { symbol: SYMBOL, bid, ask: bid + 1 });
  const fires = async () => alertLogSchema.parse(await call('GET', '/api/alerts/log')).items;

  beforeAll(async () => {
    const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    stoppables.push(redis, postgres);
    const env = {
      DATABASE_URL: postgres.url,
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: redis.url,
      LIVE_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      MARKET_TEST_CONTROL: '1',
      MARKET_SEED: '17',
      BACKTEST_POOL_SIZE: '0',
    };
    api = await Node.start('api', 'api', env, 150_000);
    nodes.push(api);
    const feeds = await Promise.all([
      Node.start('feed-1', 'feed', env, 150_000),
      Node.start('feed-2', 'feed', env, 150_000),
    ]);
    nodes.push(...feeds);
    await waitUntil('a feed to be elected', () => feeds.some((f) => f.isActiveFeed), 60_000);
    ({ cookie } = await loginDemo(api.port));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.kill('SIGKILL')));
    for (const s of stoppables.reverse()) await s.stop().catch(() => undefined);
  }, 60_000);

  it(
    'kill -9 of the feed that fired a crossing: the standby does not fire it again',
    { timeout: 120_000 },
    async () => {
      // levels far below the simulation's price: the new feed's own first ticks (the pins of
      // the killed feed are gone with it) stay above the level, as the pins did
      await pin(50);
      const alert = (await call('POST', '/api/alerts', {
        symbol_id: SYMBOL,
        kind: 'price',
        condition: 'crossing_up',
        level: 100,
        frequency: 'every_time',
      })) as { id: number };
      // one crossing: the price goes above the level and stays there (each pin a new tick),
      // until the active feed has read the alert and fired it
      let above = 200;
      await waitUntil(
        'the active feed to fire the crossing',
        async () => {
          above += 0.1;
          await pin(Math.round(above * 10) / 10);
          return (await fires()).length > 0;
        },
        30_000,
      );

      const active = nodes.find((n) => n !== api && n.isActiveFeed) as Node;
      const standby = nodes.find((n) => n !== api && n !== active) as Node;
      await active.kill('SIGKILL');
      await waitUntil('the standby to take over', () => standby.isActiveFeed, 30_000);
      // the standby judges the same alert on the ticks that follow, still above the level
      for (const bid of [300, 300.5, 400]) {
        await waitUntil(
          'a pin through the new feed',
          () =>
            pin(bid).then(
              () => true,
              () => false,
            ),
          30_000,
        );
      }
      expect((await fires()).filter((f) => f.alert_id === alert.id)).toHaveLength(1);

      // a new crossing after the takeover fires, once
      await pin(50);
      await pin(150);
      await pin(160);
      const all = (await fires()).filter((f) => f.alert_id === alert.id);
      expect(all.map((f) => f.price)).toEqual([150, expect.any(Number)]);
    },
  );
});
