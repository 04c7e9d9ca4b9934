import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PositionView, User } from '@ct/domain';
import { afterAll, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../config.ts';
import '../../test/provided.ts';
import { testTmpDir } from '../../test/tmp-dir.ts';

/*
 * The real server process, killed with SIGKILL in the middle of a burst of market orders:
 * after a restart on the same data directory every acknowledged order is there exactly
 * once, and retrying every request with its clientOrderId fills nothing twice.
 */

const BURST = 60;
const KILL_AFTER_ACKS = 20;
const WORKERS = 6;
/** A request that hangs fails the test with a reason instead of running into its timeout. */
const REQUEST_TIMEOUT_MS = 30_000;

const dataDir = fs.mkdtempSync(path.join(testTmpDir(), 'ct-crash-test-'));
// Start from the run's migrated template: initdb would cost seconds.
fs.cpSync(inject('pgTemplateDir'), path.join(dataDir, 'pglite'), { recursive: true });
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Chart Terminal is running at (\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${stderr}`));
    });
  });
  return { child, url };
}

/** Fails with the phase's name when it takes longer than `ms` (a loaded machine, a hang). */
function within<T>(ms: number, phase: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${phase} took more than ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Resolves when the process has ended (also when it already has: killed ones have no exitCode). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

type Login = { cookie: string; uuid: string; token: string };

async function login(url: string): Promise<Login> {
  const res = await fetch(`${url}/user/api/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    body: JSON.stringify({
      channel: 1,
      login_type: 2,
      user_name: 'demo@example.com',
      password: 'demo1234',
      device: 1,
    }),
  });
  const cookie = /ct_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  const trader = ((await res.json()) as { data: User[] }).data[0]?.traders[0];
  if (!cookie || !trader) throw new Error('demo login failed');
  return { cookie, uuid: trader.uuid, token: trader.token };
}

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

it(
  'keeps every acknowledged order exactly once across kill -9 and restart',
  { timeout: 180_000 },
  async () => {
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
  },
);
