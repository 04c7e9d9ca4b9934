import type { Bar } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import type { LiveRunRow } from '../../db/schema.ts';
import { judgeEvaluation, orderLine, type Followed } from './evaluation.ts';

const row = { consecutiveFailures: 1, maxFailures: 3 } as LiveRunRow;
const bar: Bar = { time: 1_700_000_040_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 };
const closed = { bars: [bar], closeMs: 1_700_000_100_000 };
const ok: Followed = { error: null, wanted: [], orders: [], fillsAt: [] };

describe('judging an evaluation', () => {
  it('resets the failures in a row after a good one and stamps it in seconds', () => {
    const judged = judgeEvaluation(row, closed, bar, ['hello'], ok, closed.closeMs + 250);
    expect(judged).toMatchObject({ failed: false, failures: 0, failWith: null });
    expect(judged.view).toMatchObject({
      at: 1_700_000_100,
      bar_time: 1_700_000_040,
      bars: 1,
      printed: ['hello'],
      duration_ms: 250,
    });
  });

  it('counts a failure and stops the run at the bound', () => {
    const failed = { ...ok, error: 'boom' };
    expect(judgeEvaluation(row, closed, bar, [], failed, closed.closeMs)).toMatchObject({
      failed: true,
      failures: 2,
      failWith: null,
    });
    const last = { ...row, consecutiveFailures: 2 } as LiveRunRow;
    expect(judgeEvaluation(last, closed, bar, [], failed, closed.closeMs).failWith).toBe(
      'Stopped after 3 consecutive failures: boom',
    );
  });

  it('words the orders it sent for the log', () => {
    const order = { action: 'open', cmd: 1, volume: 0.1, status: 'filled', price: 101.5 };
    expect(orderLine('[live]', order as Parameters<typeof orderLine>[1])).toBe(
      '[live] Open buy 0.1: filled at 101.5',
    );
  });
});
