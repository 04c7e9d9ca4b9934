import {
  aiStrategyAutoName,
  aiTaskStatusView,
  isAiTaskActive,
  type AiTask,
  type AiTaskStatusView,
} from '@ct/domain';
import dayjs from 'dayjs';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';

const m = messages.aiTasks;

/** Spec section 9: the task list polls this often while a task may still change. */
export const TASK_POLL_MS = 10_000;
/** Spec section 9: the task list's default page size. */
export const DEFAULT_TASK_PAGE_SIZE = 10;
export const TASK_PAGE_SIZES = [10, 20, 50, 100];

/** What the list shows for a status: PENDING is 'Waiting'; unknown texts by substring, else as is. */
export function statusLabel(status: string): string {
  const view = aiTaskStatusView(status);
  return view === 'unknown' ? status : m.statusLabels[view];
}

/** The tag colour of a status (the label carries the meaning too, never colour alone). */
export function statusColor(view: AiTaskStatusView): string {
  switch (view) {
    case 'completed':
      return 'success';
    case 'failed':
      return 'error';
    case 'processing':
      return 'processing';
    case 'waiting':
      return 'warning';
    default:
      return 'default';
  }
}

/**
 * The refetch interval of a query holding `tasks`: every 10 s while any of them is waiting or
 * processing, otherwise none (spec section 4: polling stops when nothing can change).
 */
export function pollWhileActive(
  tasks: readonly Pick<AiTask, 'status'>[] | undefined,
): number | false {
  return tasks?.some((t) => isAiTaskActive(t.status)) ? TASK_POLL_MS : false;
}

/** Epoch seconds as local 'YYYY-MM-DD HH:mm:ss'; '-' for none. */
export function taskTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-';
  return dayjs(seconds * 1000).format('YYYY-MM-DD HH:mm:ss');
}

/** Spec section 8: AI_Strategy_ + the local date-time with slashes, spaces and colons as underscores. */
export function autoStrategyName(now: Date): string {
  return aiStrategyAutoName(dayjs(now).format('YYYY/MM/DD HH:mm:ss'));
}

/** Spec section 4: 'Create as Strategy' only for a completed task that has code. */
export function canCreateStrategy(task: Pick<AiTask, 'status' | 'code' | 'full_code'>): boolean {
  const code = task.full_code ?? task.code;
  return aiTaskStatusView(task.status) === 'completed' && !!code && code.trim() !== '';
}

/** The task's whole code, else its preview (a list answer), else null. */
export function taskCode(task: Pick<AiTask, 'code' | 'full_code' | 'code_preview'>): string | null {
  return task.full_code ?? task.code ?? task.code_preview ?? null;
}

/**
 * Tasks of `next` that were waiting or processing in `previous` and are now finished: what the
 * editor announces. A task `previous` did not hold is not announced (it was not watched).
 */
export function finishedSince(
  previous: ReadonlyMap<number, string>,
  next: readonly Pick<AiTask, 'id' | 'status'>[],
): { id: number; view: 'completed' | 'failed' }[] {
  const finished: { id: number; view: 'completed' | 'failed' }[] = [];
  for (const task of next) {
    const before = previous.get(task.id);
    if (before === undefined || !isAiTaskActive(before)) continue;
    const view = aiTaskStatusView(task.status);
    if (view === 'completed' || view === 'failed') finished.push({ id: task.id, view });
  }
  return finished;
}
