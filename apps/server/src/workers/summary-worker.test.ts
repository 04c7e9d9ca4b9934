import { optimizationSummary, type SummaryTrial, type TrialPerformance } from '@ct/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { createBodyWorkers } from './body-workers.ts';

/*
 * An optimisation's summary computed in a body worker (off the event loop) is exactly the
 * domain's optimizationSummary of the same trials; the threads may be started before the
 * first task.
 */

const workers = createBodyWorkers(1);
afterAll(() => workers.close());

/** Deterministic returns: a trial's drift plus a wave. */
function returns(trial: number, bars: number): number[] {
  return Array.from(
    { length: bars },
    (_, i) => 0.0002 * (trial - 3) + 0.01 * Math.sin(i * (0.3 + trial * 0.07)),
  );
}

describe('optimisation summary in a body worker', () => {
  it('equals the summary computed on the event loop', async () => {
    workers.warm();
    const trials: SummaryTrial[] = Array.from({ length: 8 }, (_, index) => ({
      stage: 'main',
      index,
      params: { fast: index + 3 },
      status: index === 5 ? 'failed' : 'done',
      performance: { net_profit: index * 100 } as unknown as TrialPerformance,
      score: index === 5 ? null : index % 4,
      returns: returns(index, 240),
      detail: null,
      error: index === 5 ? 'boom' : null,
    }));
    const expected = optimizationSummary({ walkForward: null, barTimes: [], trials });
    const summary = await workers.summary({
      walkForward: null,
      barTimes: [],
      trials: trials.map((trial) => ({ ...trial, returns: Float64Array.from(trial.returns) })),
    });
    expect(summary).toEqual(expected);
    expect(summary.best?.params).toEqual({ fast: 6 });
    expect(summary.overfitting.pbo?.trials).toBe(7);
  });
});
