import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { answerWith } from '../../test/ai-strategies.ts';
import {
  pieces,
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../test/openai-test-server.ts';
import {
  NO_TRADES,
  ROUNDS_WHILE_HEAVY,
  describeNeighbour,
  roundsBetweenSteps,
  smallBars,
  whileHeavy,
  type NeighbourSuite,
} from './support.ts';

/*
 * Noisy neighbour: an AI strategy task on two feeds (BTCUSDT and ETHUSDT, daily) whose code
 * returns 95,200 trade records on the in-sample bars. Checking them, computing each
 * instrument's deals and the portfolio's figures happens in a body worker, as for a one-feed
 * task, so the neighbour's health, order and kline calls go on being answered meanwhile.
 *
 * The order of events marks the evaluation alone: the sandbox has one slot, and the heavy
 * user's small backtest waits behind the task's in-sample run; its log socket says "A slot is
 * free" when that run has ended, i.e. when its result's evaluation begins. The evaluation has
 * ended when the task's conversation shows the in-sample validation, written right after it.
 * A server that evaluates the result on its event loop answers at most the round in flight
 * between the two.
 */

const PER_BAR = 280;
const BARS_WITH_TRADES = 170;
const RECORDS = 2 * BARS_WITH_TRADES * PER_BAR;

/** PER_BAR closed trades on each of the first BARS_WITH_TRADES bars of every instrument. */
const MANY_TRADES_ON_EACH = [
  'import time',
  '',
  'def main(data_array):',
  '    time.sleep(1)',
  '    rows = {}',
  '    for row in data_array:',
  '        rows.setdefault(row[1], []).append(row)',
  '    out = []',
  '    for code, r in rows.items():',
  `        for i in range(min(len(r) - 1, ${BARS_WITH_TRADES})):`,
  '            trade = {"code": code, "open_date": r[i][0], "close_date": r[i + 1][0],',
  '                     "open_price": r[i][6], "close_price": r[i + 1][6], "lots": 1,',
  '                     "status": "YES"}',
  `            out.extend([trade] * ${PER_BAR})`,
  '    return out',
].join('\n');

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer();
});
afterAll(() => model?.close());

async function createTask(suite: NeighbourSuite): Promise<number> {
  const res = await suite.heavyCall('/api/ai/strategy', {
    prompt: 'FEEDS-0: many trades on both',
    provider: 'ollama',
    model: 'test-model',
    base_url: model.baseUrl,
    symbol_id: 'BTCUSDT',
    period: 'day',
    feeds: [{ symbol_id: 'ETHUSDT', period: 'day' }],
  });
  const body = (await res.json()) as { id?: number };
  if (res.status !== 200 || body.id === undefined) {
    throw new Error(`task refused: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.id;
}

type Message = { step_type: string; extra_data: Record<string, unknown> | null };

async function conversation(suite: NeighbourSuite, id: number): Promise<Message[]> {
  const res = await suite.heavyCall(`/api/ai/strategy/${id}/conversations`);
  if (res.status !== 200) throw new Error(`conversation ${id}: ${res.status}`);
  return ((await res.json()) as { conversations: Message[] }).conversations;
}

async function status(suite: NeighbourSuite, id: number): Promise<string> {
  const res = await suite.heavyCall(`/api/ai/strategy/${id}`);
  const body = (await res.json()) as { status?: string; error_message?: string | null };
  if (res.status !== 200 || !body.status) throw new Error(`task ${id}: ${res.status}`);
  return body.status === 'FAILED' ? `FAILED: ${body.error_message ?? ''}` : body.status;
}

const ended = (s: string) => s === 'COMPLETED' || s.startsWith('FAILED');
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));

describeNeighbour(
  'an AI task on two feeds',
  {
    name: 'ai-task-feeds',
    env: () => ({
      OLLAMA_BASE_URL: model.baseUrl,
      AI_TASK_CONCURRENCY: '1',
      AI_TASK_BARS: '300',
      BACKTEST_CONCURRENCY: '1',
      BACKTEST_UID_BASE: '72000',
    }),
  },
  (suite) => {
    it("leaves the neighbour's calls answered while its large result is evaluated", async () => {
      const { server } = suite;
      model.script({ content: pieces(answerWith(MANY_TRADES_ON_EACH)), match: 'FEEDS-0:' });

      // the heavy user's log socket: its small backtests' places in the sandbox's queue
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws/heavy-tab`, {
        headers: { cookie: `ct_sid=${server.heavy.cookie}` },
      });
      let queued = false;
      const events: string[] = [];
      socket.on('message', (data) => {
        const line = String(data);
        if (line.startsWith('[backtest] Queued at position')) queued = true;
        if (line.startsWith('[backtest] A slot is free') && !events.includes('slot free')) {
          events.push('slot free');
        }
      });
      await new Promise((resolve) => socket.once('message', resolve)); // the greeting

      let validation: Message | undefined;
      const outcome = await whileHeavy(
        async () => {
          const id = await createTask(suite);
          // the in-sample validation, seen as soon as it is written
          let seen = false;
          const validated = (async () => {
            for (;;) {
              const messages = await conversation(suite, id);
              validation = messages.find((m) => m.step_type === 'validation');
              const failed = messages.some((m) => m.step_type === 'error');
              if (validation || failed) {
                seen = true;
                return events.push(validation ? 'validated' : 'failed');
              }
            }
          })();
          // small backtests one after another until one waits behind the task's first run
          while (!queued && !seen) {
            const run = await suite.heavyCall('/api/backtest/code', {
              code: NO_TRADES,
              client_id: 'heavy-tab',
              historical_data: smallBars(),
            });
            if (run.status !== 200) throw new Error(`small backtest answered ${run.status}`);
            await run.arrayBuffer();
          }
          await validated;
          for (;;) {
            const now = await status(suite, id);
            if (ended(now)) return now;
            await pause();
          }
        },
        async () => {
          await suite.round();
          events.push('round');
        },
      );
      socket.close();

      expect(outcome.heavy).toBe('COMPLETED');
      // the in-sample run returned the large result
      expect(validation?.extra_data).toMatchObject({ passed: true, trades: RECORDS });
      const steps = events.filter((event) => event !== 'round');
      expect(steps, events.join(' ')).toEqual(['slot free', 'validated']);
      // rounds answered while the in-sample result was evaluated
      const [, whileEvaluated] = roundsBetweenSteps(events, (event) => event !== 'round');
      expect(whileEvaluated, events.join(' ')).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
      expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
    }, 600_000);
  },
);
