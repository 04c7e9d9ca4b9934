import { rawQuery } from '../../db/raw.ts';
import { recordNotification, type NotificationContext } from './service.ts';

/*
 * Notifications of the user's long work (AI tasks, optimisations, live runs), recorded from
 * the state their modules have committed: each hook reads the row it names and records one
 * notification keyed by what it tells (`ai_task:{id}`…), so a hook that runs twice (two
 * workers, a retry) keeps one. A hook never throws: a failure is logged and the work goes on.
 */

const clip = (text: string | null | undefined, max = 300): string | null =>
  text === null || text === undefined ? null : text.length > max ? `${text.slice(0, max)}…` : text;

async function quietly(ctx: NotificationContext, what: string, work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    ctx.log?.warn({ err: error }, `notification of ${what} not recorded`);
  }
}

/** An AI task that ended: completed or failed (a cancelled or still running one tells nothing). */
export function notifyAiTaskEnded(ctx: NotificationContext, taskId: number): Promise<void> {
  return quietly(ctx, `AI task ${taskId}`, async () => {
    const [task] = await rawQuery(
      ctx.db,
      'select user_id, status, prompt, symbol_id, period, error_message from ai_tasks where id = $1',
      [taskId],
    );
    if (!task || (task.status !== 'COMPLETED' && task.status !== 'FAILED')) return;
    const completed = task.status === 'COMPLETED';
    await recordNotification(ctx, Number(task.user_id), {
      kind: completed ? 'ai_task_completed' : 'ai_task_failed',
      ref: `ai_task:${taskId}`,
      params: {
        task_id: taskId,
        prompt: clip(String(task.prompt), 80),
        symbol: String(task.symbol_id),
        period: String(task.period),
        ...(completed ? {} : { error: clip(task.error_message as string | null) }),
      },
    });
  });
}

/**
 * An optimisation that ended: completed, or failed when none of its trials ran without an
 * error. Asked after each kept trial; tells only once it is COMPLETED.
 */
export function notifyOptimizationEnded(ctx: NotificationContext, id: string): Promise<void> {
  return quietly(ctx, `optimisation ${id}`, async () => {
    const [row] = await rawQuery(
      ctx.db,
      `select o.user_id, o.status, o.request, o.trials_total,
         (select count(*)::int from optimization_trials t
           where t.optimization_id = o.id and t.status = 'done') as ok
         from optimizations o where o.id = $1`,
      [id],
    );
    if (!row || row.status !== 'COMPLETED') return;
    const request = (row.request ?? {}) as Record<string, unknown>;
    const ok = Number(row.ok);
    await recordNotification(ctx, Number(row.user_id), {
      kind: ok > 0 ? 'optimization_completed' : 'optimization_failed',
      ref: `optimization:${id}`,
      params: {
        optimization_id: id,
        strategy: clip(String(request.strategy_name ?? ''), 100),
        symbol: String(request.symbol_id ?? ''),
        period: String(request.period ?? ''),
        trials: Number(row.trials_total),
        ok,
      },
    });
  });
}

/**
 * A live run's evaluation that failed (its error), or that stopped the run after too many
 * failures in a row. One per run and bar, and one stop per run.
 */
export function notifyLiveRunFailed(
  ctx: NotificationContext,
  run: { id: string; userId: number; strategyName: string; symbol: string },
  barTimeMs: number,
  error: string | null,
  stoppedWith: string | null,
): Promise<void> {
  if (error === null && stoppedWith === null) return Promise.resolve();
  return quietly(ctx, `live run ${run.id}`, async () => {
    const stopped = stoppedWith !== null;
    await recordNotification(ctx, run.userId, {
      kind: stopped ? 'live_run_stopped' : 'live_run_error',
      ref: stopped ? `live_run:${run.id}:stopped` : `live_run:${run.id}:${barTimeMs}`,
      params: {
        run_id: run.id,
        strategy: clip(run.strategyName, 100),
        symbol: run.symbol,
        error: clip(stoppedWith ?? error),
      },
    });
  });
}

/** A fired alert (its log entry is committed): once per entry. */
export function notifyAlertFired(
  ctx: NotificationContext,
  userId: number,
  entry: { id: number; alert_id: number; symbol_id: string; price: number; message: string },
): Promise<void> {
  return quietly(ctx, `alert ${entry.alert_id}`, () =>
    recordNotification(ctx, userId, {
      kind: 'alert_fired',
      ref: `alert_log:${entry.id}`,
      params: {
        alert: String(entry.alert_id),
        symbol: entry.symbol_id,
        price: String(entry.price),
        message: clip(entry.message),
      },
    }),
  );
}
