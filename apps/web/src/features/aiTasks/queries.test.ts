import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../shared/queryClient';
import { watchedTaskPage } from './queries';
import { buildTask, json, pendingTask, stubServer } from './testSupport';

const PAGE = { skip: 0, limit: 10 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the fetch promises and the observer's reactions settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0);
}

describe('the task list polls', () => {
  it('every 10 s while a task is waiting or processing, and stops once none is', async () => {
    const answers = [
      { tasks: [pendingTask()], total: 1 },
      { tasks: [pendingTask({ status: 'PROCESSING' })], total: 1 },
      { tasks: [buildTask({ code: null, full_code: null })], total: 1 },
    ];
    let served = 0;
    const server = stubServer({
      'GET /api/ai/strategies': () => json(answers[Math.min(served++, answers.length - 1)]),
    });
    const observer = new QueryObserver(queryClient, watchedTaskPage(PAGE));
    const statuses: string[] = [];
    const stop = observer.subscribe((result) => {
      const status = result.data?.tasks[0]?.status;
      if (status && statuses.at(-1) !== status) statuses.push(status);
    });
    await settle();
    expect(server.called('GET /api/ai/strategies')).toHaveLength(1);
    // the list asks for a light page
    expect(server.calls[0]?.url.searchParams.get('preview_code')).toBe('true');
    expect(server.calls[0]?.url.searchParams.get('limit')).toBe('10');

    await vi.advanceTimersByTimeAsync(9_999);
    expect(server.called('GET /api/ai/strategies')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(server.called('GET /api/ai/strategies')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(10_000);
    await settle();
    expect(server.called('GET /api/ai/strategies')).toHaveLength(3);

    // nothing can change any more: no request in the next minute
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(statuses).toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);
    expect(server.called('GET /api/ai/strategies')).toHaveLength(3);
    stop();
  });

  it('never while every task is finished', async () => {
    const server = stubServer({
      'GET /api/ai/strategies': () =>
        json({ tasks: [buildTask(), buildTask({ id: 8, status: 'FAILED' })], total: 2 }),
    });
    const stop = new QueryObserver(queryClient, watchedTaskPage(PAGE)).subscribe(() => {});
    await settle();
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(server.called('GET /api/ai/strategies')).toHaveLength(1);
    stop();
  });
});
