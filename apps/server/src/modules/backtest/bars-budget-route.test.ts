import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TestApp } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';
import { caller, sandboxApp, testSandbox, type Session } from '../../test/backtest.ts';

/*
 * The bars budget through the run helper: a run whose bars do not fit beside another user's
 * waits for room before its bars are loaded, is told its place on its log socket, and runs
 * once the other run has given its room back (order of events only).
 */

let t: TestApp;
let alice: Session;
let bob: Session;
let base = '';

beforeAll(async () => {
  ({ t, alice, bob, base } = await sandboxApp(
    testSandbox({
      uidBase: 58_000,
      maxConcurrent: 2,
      maxPerUser: 1,
      barsBudget: 400,
      warm: 2,
      timeoutMs: 20_000,
    }),
  ));
});
afterAll(() => t.close());

const SLOW = 'import time\ndef main(d):\n    time.sleep(2)\n    return []\n';

async function logOf(session: Session, clientId: string, lines: string[]): Promise<WebSocket> {
  const ws = new WebSocket(`${base}/ws/${clientId}`, {
    headers: { cookie: `ct_sid=${session.cookie}` },
  });
  ws.on('message', (data) => lines.push(`${clientId}: ${data.toString()}`));
  await new Promise((resolve) => ws.once('open', resolve));
  return ws;
}

function runHelper(session: Session, clientId: string, limit: number) {
  return caller(t.app, session.cookie)('POST', '/api/backtest/run', {
    clientId,
    code: SLOW,
    symbol: 'GOOG',
    period: 'day',
    limit,
  }).then((res) => res.json<{ success: boolean; data: { bar_count: number } }>());
}

describe('runs past the bars budget', () => {
  it('wait their turn, told their place, instead of failing', async () => {
    const lines: string[] = [];
    const sockets = [await logOf(alice, 'alice-big', lines), await logOf(bob, 'bob-big', lines)];
    const first = runHelper(alice, 'alice-big', 300);
    await waitFor(() => lines.some((l) => l.startsWith('alice-big: [backtest] Started')), 10_000);
    const second = runHelper(bob, 'bob-big', 300);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ success: true, data: { bar_count: 300 } });
    expect(b).toMatchObject({ success: true, data: { bar_count: 300 } });
    // the log's last line may come after the answer
    await waitFor(() => lines.some((l) => l.startsWith('bob-big: [backtest] Finished')), 10_000);
    const events = lines.filter(
      (l) => /\[backtest\] (Started|Finished|Queued|Room)/.test(l) && !l.includes('Connection'),
    );
    expect(events.map((l) => l.replace(/ in [\d.]+ s:.*$/, ''))).toEqual([
      'alice-big: [backtest] Started strategy.py on GOOG day (300 bars)',
      'bob-big: [backtest] Queued at position 1: waiting for room for 300 bars (other runs hold the memory for bars)',
      'alice-big: [backtest] Finished',
      'bob-big: [backtest] Room for 300 bars: running now',
      'bob-big: [backtest] Started strategy.py on GOOG day (300 bars)',
      'bob-big: [backtest] Finished',
    ]);
    expect(t.app.services.backtest.sandbox.barsHeld()).toEqual({ held: 0, waiting: 0 });
    for (const ws of sockets) ws.close();
  }, 60_000);
});
