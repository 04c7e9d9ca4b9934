import { describe, expect, it } from 'vitest';
import {
  autoStrategyName,
  canCreateStrategy,
  DEFAULT_TASK_PAGE_SIZE,
  finishedSince,
  pollWhileActive,
  statusColor,
  statusLabel,
  TASK_POLL_MS,
} from './logic';
import { buildTask } from './testSupport';

describe('AI task status', () => {
  it('shows PENDING as Waiting and the other states by their names (spec section 4)', () => {
    expect(statusLabel('PENDING')).toBe('Waiting');
    expect(statusLabel('PROCESSING')).toBe('PROCESSING');
    expect(statusLabel('COMPLETED')).toBe('COMPLETED');
    expect(statusLabel('FAILED')).toBe('FAILED');
  });

  it('maps unknown texts by substring, and shows a text it cannot map as it came', () => {
    expect(statusLabel('finished')).toBe('COMPLETED');
    expect(statusLabel('COMPLETE_OK')).toBe('COMPLETED');
    expect(statusLabel('Error')).toBe('FAILED');
    expect(statusLabel('TASK_FAILURE')).toBe('FAILED');
    expect(statusLabel('running')).toBe('PROCESSING');
    expect(statusLabel('IN_PROCESS')).toBe('PROCESSING');
    expect(statusLabel('waiting')).toBe('Waiting');
    expect(statusLabel('pending_queue')).toBe('Waiting');
    expect(statusLabel('ARCHIVED')).toBe('ARCHIVED');
  });

  it('gives each state its own colour (besides its label)', () => {
    const colours = (['waiting', 'processing', 'completed', 'failed', 'unknown'] as const).map(
      statusColor,
    );
    expect(new Set(colours).size).toBe(5);
  });
});

describe('polling', () => {
  it('every 10 s while any task is waiting or processing, otherwise not at all', () => {
    expect(TASK_POLL_MS).toBe(10_000);
    expect(DEFAULT_TASK_PAGE_SIZE).toBe(10);
    expect(pollWhileActive(undefined)).toBe(false);
    expect(pollWhileActive([])).toBe(false);
    expect(pollWhileActive([{ status: 'COMPLETED' }, { status: 'FAILED' }])).toBe(false);
    expect(pollWhileActive([{ status: 'COMPLETED' }, { status: 'PENDING' }])).toBe(10_000);
    expect(pollWhileActive([{ status: 'PROCESSING' }])).toBe(10_000);
    expect(pollWhileActive([{ status: 'running' }])).toBe(10_000);
  });
});

describe('finished tasks', () => {
  it('announces a task that was waiting or processing and is now finished, once', () => {
    const before = new Map([
      [1, 'PENDING'],
      [2, 'PROCESSING'],
      [3, 'COMPLETED'],
      [4, 'PROCESSING'],
    ]);
    const now = [
      { id: 1, status: 'COMPLETED' },
      { id: 2, status: 'FAILED' },
      { id: 3, status: 'COMPLETED' },
      { id: 4, status: 'PROCESSING' },
      { id: 5, status: 'COMPLETED' },
    ];
    expect(finishedSince(before, now)).toEqual([
      { id: 1, view: 'completed' },
      { id: 2, view: 'failed' },
    ]);
  });
});

describe('strategies from tasks', () => {
  it("'Create as Strategy' only for a completed task that has code", () => {
    expect(canCreateStrategy(buildTask())).toBe(true);
    expect(canCreateStrategy(buildTask({ status: 'FAILED' }))).toBe(false);
    expect(canCreateStrategy(buildTask({ status: 'PROCESSING' }))).toBe(false);
    expect(canCreateStrategy(buildTask({ code: null, full_code: null }))).toBe(false);
    expect(canCreateStrategy(buildTask({ code: '  \n', full_code: '  \n' }))).toBe(false);
  });

  it('names an automatic strategy AI_Strategy_ + local date-time, separators as underscores', () => {
    expect(autoStrategyName(new Date(2024, 0, 2, 3, 4, 5))).toBe('AI_Strategy_2024_01_02_03_04_05');
  });
});
