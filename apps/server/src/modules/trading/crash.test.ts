import type { PositionView } from '@ct/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, loginDemo, serverProcesses, type DemoLogin } from '../../test/server-process.ts';
import { startPostgres } from '../../test/cluster.ts';

/*
 * The real server process, killed with SIGKILL in the middle of a burst of market orders
 * (several clients: the order writer commits them in batches, docs/architecture.md): after a
 * restart on the same database every acknowledged order is there exactly once, and retrying
 * every request with its clientOrderId fills nothing twice. On PGlite (the data directory)
 * and on PostgreSQL (a fresh database; a throwaway server when TEST_DATABASE_URL is unset).
 */

const BURST = 60;
const KILL_AFTER_ACKS = 20;
const WORKERS = 6;
/** A request that hangs fails the test with a reason instead of running into its timeout. */
const REQUEST_TIMEOUT_MS = 30_000;

const servers = serverProcesses('crash-test');
afterAll(() => servers.cleanUp());

/** Fails with the phase's name when it takes longer than `ms` (a loaded machine, a hang). */
function within<T>(ms: number, phase: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${phase} took more than ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

type Login = DemoLogin;
const login = (url: string) => loginDemo(url, REQUEST_TIMEOUT_MS);

type OrderAnswer = { code: number; msg: string; data: { order: PositionView } | null };

function marketOrder(url: string, session: Login, i: number): Promise<OrderAnswer> {
  return fetch(`${url}/trading/order/open`, {
    method: 'POST',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    headers: { 'content-type': 'application/json', cookie: `ct_sid=${session.cookie}` },
    body: JSON.stringify({
      uuid: session.uuid,
      token: session.token,
      symbol: 'BTCUSDT',
      cmd: 1 + (i % 2),
      volume: 0.01,
      comment: 'crash test',
      channel: 1,
      device: 1,
      clientOrderId: `crash-${i}`,
    }),
  }).then((res) => res.json() as Promise<OrderAnswer>);
}

async function positions(url: string, session: Login): Promise<PositionView[]> {
  const query = new URLSearchParams({ uuid: session.uuid, token: session.token, channel: '1' });
  const res = await fetch(`${url}/trading/order/position?${query.toString()}`, {
    headers: { cookie: `ct_sid=${session.cookie}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return ((await res.json()) as { data: { orders: PositionView[] } }).data.orders;
}

async function crashAndRestart(env: Record<string, string>): Promise<void> {
  const startServer = () => servers.start(env);
  const first = await startServer();
  const session = await login(first.url);

  // the burst: WORKERS clients send orders one after another until the process dies
  const acknowledged = new Map<string, string>();
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (next < BURST) {
      const i = next++;
      try {
        const answer = await marketOrder(first.url, session, i);
        if (answer.code !== 0 || !answer.data) throw new Error(`order refused: ${answer.msg}`);
        acknowledged.set(`crash-${i}`, answer.data.order.orderId);
        if (acknowledged.size >= KILL_AFTER_ACKS && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      } catch (error) {
        if (!killed) throw error;
        return; // the server is gone: this request may or may not have been committed
      }
    }
  };
  await within(60_000, 'the burst', Promise.all(Array.from({ length: WORKERS }, worker)));
  expect(killed).toBe(true);
  await within(30_000, 'the killed server exiting', exited(first.child));
  const second = await startServer();
  const again = await login(second.url);
  expect(again.uuid).toBe(session.uuid);

  const afterCrash = await positions(second.url, again);
  const byClientId = new Map<string, string[]>();
  for (const p of afterCrash) {
    const ids = byClientId.get(p.clientOrderId ?? '') ?? [];
    ids.push(p.orderId);
    byClientId.set(p.clientOrderId ?? '', ids);
  }
  for (const [clientOrderId, orderId] of acknowledged) {
    expect(byClientId.get(clientOrderId)).toEqual([orderId]);
  }
  expect([...byClientId.values()].every((ids) => ids.length === 1)).toBe(true);
  expect(afterCrash.length).toBeGreaterThanOrEqual(acknowledged.size);

  // every request retried with its clientOrderId: answered, never filled twice
  const retried = await within(
    60_000,
    'the retries',
    Promise.all(Array.from({ length: BURST }, (_, i) => marketOrder(second.url, again, i))),
  );
  for (const [i, answer] of retried.entries()) {
    expect(answer.code).toBe(0);
    const firstId = acknowledged.get(`crash-${i}`);
    if (firstId) expect(answer.data?.order.orderId).toBe(firstId);
  }
  const final = await positions(second.url, again);
  expect(final).toHaveLength(BURST);
  expect(new Set(final.map((p) => p.clientOrderId)).size).toBe(BURST);

  second.child.kill('SIGTERM');
  await exited(second.child);
}

describe('kill -9 in a burst of market orders', () => {
  it('keeps every acknowledged order exactly once on PGlite', { timeout: 180_000 }, () =>
    crashAndRestart({}),
  );

  it(
    'keeps every acknowledged order exactly once on PostgreSQL',
    { timeout: 240_000 },
    async () => {
      const postgres = await startPostgres();
      try {
        await crashAndRestart({ DATABASE_URL: postgres.url });
      } finally {
        await postgres.stop();
      }
    },
  );
});
