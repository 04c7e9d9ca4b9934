import { machine } from '../trading/lifecycle.ts';
import type { OptimizationStatus } from './api.ts';

/**
 * An optimisation's lifecycle: created PENDING, PROCESSING once its first trial starts,
 * COMPLETED when every trial has ended (FAILED when it cannot go on), CANCELLED by the user
 * while it waits or runs. An ended optimisation stays.
 */
export type OptimizationEvent = 'Started' | 'Completed' | 'Failed' | 'Cancelled';

/** The status a new optimisation is stored with. */
export const OPTIMIZATION_CREATED: OptimizationStatus = 'PENDING';

/** The statuses of an optimisation that still waits or runs (it may start, end or be cancelled). */
export const OPTIMIZATION_OPEN = [
  'PENDING',
  'PROCESSING',
] as const satisfies readonly OptimizationStatus[];

export const optimizationTransition = machine<OptimizationStatus, OptimizationEvent>(
  'optimization',
  {
    PENDING: {
      Started: 'PROCESSING',
      Completed: 'COMPLETED',
      Failed: 'FAILED',
      Cancelled: 'CANCELLED',
    },
    PROCESSING: {
      Started: 'PROCESSING',
      Completed: 'COMPLETED',
      Failed: 'FAILED',
      Cancelled: 'CANCELLED',
    },
    COMPLETED: {},
    FAILED: {},
    CANCELLED: {},
  },
);

/** A trial of an optimisation: queued until it ends done or failed, or is cancelled with it. */
export type TrialStatus = 'queued' | 'done' | 'failed' | 'cancelled';
export type TrialEvent = 'Done' | 'Failed' | 'Cancelled';

/** The status a new trial is stored with. */
export const TRIAL_CREATED: TrialStatus = 'queued';

export const trialTransition = machine<TrialStatus, TrialEvent>('optimization trial', {
  queued: { Done: 'done', Failed: 'failed', Cancelled: 'cancelled' },
  done: {},
  failed: {},
  cancelled: {},
});
