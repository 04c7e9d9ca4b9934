import {
  aiConversationSchema,
  aiTaskListSchema,
  aiTaskSchema,
  createAiTaskAnswerSchema,
  deleteAiTaskAnswerSchema,
  savedStrategySchema,
  type AiConversation,
  type AiTask,
  type AiTaskList,
  type CreateAiTaskAnswer,
  type createAiTaskRequestSchema,
  type DeleteAiTaskAnswer,
  type SavedStrategyAnswer,
} from '@ct/domain';
import type { z } from 'zod';
import { http } from '../../api/client';

/*
 * The AI strategy task calls (docs/api.md, "AI strategy tasks"); every answer is parsed with
 * the domain's schema before it reaches the cache.
 */

export type { AiConversation, AiConversationMessage, AiTask, AiTaskList } from '@ct/domain';

/** Body of POST /api/ai/strategy as the client sends it. */
export type CreateTaskRequest = z.input<typeof createAiTaskRequestSchema>;

/** A page of the task list: `skip` tasks left out, then at most `limit`. */
export type TaskPage = { skip: number; limit: number };

/** The user's tasks, newest first, without their whole code (`code_preview` stays). */
export function fetchTaskPage(page: TaskPage): Promise<AiTaskList> {
  return http.get('/api/ai/strategies', {
    params: { skip: page.skip, limit: page.limit, preview_code: true },
    noCache: true,
    schema: aiTaskListSchema,
  });
}

/** One task with its whole code. */
export function fetchTask(id: number): Promise<AiTask> {
  return http.get(`/api/ai/strategy/${id}`, { noCache: true, schema: aiTaskSchema });
}

export function createTask(body: CreateTaskRequest): Promise<CreateAiTaskAnswer> {
  return http.post('/api/ai/strategy', body, { schema: createAiTaskAnswerSchema });
}

/** Deletes a task and its conversation (a waiting or running one is cancelled). */
export function deleteTask(id: number): Promise<DeleteAiTaskAnswer> {
  return http.delete(`/api/ai/strategy/${id}`, { schema: deleteAiTaskAnswerSchema });
}

/** The task's conversation; only attempt `retry` when it is a number. */
export function fetchConversation(id: number, retry: number | null): Promise<AiConversation> {
  return http.get(`/api/ai/strategy/${id}/conversations`, {
    params: { retry_number: retry },
    noCache: true,
    schema: aiConversationSchema,
  });
}

/** Saves a completed task's code as a strategy of the user named `name`. */
export function createStrategyFromTask(name: string, taskId: number): Promise<SavedStrategyAnswer> {
  return http.post(
    '/api/ai/strategies/from-ai',
    { name, task_id: taskId },
    { schema: savedStrategySchema },
  );
}
