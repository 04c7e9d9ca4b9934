import { machine } from '../trading/lifecycle.ts';
import type { AiTaskStatus } from './tasks.ts';

/**
 * An AI strategy task's lifecycle (spec section 4). It is created PENDING; a worker starts it
 * (PROCESSING; a task whose worker stopped is started again); it ends COMPLETED or FAILED,
 * or goes back to PENDING when its worker stops in an orderly way. A task that ended stays.
 */
export type AiTaskEvent = 'Started' | 'Released' | 'Completed' | 'Failed';

/** The status a new task is stored with. */
export const AI_TASK_CREATED: AiTaskStatus = 'PENDING';

export const aiTaskTransition = machine<AiTaskStatus, AiTaskEvent>('AI task', {
  PENDING: { Started: 'PROCESSING', Failed: 'FAILED' },
  PROCESSING: {
    Started: 'PROCESSING',
    Released: 'PENDING',
    Completed: 'COMPLETED',
    Failed: 'FAILED',
  },
  COMPLETED: {},
  FAILED: {},
});
