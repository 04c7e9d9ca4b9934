import { expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  NO_TRADES,
  ROUNDS_WHILE_HEAVY,
  describeNeighbour,
  minuteBars,
  whileHeavy,
} from './support.ts';

/*
 * The intake of large backtest bodies (100,000 and 200,000 bars, about 14 and 28 MiB): their
 * parsing, validation and the turning of their rows into bars all happen in a body worker,
 * so nothing of it holds the event loop. The heavy user sends both at once to a server with
 * one body worker: the second is read in the worker after the first has started ("[backtest]
 * Started …" on the heavy user's log socket) and before it starts itself. The neighbour's
 * rounds go on being answered between the two lines. A server that takes a worker's value
 * back as rows and turns them into bars on the event loop does that for the second body
 * right after the first (the worker read both meanwhile): nothing is answered between them.
 */

describeNeighbour(
  'two large backtest bodies',
  { name: 'backtest-intake', env: { BACKTEST_UID_BASE: '69000', BODY_WORKERS: '1' } },
  (suite) => {
    it("leave the neighbour's calls answered while the second is read", async () => {
      const { server } = suite;
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws/heavy-tab`, {
        headers: { cookie: `ct_sid=${server.heavy.cookie}` },
      });
      let started = 0;
      socket.on('message', (data) => {
        if (String(data).startsWith('[backtest] Started')) started += 1;
      });
      await new Promise((resolve) => socket.once('message', resolve)); // the greeting

      // the second body is twice the first: reading it in the worker leaves a window wide
      // enough for several of the neighbour's rounds on a busy machine
      const body = (bars: number) =>
        JSON.stringify({
          code: NO_TRADES,
          client_id: 'heavy-tab',
          historical_data: minuteBars(bars),
        });
      const [first, second] = [body(100_000), body(200_000)];
      const post = async (payload: string) => {
        const res = await suite.heavyCall('/api/backtest/code', payload);
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      let roundsBetweenStarts = 0;
      const outcome = await whileHeavy(
        () => Promise.all([post(first), post(second)]),
        async () => {
          await suite.round();
          if (started === 1) roundsBetweenStarts += 1;
        },
      );
      socket.close();
      expect(outcome.heavy).toMatchObject([
        { status: 200, body: { error: null, bar_count: 100_000 } },
        { status: 200, body: { error: null, bar_count: 200_000 } },
      ]);
      expect(started).toBe(2);
      expect(roundsBetweenStarts).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
      expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
    }, 300_000);
  },
);
