import { aiTaskSchema, type AiTask } from '@ct/domain';
import { BROKEN_STRATEGY, GOOD_STRATEGY } from '@ct/server/ai-strategies';
import { postJson, withTestModelProduct } from '../support/server.ts';

/*
 * AI strategy tasks through the whole loop of the real server (apps/server/src/main.ts:
 * claim, model call, sandbox validation, backtests, look-ahead cuts, stored conversation)
 * against the local OpenAI-compatible test server with fixed answers:
 * - tasks per minute with the worker's default concurrency (2), and the sandbox's share of
 *   the task time, next to one plain backtest of the same code in the same run;
 * - how many tasks in a row complete when the model's first code is broken and its fix works.
 */

export type AiTaskBenchOptions = {
  /** Tasks created at once for the throughput figure. */
  tasks: number;
  /** Tasks with the "broken first, fixed second" model. */
  brokenFirst: number;
  /** Bars each task works on (AI_TASK_BARS). */
  bars: number;
};

export const DEFAULT_AI_TASK_BENCH_OPTIONS: AiTaskBenchOptions = {
  tasks: 12,
  brokenFirst: 10,
  bars: 1000,
};

export type AiTaskBenchResult = {
  tasks: number;
  concurrency: number;
  bars: number;
  wallMs: number;
  tasksPerMinute: number;
  completed: number;
  /** Sums over the tasks, from each task's `backtest_result.timing`. */
  taskMs: number;
  sandboxMs: number;
  modelMs: number;
  sandboxRunsPerTask: number;
  /** One POST /api/backtest/run of the same code on the same bars (median of 5). */
  singleBacktestMs: number;
  brokenFirst: number;
  inARow: number;
  retriesSeen: number[];
};

