import { afterAll, beforeAll, expect, it } from 'vitest';
import { GOOD_STRATEGY, answerWith } from '../../test/ai-strategies.ts';
import {
  pieces,
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../test/openai-test-server.ts';
import {
  ROUNDS_WHILE_HEAVY,
  call,
  describeNeighbour,
  whileHeavy,
  type Login,
  type NeighbourServer,
} from './support.ts';

/*
 * Noisy neighbour: AI strategy tasks. The heavy user queues 10 tasks whose model answers are
 * slow; the neighbour's own task, created after all of them, is taken before the rest of the
 * heavy user's queue (tasks are claimed round robin over users), so it completes before the
 * heavy user's last task does; and the neighbour's calls go on being answered meanwhile.
 * One task at a time (AI_TASK_CONCURRENCY=1): in order of arrival the neighbour would wait
 * for all ten.
 */

const HEAVY_TASKS = 10;

let model: OpenAiTestServer;

beforeAll(async () => {
  model = await startOpenAiTestServer();
});
afterAll(() => model?.close());

async function createTask(server: NeighbourServer, who: Login, prompt: string): Promise<number> {
  const res = await call(server.url, who, '/api/ai/strategy', {
    prompt,
    provider: 'ollama',
    model: 'test-model',
    base_url: model.baseUrl,
    symbol_id: 'BTCUSDT',
    period: 'day',
  });
  const body = (await res.json()) as { id?: number };
  if (res.status !== 200 || body.id === undefined) {
    throw new Error(`task refused: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.id;
}

/** The task's status; a failed one with its error message (`FAILED: …`). */
async function status(server: NeighbourServer, who: Login, id: number): Promise<string> {
  const res = await call(server.url, who, `/api/ai/strategy/${id}`);
  const body = (await res.json()) as { status?: string; error_message?: string | null };
  if (res.status !== 200 || !body.status) throw new Error(`task ${id}: ${res.status}`);
  return body.status === 'FAILED' ? `FAILED: ${body.error_message ?? ''}` : body.status;
}

const ended = (s: string) => s === 'COMPLETED' || s.startsWith('FAILED');

describeNeighbour(
  'AI tasks of a heavy user',
  {
    name: 'ai-tasks',
    env: () => ({
      OLLAMA_BASE_URL: model.baseUrl,
      AI_TASK_CONCURRENCY: '1',
      AI_TASK_BARS: '300',
    }),
  },
  (suite) => {
    it("do not hold back the neighbour's task or calls", async () => {
      const { server } = suite;
      const { heavy, neighbour } = server;
      // every heavy answer is the working strategy, streamed a piece at a time, slowly
      for (let i = 0; i < HEAVY_TASKS; i++) {
        model.script({ content: pieces(answerWith(GOOD_STRATEGY)), delayMs: 15, match: `H-${i}:` });
      }
      model.script({ content: pieces(answerWith(GOOD_STRATEGY)), match: 'N-0:' });

      const heavyIds: number[] = [];
      for (let i = 0; i < HEAVY_TASKS; i++) {
        heavyIds.push(await createTask(server, heavy, `H-${i}: moving averages`));
      }
      const neighbourId = await createTask(server, neighbour, 'N-0: moving averages');

      // the order of events: when the neighbour's task is seen finished, how many of the heavy
      // user's tasks had finished (checked right after it, in the same pass)
      let neighbourStatus = 'PENDING';
      let heavyEndedWhenNeighbourDone: number | null = null;
      const outcome = await whileHeavy(
        async () => {
          const done = new Set<number>();
          while (done.size < HEAVY_TASKS || heavyEndedWhenNeighbourDone === null) {
            if (heavyEndedWhenNeighbourDone === null) {
              neighbourStatus = await status(server, neighbour, neighbourId);
              if (ended(neighbourStatus)) heavyEndedWhenNeighbourDone = done.size;
            }
            for (const id of heavyIds) {
              if (!done.has(id) && ended(await status(server, heavy, id))) done.add(id);
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return done.size;
        },
        () => suite.round(),
      );

      expect(outcome.heavy).toBe(HEAVY_TASKS);
      // taken in its turn, not after the heavy user's queue, and done
      expect(neighbourStatus).toBe('COMPLETED');
      // taken second, after the heavy user's first task: done long before its last
      expect(heavyEndedWhenNeighbourDone).not.toBeNull();
      expect(heavyEndedWhenNeighbourDone ?? HEAVY_TASKS).toBeLessThan(HEAVY_TASKS);
      expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
    }, 600_000);
  },
);
