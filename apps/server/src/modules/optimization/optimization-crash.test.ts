import { afterAll, expect, it } from 'vitest';
import { exited, loginDemo, serverProcesses } from '../../test/server-process.ts';

/*
 * The real server process killed with SIGKILL while trials of an optimisation run: after a
 * restart on the same data directory the killed worker's trials are claimed again once their
 * lease runs out, the optimisation continues from the trials already kept, and completes
 * with every trial kept exactly once.
 */

const REQUEST_TIMEOUT_MS = 30_000;
const servers = serverProcesses('optimization-crash-test');
afterAll(() => servers.cleanUp());

function startServer() {
  return servers.start({
    OPTIMIZATION_LEASE_MS: '2000',
    OPTIMIZATION_CONCURRENCY: '2',
    BACKTEST_UID_BASE: '56000',
  });
}

async function call(url: string, cookie: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: {
      cookie: `ct_sid=${cookie}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Each trial takes a while, so that the kill finds trials running. */
const SLOW = `import time

PARAMS = {"n": 1}


def main(data_array):
    time.sleep(0.4)
    closes = [row[6] for row in data_array]
    n = PARAMS["n"]
    return [{"open_date": data_array[n][0], "close_date": data_array[-1][0],
             "open_price": closes[n], "close_price": closes[-1], "lots": 1, "status": "YES"}]
`;

type View = {
  status: string;
  progress: { done: number; total: number };
  trials: { index: number; status: string; params: { n: number } }[];
};

async function view(url: string, cookie: string, id: string): Promise<View> {
  const res = await call(`${url}/api/optimizations/${id}?sort=index&limit=1000`, cookie, 'GET');
  expect(res.status).toBe(200);
  return res.json as unknown as View;
}

it(
  'completes an optimization after its worker was killed mid-trial, every trial once',
  { timeout: 300_000 },
  async () => {
    const first = await startServer();
    let cookie = (await loginDemo(first.url, REQUEST_TIMEOUT_MS)).cookie;
    const created = await call(`${first.url}/api/optimizations`, cookie, 'POST', {
      code: SLOW,
      symbol_id: 'GOOG',
      period: 'oneDay',
      bars: 100,
      params: { n: { min: 1, max: 12, step: 1 } },
      objective: 'net_profit',
      method: 'grid',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = String(created.json.id);
    // killed once some trials are kept and others run
    let before: View;
    for (;;) {
      before = await view(first.url, cookie, id);
      if (before.progress.done >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(before.progress.done).toBeLessThan(12);
    first.child.kill('SIGKILL');
    await exited(first.child);

    const second = await startServer();
    cookie = (await loginDemo(second.url, REQUEST_TIMEOUT_MS)).cookie;
    const restarted = await view(second.url, cookie, id);
    // continues where it stopped: the kept trials stay kept
    expect(restarted.progress.done).toBeGreaterThanOrEqual(before.progress.done);
    let after: View;
    const deadline = Date.now() + 240_000;
    for (;;) {
      after = await view(second.url, cookie, id);
      if (after.status !== 'PENDING' && after.status !== 'PROCESSING') break;
      if (Date.now() > deadline) throw new Error(JSON.stringify(after.progress));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after.status).toBe('COMPLETED');
    expect(after.progress).toMatchObject({ done: 12, total: 12 });
    expect(after.trials.map((trial) => trial.index)).toEqual([...Array(12).keys()]);
    expect(after.trials.map((trial) => trial.params.n)).toEqual(
      [...Array(12).keys()].map((i) => i + 1),
    );
    expect(after.trials.every((trial) => trial.status === 'done')).toBe(true);
    second.child.kill('SIGTERM');
    await exited(second.child);
  },
);