const answer = (code: string) => ({
  content: [`Here is the strategy:\n\n\`\`\`python\n${code}\n\`\`\`\n`],
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function runAiTaskBench(
  options: Partial<AiTaskBenchOptions> = {},
): Promise<AiTaskBenchResult> {
  const o = { ...DEFAULT_AI_TASK_BENCH_OPTIONS, ...options };
  const concurrency = 2;
  const env = { AI_TASK_CONCURRENCY: String(concurrency), AI_TASK_BARS: String(o.bars) };
  return withTestModelProduct('ct-bench-ai-tasks-', env, async ({ origin, base, cookie }) => {
    const script = async (scripts: unknown[]) => {
      const res = await postJson(`${base.replace(/\/v1$/, '')}/__script`, { scripts });
      if (!res.ok) throw new Error(`script refused: ${await res.text()}`);
    };
    const create = async (prompt: string): Promise<number> => {
      const res = await postJson(
        `${origin}/api/ai/strategy`,
        {
          prompt,
          provider: 'ollama',
          model: 'test-model',
          base_url: base,
          symbol_id: 'BTCUSDT',
          period: 'day',
        },
        cookie,
      );
      if (!res.ok) throw new Error(`task refused: ${await res.text()}`);
      return ((await res.json()) as { id: number }).id;
    };
    const read = async (id: number): Promise<AiTask> => {
      const res = await fetch(`${origin}/api/ai/strategy/${id}`, {
        headers: { cookie: `ct_sid=${cookie}` },
      });
      return aiTaskSchema.parse(await res.json());
    };
    const finish = async (ids: number[]): Promise<AiTask[]> => {
      const done = new Map<number, AiTask>();
      const deadline = Date.now() + 30 * 60_000;
      while (done.size < ids.length && Date.now() < deadline) {
        for (const id of ids) {
          if (done.has(id)) continue;
          const task = await read(id);
          if (task.status === 'COMPLETED' || task.status === 'FAILED') done.set(id, task);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return ids.map((id) => done.get(id)).filter((t): t is AiTask => t !== undefined);
    };

    // the baseline: one plain backtest of the same code on the same bars (warm sandbox)
    const single: number[] = [];
    for (let i = 0; i < 6; i++) {
      const sent = performance.now();
      const res = await postJson(
        `${origin}/api/backtest/run`,
        { code: GOOD_STRATEGY, symbol: 'BTCUSDT', period: 'day', limit: o.bars },
        cookie,
      );
      const answerBody = (await res.json()) as { success: boolean; reason: string | null };
      if (!answerBody.success) throw new Error(`baseline backtest failed: ${answerBody.reason}`);
      if (i > 0) single.push(performance.now() - sent);
    }

    // throughput: fixed good answers, all tasks created at once
    await script(
      Array.from({ length: o.tasks }, (_, i) => ({ ...answer(GOOD_STRATEGY), match: `B-${i}:` })),
    );
    const started = performance.now();
    const ids: number[] = [];
    for (let i = 0; i < o.tasks; i++) ids.push(await create(`B-${i}: moving averages`));
    const tasks = await finish(ids);
    const wallMs = performance.now() - started;
    const timing = (t: AiTask, key: string) =>
      Number((t.backtest_result as { timing?: Record<string, number> } | null)?.timing?.[key] ?? 0);
    const completed = tasks.filter((t) => t.status === 'COMPLETED');

    // broken first, fixed second
    const brokenScripts = [];
    for (let i = 0; i < o.brokenFirst; i++) {
      brokenScripts.push(
        { ...answer(BROKEN_STRATEGY), match: `F-${i}:` },
        { ...answer(GOOD_STRATEGY), match: `F-${i}:` },
      );
    }
    await script(brokenScripts);
    const fixIds: number[] = [];
    for (let i = 0; i < o.brokenFirst; i++) fixIds.push(await create(`F-${i}: moving averages`));
    const fixed = await finish(fixIds);
    let inARow = 0;
    for (const t of fixed) {
      if (t.status !== 'COMPLETED') break;
      inARow += 1;
    }

    return {
      tasks: o.tasks,
      concurrency,
      bars: o.bars,
      wallMs,
      tasksPerMinute: (completed.length / wallMs) * 60_000,
      completed: completed.length,
      taskMs: completed.reduce((sum, t) => sum + timing(t, 'total_ms'), 0),
      sandboxMs: completed.reduce((sum, t) => sum + timing(t, 'sandbox_ms'), 0),
      modelMs: completed.reduce((sum, t) => sum + timing(t, 'model_ms'), 0),
      sandboxRunsPerTask:
        completed.reduce((sum, t) => sum + timing(t, 'sandbox_runs'), 0) /
        Math.max(1, completed.length),
      singleBacktestMs: median(single),
      brokenFirst: o.brokenFirst,
      inARow,
      retriesSeen: fixed.map((t) => t.retry_count),
    };
  });
}

/** The report lines of a run, as bench/run.ts prints its tables. */
export function aiTaskReport(r: AiTaskBenchResult): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const perTask = r.taskMs / Math.max(1, r.completed);
  const baselinePerTask = r.singleBacktestMs * r.sandboxRunsPerTask;
  return [
    `AI strategy tasks through the whole loop of the real server, local test model with fixed answers (${r.tasks} tasks, worker concurrency ${r.concurrency}, BTCUSDT day, ${r.bars} bars)`,
    '| measure | value |',
    '|---|---:|',
    `| tasks completed | ${r.completed} of ${r.tasks} |`,
    `| tasks per minute | ${fmt(r.tasksPerMinute)} |`,
    `| time per task (claim to COMPLETED) ms | ${fmt(perTask, 0)} |`,
    `| sandbox share of task time | ${fmt((100 * r.sandboxMs) / Math.max(1, r.taskMs))} % |`,
    `| model share of task time | ${fmt((100 * r.modelMs) / Math.max(1, r.taskMs))} % |`,
    `| sandbox runs per task (validation, whole period, look-ahead cuts) | ${fmt(r.sandboxRunsPerTask)} |`,
    `| baseline: one POST /api/backtest/run of the same code ms | ${fmt(r.singleBacktestMs, 0)} |`,
    `| ratio task time / (runs × one backtest) | ${fmt(perTask / Math.max(1, baselinePerTask), 2)}× |`,
    `| "broken first, fixed second" model: tasks completed in a row | ${r.inARow} of ${r.brokenFirst} (retry_count ${[...new Set(r.retriesSeen)].join(', ')}) |`,
  ];
}
