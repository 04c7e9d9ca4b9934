import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TestApp } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';
import { queueOrder } from './sandbox/pool.ts';
import { caller, dailyBars, sandboxApp, testSandbox, type Session } from '../../test/backtest.ts';

/*
 * Fair backtest scheduling (issue 18, item 5): a user holds at most a share of the slots, a
 * waiting run learns its place, and one user's runs never delay another user's.
 */

let t: TestApp;
let alice: Session;
let bob: Session;
let base = '';

beforeAll(async () => {
  ({ t, alice, bob, base } = await sandboxApp(
    testSandbox({
      uidBase: 59_000,
      maxConcurrent: 2,
      maxPerUser: 1,
      maxQueuedPerUser: 2,
      warm: 2,
      timeoutMs: 20_000,
    }),
  ));
});
afterAll(() => t.close());

const BARS = dailyBars(30);
const SLOW = 'import time\ndef main(d):\n    time.sleep(3)\n    return []\n';
const QUICK = 'def main(d):\n    return []\n';

function run(session: Session, code: string, clientId: string) {
  return caller(t.app, session.cookie)('POST', '/api/backtest/code', {
    code,
    filename: 's.py',
    historical_data: BARS,
    client_id: clientId,
  }).then((res) => res.json<{ error: string | null; error_kind: string | null }>());
}

describe('the queue order', () => {
  it('is round robin over owners, oldest first within each', () => {
    const w = (owner: string, seq: number) => ({ owner, seq });
    const order = queueOrder([w('a', 1), w('a', 2), w('a', 3), w('b', 4), w('c', 5), w('b', 6)]);
    expect(order.map((x) => `${x.owner}${x.seq}`)).toEqual(['a1', 'b4', 'c5', 'a2', 'b6', 'a3']);
  });
});

describe('one user filling their share', () => {
  it('does not delay another user’s backtest, and the waiting run is told its place', async () => {
    const lines: string[] = [];
    const ws = new WebSocket(`${base}/ws/alice-tab`, {
      headers: { cookie: `ct_sid=${alice.cookie}` },
    });
    ws.on('message', (data) => lines.push(data.toString()));
    await new Promise((resolve) => ws.once('open', resolve));

    // alice: one running (her share), two waiting, the next one refused
    const alices = [
      run(alice, SLOW, 'alice-tab'),
      run(alice, SLOW, 'alice-tab'),
      run(alice, SLOW, 'alice-tab'),
    ];
    await waitFor(() => t.app.services.backtest.sandbox.queuedCount() === 2, 10_000);
    const refused = await run(alice, QUICK, 'alice-tab');
    expect(refused).toMatchObject({ error_kind: 'busy' });
    expect(refused.error).toMatch(/^You already have 3 backtests running or waiting/);

    // bob's trivial run takes the free slot at once, while alice's first still sleeps
    const started = performance.now();
    const bobs = await run(bob, QUICK, 'bob-tab');
    const bobMs = performance.now() - started;
    expect(bobs).toMatchObject({ error: null });
    expect(bobMs).toBeLessThan(2500);
    expect(t.app.services.backtest.sandbox.queuedCount()).toBe(2);

    const results = await Promise.all(alices);
    for (const r of results) expect(r.error).toBeNull();
    await waitFor(() => lines.filter((l) => l.includes('Finished')).length === 3, 10_000);
    expect(lines.filter((l) => l.startsWith('[backtest] Queued at position'))).toEqual([
      '[backtest] Queued at position 1: waiting for a free slot',
      '[backtest] Queued at position 2: waiting for a free slot',
      '[backtest] Queued at position 1: waiting for a free slot',
    ]);
    expect(lines.filter((l) => l === '[backtest] A slot is free: running now')).toHaveLength(2);
    ws.close();
  }, 60_000);
});

describe('a body over the user’s slots', () => {
  it('is refused before it is read or parsed: a malformed body gets the busy answer, not a 400', async () => {
    const alices = [
      run(alice, SLOW, 'alice-a'),
      run(alice, SLOW, 'alice-a'),
      run(alice, SLOW, 'alice-a'),
    ];
    await waitFor(() => t.app.services.backtest.sandbox.queuedCount() === 2, 10_000);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/backtest/code',
      cookies: { ct_sid: alice.cookie },
      headers: { 'content-type': 'application/json' },
      payload: '{"code": "def main(d): return []", "historical_data": [', // never parsed
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({
      run_id: null,
      error: 'You already have 3 backtests running or waiting; wait for one to finish',
      error_kind: 'busy',
    });
    // bob's body is his own: read, parsed and refused as malformed
    const bobs = await t.app.inject({
      method: 'POST',
      url: '/api/backtest/code',
      cookies: { ct_sid: bob.cookie },
      headers: { 'content-type': 'application/json' },
      payload: '{"code": ',
    });
    expect(bobs.statusCode).toBe(400);
    for (const r of await Promise.all(alices)) expect(r.error).toBeNull();
  }, 60_000);
});
