import { GOOD_STRATEGY } from '@ct/server/ai-strategies';
import type { BenchContext, HeavyOperation } from '../types.ts';

/*
 * Heavy operation: one user queues 10 AI strategy tasks whose model answers are slow (the
 * local test model streams each answer a piece at a time), and waits until all have ended.
 * The server runs one task at a time, so the neighbour is measured while a user's whole queue
 * of model calls, sandbox validations and backtests runs. The server's OLLAMA_BASE_URL is the
 * test model (`needsModel`), the provider the tasks use (no key needed).
 */

const TASKS = 10;
/** Pause before each streamed piece of an answer (about 120 pieces: ~2 s an answer). */
const PIECE_DELAY_MS = 15;

function base(context: BenchContext): string {
  if (!context.modelBase) throw new Error('ai-tasks: the test model was not started');
  return context.modelBase;
}

async function postJson(url: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(cookie ? { cookie: `ct_sid=${cookie}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** Words with their spaces, as a model streams tokens. */
function pieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

export const operation: HeavyOperation = {
  name: `AI strategy tasks, ${TASKS} queued by one user, slow model answers`,
  needsModel: true,
  env: { AI_TASK_CONCURRENCY: '1', AI_TASK_BARS: '300' },
  async run(context) {
    const modelBase = base(context);
    const { url, heavy } = context;
    const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const answer = `Here is the strategy:\n\n\`\`\`python\n${GOOD_STRATEGY}\n\`\`\`\n`;
    const scripts = Array.from({ length: TASKS }, (_, i) => ({
      content: pieces(answer),
      delayMs: PIECE_DELAY_MS,
      match: `${run}-${i}:`,
    }));
    const scripted = await postJson(`${modelBase.replace(/\/v1$/, '')}/__script`, { scripts });
    if (!scripted.ok) throw new Error(`test model refused the script: ${await scripted.text()}`);

    const ids: number[] = [];
    for (let i = 0; i < TASKS; i++) {
      const res = await postJson(
        `${url}/api/ai/strategy`,
        {
          prompt: `${run}-${i}: moving averages`,
          provider: 'ollama',
          model: 'test-model',
          base_url: modelBase,
          symbol_id: 'BTCUSDT',
          period: 'day',
        },
        heavy.cookie,
      );
      if (!res.ok) throw new Error(`task refused: ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { id: number }).id);
    }

    const open = new Set(ids);
    const deadline = Date.now() + 30 * 60_000;
    while (open.size > 0) {
      if (Date.now() > deadline) throw new Error(`${open.size} AI tasks did not end in 30 min`);
      for (const id of [...open]) {
        const res = await fetch(`${url}/api/ai/strategy/${id}`, {
          headers: { cookie: `ct_sid=${heavy.cookie}` },
        });
        const { status } = (await res.json()) as { status?: string };
        if (status === 'COMPLETED' || status === 'FAILED') open.delete(id);
      }
      if (open.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  },
};
