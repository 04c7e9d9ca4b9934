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
 * A backtest on 200,000 bars (a body of about 20 MiB): the body is parsed and validated off
 * the event loop, so the neighbour's calls, a small backtest of its own included, go on
 * being answered while it is read, and before the run even starts in the sandbox (the
 * heavy user's log socket says when: "[backtest] Started …"). The sandbox's own time is
 * free for the event loop either way, so the rounds are counted up to that line.
 */

describeNeighbour(
  'a 200,000-bar backtest',
  { name: 'backtest-bars', env: { BACKTEST_UID_BASE: '57000' } },
  (suite) => {
    it("leaves the neighbour's calls answered while its body is read and checked", async () => {
      const { server } = suite;
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws/heavy-tab`, {
        headers: { cookie: `ct_sid=${server.heavy.cookie}` },
      });
      let runStarted = false;
      socket.on('message', (data) => {
        if (String(data).startsWith('[backtest] Started')) runStarted = true;
      });
      await new Promise((resolve) => socket.once('message', resolve)); // the greeting

      const body = JSON.stringify({
        code: NO_TRADES,
        client_id: 'heavy-tab',
        historical_data: minuteBars(200_000),
      });
      let roundsBeforeRunStarted = 0;
      const outcome = await whileHeavy(
        async () => {
          const res = await suite.heavyCall('/api/backtest/code', body);
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        },
        async () => {
          await suite.round({ backtest: true });
          if (!runStarted) roundsBeforeRunStarted += 1;
        },
      );
      socket.close();
      expect(outcome.heavy).toMatchObject({
        status: 200,
        body: { error: null, bar_count: 200_000 },
      });
      expect(roundsBeforeRunStarted).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
      expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
    }, 300_000);
  },
);
