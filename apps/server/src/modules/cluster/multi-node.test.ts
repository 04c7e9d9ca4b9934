import { randomBytes } from 'node:crypto';
import {
  aiTaskSchema,
  openOrderResponseSchema,
  positionSchema,
  settleSchema,
  type AccountEvent,
} from '@ct/domain';
import { Centrifuge, type PublicationContext } from 'centrifuge';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import {
  pieces,
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../test/openai-test-server.ts';
import { answerWith, GOOD_STRATEGY } from '../../test/ai-strategies.ts';
import { dailyBars } from '../../test/backtest.ts';
import {
  Node,
  hasPostgres,
  loginDemo,
  redisServerBinary,
  request,
  startFailoverProxy,
  startPostgres,
  startRedis,
  waitUntil,
  type Stoppable,
  type Trader,
} from '../../test/cluster.ts';

/*
 * The multi-node layout on this machine, with real processes of apps/server/src/main.ts:
 * two API nodes, an active and a standby feed, and two workers, sharing a throwaway PostgreSQL
 * and a throwaway Redis; the steps run in order and build on each other.
 */

const READY = redisServerBinary() !== null && hasPostgres();
if (!READY) {
  console.warn(
    'multi-node.test.ts is skipped: run scripts/ensure-redis.sh and scripts/ensure-postgres.sh',
  );
}

const SYMBOL = 'BTCUSDT'; // 24x7: the test runs on any day
const WATCHED = 'ETHUSDT'; // never pinned: its ticks are the simulation's
const VOLUME = 0.01;

const tickSchema = z.object({ price: z.number(), tm: z.number(), entry: z.enum(['0', '1']) });
const liveTokenSchema = z.object({
  connectToken: z.string(),
  channel: z.string(),
  subscriptionToken: z.string(),
});

type Tick = z.infer<typeof tickSchema> & { at: number };

/** A live client (centrifuge-js, as the browser uses) and what it received. */
class LiveClient {
  readonly ticks = new Map<string, Tick[]>();
  readonly events: AccountEvent[] = [];
  readonly client: Centrifuge;

  constructor(
    port: number,
    token: { connectToken: string; channel: string; subscriptionToken: string },
  ) {
    this.client = new Centrifuge(`ws://127.0.0.1:${port}/connection/websocket`, {
      websocket: WebSocket,
      data: { type: 1 },
      token: token.connectToken,
      minReconnectDelay: 200,
      maxReconnectDelay: 1000,
    });
    const account = this.client.newSubscription(token.channel, { token: token.subscriptionToken });
    account.on('publication', (ctx: PublicationContext) => {
      this.events.push(ctx.data as AccountEvent);
    });
    account.subscribe();
    for (const symbol of [SYMBOL, WATCHED]) {
      const sub = this.client.newSubscription(`public:${symbol}`);
      sub.on('publication', (ctx: PublicationContext) => {
        const tick = tickSchema.safeParse(ctx.data);
        if (!tick.success) return;
        const list = this.ticks.get(symbol) ?? [];
        list.push({ ...tick.data, at: Date.now() });
        this.ticks.set(symbol, list);
      });
      sub.subscribe();
    }
    this.client.connect();
  }

  bids(symbol: string): Tick[] {
    return (this.ticks.get(symbol) ?? []).filter((t) => t.entry === '0');
  }

  eventsOf(type: AccountEvent['type']): AccountEvent[] {
    return this.events.filter((e) => e.type === type);
  }

  close(): void {
    this.client.disconnect();
  }
}

describe.skipIf(!READY)('several nodes sharing PostgreSQL and Redis', () => {
  const stoppables: Stoppable[] = [];
  const nodes: Node[] = [];
  const clients: LiveClient[] = [];
  let upstream: OpenAiTestServer;
  let env: NodeJS.ProcessEnv;
  let apiA: Node;
  let apiB: Node;
  const feeds: Node[] = [];
  const workers: Node[] = [];
  let databaseUrl = '';
  let proxyPort = 0;
  let cookie = '';
  let trader: Trader;
  let price = 0; // the simulation's BTCUSDT bid when the test began, whole dollars

  const start = async (name: string, roles: string) => {
    // generous: five nodes start at once on two cores that other tests also use
    const node = await Node.start(name, roles, env, 150_000);
    nodes.push(node);
    return node;
  };
  const account = () => ({ uuid: trader.uuid, token: trader.token });
  const query = () => `uuid=${trader.uuid}&token=${trader.token}`;

  async function call(node: Node, method: string, url: string, body?: unknown) {
    const reply = await request(node.port, method, url, body, cookie);
    if (reply.status !== 200)
      throw new Error(`${method} ${url} on ${node.name}: ${reply.status} ${reply.body}`);
    return JSON.parse(reply.body) as unknown;
  }
  /** A trading call; throws unless it succeeded (code 0). */
  async function trade(node: Node, url: string, body: object): Promise<unknown> {
    const answer = await call(node, 'POST', url, { ...account(), ...body });
    if (z.object({ code: z.literal(0) }).safeParse(answer).success) return answer;
    throw new Error(`${url} refused: ${JSON.stringify(answer)}`);
  }
  async function openBuy(node: Node): Promise<string> {
    const answer = await trade(node, '/trading/order/open', {
      symbol: SYMBOL,
      cmd: 1,
      volume: VOLUME,
    });
    const orderId = openOrderResponseSchema.parse(answer).data?.order.orderId;
    if (!orderId) throw new Error('no order id');
    return orderId;
  }
  const pin = (node: Node, bid: number, ask: number) =>
    call(node, 'POST', '/api/test/market/quote', { symbol: SYMBOL, bid, ask });
  async function positions(node: Node) {
    return z
      .object({ data: z.object({ orders: z.array(positionSchema) }) })
      .parse(await call(node, 'GET', `/trading/order/position?${query()}`)).data.orders;
  }
  async function settles(node: Node) {
    return z
      .object({ data: z.object({ settles: z.array(settleSchema) }) })
      .parse(await call(node, 'GET', `/trading/order/settles?${query()}&lastSortId=-1`)).data
      .settles;
  }
  async function liveClient(node: Node, port = node.port) {
    const token = liveTokenSchema.parse(await call(node, 'GET', `/api/live/token?${query()}`));
    const client = new LiveClient(port, token);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    const [redis, postgres, ai] = await Promise.all([
      startRedis(),
      startPostgres(),
      startOpenAiTestServer(),
    ]);
    stoppables.push(redis, postgres);
    upstream = ai;
    env = {
      DATABASE_URL: postgres.url,
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: redis.url,
      LIVE_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      MARKET_TEST_CONTROL: '1',
      MARKET_SEED: '17',
      OLLAMA_BASE_URL: upstream.baseUrl,
      AI_TASK_LEASE_MS: '2000',
      AI_TASK_CONCURRENCY: '1',
      AI_TASK_BARS: '300',
      BACKTEST_UID_BASE: '61000',
      BACKTEST_POOL_SIZE: '0',
    };
    // the first API node migrates and seeds; the others start together meanwhile
    databaseUrl = postgres.url;
    // two workers: the one that claims the AI task is killed, the other finishes it
    [apiA, apiB, feeds[0], feeds[1], workers[0], workers[1]] = await Promise.all([
      start('api-a', 'api'),
      start('api-b', 'api'),
      start('feed-1', 'feed'),
      start('feed-2', 'feed'),
      start('worker-1', 'worker'),
      start('worker-2', 'worker'),
    ]);
    const proxy = await startFailoverProxy(() =>
      [apiA, apiB].filter((n) => n.alive).map((n) => n.port),
    );
    stoppables.push(proxy);
    proxyPort = proxy.port;
    ({ cookie, trader } = await loginDemo(apiA.port));
  }, 180_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all(nodes.map((n) => n.kill('SIGKILL')));
    await upstream?.close();
    for (const s of stoppables.reverse()) await s.stop().catch(() => undefined);
  }, 60_000);

  it('elects exactly one active feed; a client on node A receives its ticks', async () => {
    await waitUntil('an active feed', () => feeds.some((f) => f.isActiveFeed));
    expect(feeds.filter((f) => f.isActiveFeed)).toHaveLength(1);
    const client = await liveClient(apiA);
    await waitUntil(
      'ticks on node A',
      () => client.bids(SYMBOL).length >= 2 && client.bids(WATCHED).length >= 1,
    );
    price = Math.round(client.bids(SYMBOL).at(-1)?.price ?? 0);
    expect(price).toBeGreaterThan(0);
    client.close();
  });

  it('an order placed on A is visible and closable on B, its events reach a client on B', async () => {
    const onB = await liveClient(apiB);
    await waitUntil('the client on B', () => onB.bids(SYMBOL).length >= 1);
    const orderId = await openBuy(apiA);
    expect((await positions(apiB)).map((p) => p.orderId)).toContain(orderId);
    await waitUntil('position_opened on B', () =>
      onB.events.some((e) => e.type === 'position_opened' && e.orderId === orderId),
    );
    await trade(apiB, '/trading/order/close', { orderId, volume: VOLUME });
    await waitUntil('position_closed on B', () =>
      onB.events.some((e) => e.type === 'position_closed' && e.orderId === orderId),
    );
    expect((await positions(apiA)).map((p) => p.orderId)).not.toContain(orderId);
  });

  it('a pending order placed on A triggers exactly once', async () => {
    const onB = clients.at(-1) as LiveClient;
    await pin(apiB, price, price + 10);
    const added = await trade(apiA, '/trading/order/pending/add', {
      symbol: SYMBOL,
      cmd: 1,
      volume: VOLUME,
      pendPrice: price - 100,
    });
    const pId = z
      .object({ data: z.object({ pending: z.object({ pId: z.string() }) }) })
      .parse(added).data.pending.pId;
    // the ask crosses the limit twice: the order fills on the first, never again
    await pin(apiA, price - 120, price - 110);
    await pin(apiB, price - 130, price - 120);
    await waitUntil('pending_filled on B', () =>
      onB.events.some((e) => e.type === 'pending_filled' && e.pId === pId),
    );
    await pin(apiA, price - 140, price - 130);
    const fills = onB.events.filter((e) => e.type === 'pending_filled' && e.pId === pId);
    expect(fills).toHaveLength(1);
    const filled = (await positions(apiB)).filter((p) =>
      fills.some((f) => 'orderId' in f && f.orderId === p.orderId),
    );
    expect(filled).toHaveLength(1);
    await trade(apiB, '/trading/order/close', { orderId: filled[0]?.orderId, volume: VOLUME });
  });

  it('a logout on B ends at once the live connection its session opened on A', async () => {
    const second = await loginDemo(apiA.port);
    const owner = `uuid=${second.trader.uuid}&token=${second.trader.token}`;
    const tokenReply = await request(
      apiA.port,
      'GET',
      `/api/live/token?${owner}`,
      undefined,
      second.cookie,
    );
    const live = new LiveClient(apiA.port, liveTokenSchema.parse(JSON.parse(tokenReply.body)));
    clients.push(live);
    const codes: number[] = [];
    live.client.on('connecting', (ctx) => codes.push(ctx.code));
    await waitUntil('the connection on A', () => live.client.state === 'connected');
    const out = await request(apiB.port, 'POST', '/user/api/v1/account/logout', {}, second.cookie);
    expect(out.status, out.body).toBe(200);
    // not at the token's refresh (LIVE_TOKEN_TTL_SECONDS): the broker carries the logout
    await waitUntil('the session-ended close (3011) on A', () => codes.includes(3011), 5_000);
    live.close();
  });

  it("a printed line of a backtest run on A reaches the editor's log socket on B", async () => {
    const lines: string[] = [];
    const socket = new WebSocket(`ws://127.0.0.1:${apiB.port}/ws/cluster-tab`, {
      headers: { cookie: `ct_sid=${cookie}` },
    });
    socket.on('message', (data: Buffer) => lines.push(data.toString()));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    try {
      await call(apiA, 'POST', '/api/backtest/code', {
        code: 'def main(d):\n    print("printed on node A")\n    return []',
        filename: 'cluster.py',
        historical_data: dailyBars(30),
        client_id: 'cluster-tab',
        symbol: SYMBOL,
      });
      await waitUntil(
        () => `the line on B (got ${JSON.stringify(lines)})`,
        () => lines.includes('printed on node A'),
      );
    } finally {
      socket.close();
    }
  });

  it(
    'kill -9 of the active feed: the standby takes over, prices go on, a TP fires once',
    { timeout: 90_000 },
    async () => {
      const onA = await liveClient(apiA);
      const onB = clients.find((c) => c !== onA && c.events.length > 0) as LiveClient;
      await pin(apiA, price, price + 10);
      const orderId = await openBuy(apiA);
      // the TP is set on the other node: the active feed learns it through Redis
      await trade(apiB, '/trading/order/tpsl', { orderId, tp: price + 500 });
      await waitUntil('ticks of the watched symbol', () => onA.bids(WATCHED).length >= 2);

      const active = feeds.find((f) => f.isActiveFeed) as Node;
      const standby = feeds.find((f) => f !== active) as Node;
      const before = onA.bids(WATCHED).at(-1) as Tick;
      const killedAt = Date.now();
      await active.kill('SIGKILL');
      await waitUntil('the standby to take over', () => standby.isActiveFeed, 15_000);
      const count = onA.bids(WATCHED).length;
      await waitUntil(
        'ticks after the takeover',
        () => onA.bids(WATCHED).length > count + 1,
        15_000,
      );
      const after = onA.bids(WATCHED)[count] as Tick;
      console.info(
        `multi-node: the standby was elected ${(standby.activeFeedAt ?? 0) - killedAt} ms and ` +
          `its first ${WATCHED} tick arrived ${after.at - killedAt} ms after the kill`,
      );
      expect(after.tm).toBeGreaterThan(before.tm);
      // the same simulation continues: no jump between the last tick before and the first after
      expect(Math.abs(after.price - before.price) / before.price).toBeLessThan(0.01);

      await pin(apiB, price + 600, price + 610);
      await waitUntil('the TP to close the position', () =>
        onB.events.some((e) => e.type === 'position_closed' && e.orderId === orderId),
      );
      await pin(apiA, price + 700, price + 710);
      const closes = onB.events.filter(
        (e) => e.type === 'position_closed' && e.orderId === orderId,
      );
      expect(closes).toMatchObject([{ closeReason: 1, full: true }]);
      expect((await settles(apiA)).filter((s) => s.orderId === orderId)).toHaveLength(1);
    },
  );

  it(
    'kill of an API node: its clients reconnect to the other and resubscribe',
    { timeout: 60_000 },
    async () => {
      const viaProxy = await liveClient(apiA, proxyPort);
      await waitUntil('ticks through the proxy', () => viaProxy.bids(WATCHED).length >= 1);
      await apiA.kill('SIGKILL');
      const count = viaProxy.bids(WATCHED).length;
      await waitUntil(
        'ticks again after the reconnection',
        () => viaProxy.bids(WATCHED).length > count + 1,
        20_000,
      );
      const orderId = await openBuy(apiB);
      await waitUntil('the account event after the reconnection', () =>
        viaProxy.events.some((e) => e.type === 'position_opened' && e.orderId === orderId),
      );
    },
  );

  it('an AI task survives the death of the worker that ran it', { timeout: 120_000 }, async () => {
    upstream.script({ match: 'T-cluster', stallBeforeHeaders: true });
    await call(apiB, 'POST', '/api/settings', {
      provider: 'ollama',
      baseURL: upstream.baseUrl,
      model: 'test-model',
      apiKey: '',
    });
    const created = z.object({ id: z.number() }).parse(
      await call(apiB, 'POST', '/api/ai/strategy', {
        prompt: 'T-cluster: a moving-average crossover',
        provider: 'ollama',
        model: 'test-model',
        base_url: upstream.baseUrl,
        symbol_id: SYMBOL,
        period: 'day',
      }),
    );
    await waitUntil('a worker to call the model', () => upstream.chats().length === 1, 30_000);
    // the worker holding the task (its lease names its pid) dies; the other takes the task
    // over once the lease has run out
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const owner = await db
      .query<{ owner: string }>(
        "select lease_owner as owner from jobs where batch_key = 'ai-task:' || $1::text",
        [created.id],
      )
      .finally(() => db.end());
    const holder = workers.find((w) => owner.rows[0]?.owner.includes(`:${w.child.pid}:`));
    expect(holder, owner.rows[0]?.owner).toBeDefined();
    upstream.script({ match: 'T-cluster', content: pieces(answerWith(GOOD_STRATEGY)) });
    await holder?.kill('SIGKILL');
    const task = await waitUntil(
      'the task to complete on the second worker',
      async () => {
        const t = aiTaskSchema.parse(await call(apiB, 'GET', `/api/ai/strategy/${created.id}`));
        return t.status === 'COMPLETED' || t.status === 'FAILED' ? t : undefined;
      },
      60_000,
      200,
    );
    expect(task.status, JSON.stringify(task)).toBe('COMPLETED');
    expect(upstream.chats()).toHaveLength(2);
  });
});
