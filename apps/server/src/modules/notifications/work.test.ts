import { notificationListSchema } from '@ct/domain';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiTasks, optimizations, optimizationTrials } from '../../db/schema.ts';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { notifyAiTaskEnded, notifyLiveRunFailed, notifyOptimizationEnded } from './work.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function user() {
  const built = await buildUser(t.db);
  const { cookie } = await loginAs(t.app, built);
  const list = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      cookies: { ct_sid: cookie },
    });
    return notificationListSchema.parse(res.json());
  };
  return { id: built.user.id, list };
}

const ctx = () => t.app.services.notifications.context;

async function task(userId: number, status: string, errorMessage: string | null = null) {
  const [row] = await t.db
    .insert(aiTasks)
    .values({
      userId,
      status,
      taskType: 'strategy',
      prompt: 'A moving average cross',
      provider: 'openai',
      model: 'gpt-4o',
      baseUrl: 'https://api.openai.com/v1',
      symbolId: 'BTCUSDT',
      period: '1d',
      errorMessage,
      maxRetries: 3,
      createdAt: 1,
      updatedAt: 1,
    })
    .returning();
  return row!.id;
}

describe('notifications of long work', () => {
  it('an AI task that completed or failed is told once; a running one tells nothing', async () => {
    const u = await user();
    const done = await task(u.id, 'COMPLETED');
    const failed = await task(u.id, 'FAILED', 'Gave up after 4 attempts');
    const running = await task(u.id, 'PROCESSING');
    await notifyAiTaskEnded(ctx(), done);
    await notifyAiTaskEnded(ctx(), done);
    await notifyAiTaskEnded(ctx(), failed);
    await notifyAiTaskEnded(ctx(), running);
    const { items } = await u.list();
    expect(items.map((n) => [n.kind, n.ref])).toEqual([
      ['ai_task_failed', `ai_task:${failed}`],
      ['ai_task_completed', `ai_task:${done}`],
    ]);
    expect(items[0]?.params).toMatchObject({
      symbol: 'BTCUSDT',
      error: 'Gave up after 4 attempts',
    });
  });

  it('an optimisation is told when completed, as failed when no trial ran', async () => {
    const u = await user();
    const make = async (status: string, trial: 'done' | 'failed') => {
      const id = randomUUID();
      await t.db.insert(optimizations).values({
        id,
        userId: u.id,
        strategyName: 'Default',
        code: '#',
        symbol: 'BTCUSDT',
        period: '1d',
        bars: [],
        objective: 'net_profit',
        method: 'grid',
        request: { strategy_name: 'Default', symbol_id: 'BTCUSDT', period: '1d' },
        status,
        trialsTotal: 1,
        trialsDone: 1,
        createdMs: 1,
      });
      await t.db.insert(optimizationTrials).values({
        optimizationId: id,
        stage: 'main',
        index: 0,
        params: {},
        status: trial,
      });
      return id;
    };
    const ok = await make('COMPLETED', 'done');
    const bad = await make('COMPLETED', 'failed');
    const going = await make('PROCESSING', 'done');
    for (const id of [ok, bad, going, ok]) await notifyOptimizationEnded(ctx(), id);
    const { items } = await u.list();
    expect(items.map((n) => [n.kind, n.ref])).toEqual([
      ['optimization_failed', `optimization:${bad}`],
      ['optimization_completed', `optimization:${ok}`],
    ]);
  });

  it("a live run's failed evaluation is told once per bar, and its stop once", async () => {
    const u = await user();
    const run = { id: randomUUID(), userId: u.id, strategyName: 'Mine', symbol: 'BTCUSDT' };
    await notifyLiveRunFailed(ctx(), run, 1000, null, null);
    await notifyLiveRunFailed(ctx(), run, 1000, 'Traceback: boom', null);
    await notifyLiveRunFailed(ctx(), run, 1000, 'Traceback: boom', null);
    await notifyLiveRunFailed(ctx(), run, 2000, 'Traceback: boom', 'Stopped after 2 failures');
    const { items } = await u.list();
    expect(items.map((n) => n.kind)).toEqual(['live_run_stopped', 'live_run_error']);
    expect(items[0]?.params).toMatchObject({ error: 'Stopped after 2 failures', strategy: 'Mine' });
  });
});
