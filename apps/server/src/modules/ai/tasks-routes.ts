import {
  aiConversationQuerySchema,
  aiConversationSchema,
  aiTaskListQuerySchema,
  aiTaskListSchema,
  aiTaskSchema,
  createAiTaskAnswerSchema,
  createAiTaskRequestSchema,
  createStrategyFromAiRequestSchema,
  deleteAiTaskAnswerSchema,
  savedStrategySchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { validatedByService } from '../../http/route-schemas.ts';
import { NotFoundError } from '../../http/errors.ts';
import { sessionOf } from '../auth/guard.ts';
import type { TaskService } from './tasks-service.ts';

/** A task id of the path: a positive integer, else the task is "not found" (never a 400). */
function taskId(text: string): number {
  const id = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new NotFoundError(`Task not found: ${text}`);
  }
  return id;
}

/** AI strategy tasks (spec section 7); session required, the user's own tasks only. */
export function aiTaskRoutes(app: FastifyInstance, tasks: TaskService): void {
  const guard = { preHandler: app.requireSession };
  type WithId = { Params: { id: string } };
  // The service parses its input (422 in this module's shape, after the task id's 404): the
  // schemas here are the same ones, for the API document (http/route-schemas.ts).
  const documented = (schema: object) => ({ ...guard, ...validatedByService, schema });

  const create = { body: createAiTaskRequestSchema, response: { 200: createAiTaskAnswerSchema } };
  app.post('/api/ai/strategy', documented(create), async (request) =>
    tasks.create(sessionOf(request).userId, request.body),
  );
  const list = { querystring: aiTaskListQuerySchema, response: { 200: aiTaskListSchema } };
  app.get('/api/ai/strategies', documented(list), async (request) =>
    tasks.list(sessionOf(request).userId, request.query),
  );
  const one = { response: { 200: aiTaskSchema } };
  app.get<WithId>('/api/ai/strategy/:id', { ...guard, schema: one }, async (request) =>
    tasks.get(sessionOf(request).userId, taskId(request.params.id)),
  );
  const remove = { response: { 200: deleteAiTaskAnswerSchema } };
  app.delete<WithId>('/api/ai/strategy/:id', { ...guard, schema: remove }, async (request) =>
    tasks.remove(sessionOf(request).userId, taskId(request.params.id)),
  );
  const talk = { querystring: aiConversationQuerySchema, response: { 200: aiConversationSchema } };
  app.get<WithId>('/api/ai/strategy/:id/conversations', documented(talk), async (request) =>
    tasks.conversations(sessionOf(request).userId, taskId(request.params.id), request.query),
  );
  const save = { body: createStrategyFromAiRequestSchema, response: { 200: savedStrategySchema } };
  app.post('/api/ai/strategies/from-ai', documented(save), async (request) =>
    tasks.saveAsStrategy(sessionOf(request).userId, request.body),
  );
}
