import { isAiTaskActive } from '@ct/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import {
  fetchConversation,
  fetchTask,
  fetchTaskPage,
  type AiTask,
  type AiTaskList,
  type TaskPage,
} from './api';
import { pollWhileActive, TASK_POLL_MS } from './logic';

/*
 * The AI tasks' server state in the one TanStack Query cache, under keys named by what they
 * hold. A page of the list, a task and its conversation refetch every 10 s while the task(s)
 * they hold are waiting or processing, and only then (`refetchInterval` as a function of the
 * data, spec section 4). The client never changes a status itself: it asks again.
 */

const m = messages.aiTasks;

export const aiTaskKeys = {
  /** Every page of the user's task list (prefix). */
  pages: ['aiTasks'] as const,
  /** One page of the user's tasks, newest first, without their whole code, and the total. */
  page: (page: TaskPage) => ['aiTasks', page] as const,
  /** One task with its whole code and results. */
  task: (id: number) => ['aiTask', id] as const,
  /** Every attempt's view of a task's conversation (prefix). */
  conversations: (id: number) => ['aiTaskConversation', id] as const,
  /** A task's conversation: all of it (`retry` null) or one attempt's messages. */
  conversation: (id: number, retry: number | null) => ['aiTaskConversation', id, retry] as const,
};

/**
 * A page fetched: a task whose status or time moved since its own query was fetched has
 * that query (and its conversation) fetched again, so an open Details follows the list.
 */
function noticeChanges(list: AiTaskList): AiTaskList {
  for (const task of list.tasks) {
    const cached = queryClient.getQueryData<AiTask>(aiTaskKeys.task(task.id));
    if (cached && (cached.status !== task.status || cached.updated_at !== task.updated_at)) {
      void queryClient.invalidateQueries({ queryKey: aiTaskKeys.task(task.id) });
      void queryClient.invalidateQueries({ queryKey: aiTaskKeys.conversations(task.id) });
    }
  }
  return list;
}

export const taskPageQuery = (page: TaskPage) =>
  queryOptions({
    queryKey: aiTaskKeys.page(page),
    queryFn: () =>
      fetchTaskPage(page).then(noticeChanges, (error: unknown) => {
        notify.error(m.listFailed);
        throw error;
      }),
  });

export const taskQuery = (id: number) =>
  queryOptions({
    queryKey: aiTaskKeys.task(id),
    queryFn: () =>
      fetchTask(id).catch((error: unknown) => {
        notify.error(m.taskFailed);
        throw error;
      }),
  });

export const conversationQuery = (id: number, retry: number | null) =>
  queryOptions({
    queryKey: aiTaskKeys.conversation(id, retry),
    queryFn: () =>
      fetchConversation(id, retry).catch((error: unknown) => {
        notify.error(m.conversationFailed);
        throw error;
      }),
  });

// ---- Hooks ----

/**
 * A page of the task list as the modal watches it: fetched afresh when shown and every 10 s
 * while one of its tasks is waiting or processing; while another page loads, the last stands.
 */
export const watchedTaskPage = (page: TaskPage) =>
  queryOptions({
    ...taskPageQuery(page),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
    refetchInterval: (query) => pollWhileActive(query.state.data?.tasks),
  });

export function useTaskPage(page: TaskPage, enabled = true) {
  return useQuery({ ...watchedTaskPage(page), enabled });
}

/** One task with its whole code; refetched every 10 s while it is waiting or processing. */
export function useTask(id: number | null) {
  return useQuery({
    ...taskQuery(id ?? 0),
    enabled: id !== null,
    refetchOnMount: 'always',
    refetchInterval: (query) => pollWhileActive(query.state.data ? [query.state.data] : []),
  });
}

/** A task's conversation (one attempt or all); refetched every 10 s while `active`. */
export function useConversation(id: number | null, retry: number | null, active: boolean) {
  return useQuery({
    ...conversationQuery(id ?? 0, retry),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
    refetchInterval: active ? TASK_POLL_MS : false,
  });
}

// ---- Cache writes (actions) ----

/** A new task or a deleted one: every page of the list is fetched again (they shift). */
export function refetchTaskPages(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: aiTaskKeys.pages });
}

/** A deleted task leaves every page at once; the pages are then fetched again. */
export function forgetTask(id: number): void {
  for (const [key] of queryClient.getQueriesData<AiTaskList>({ queryKey: aiTaskKeys.pages })) {
    queryClient.setQueryData<AiTaskList>(key, (old) =>
      old && old.tasks.some((t) => t.id === id)
        ? { tasks: old.tasks.filter((t) => t.id !== id), total: Math.max(0, old.total - 1) }
        : old,
    );
  }
  queryClient.removeQueries({ queryKey: aiTaskKeys.task(id) });
  queryClient.removeQueries({ queryKey: aiTaskKeys.conversations(id) });
  void refetchTaskPages();
}

/** The task with its whole code: from the cache when it is finished, else fetched. */
export async function loadTask(id: number): Promise<AiTask> {
  const cached = queryClient.getQueryData<AiTask>(aiTaskKeys.task(id));
  if (cached && !isAiTaskActive(cached.status)) return cached;
  return queryClient.fetchQuery({ ...taskQuery(id), staleTime: 0 });
}
