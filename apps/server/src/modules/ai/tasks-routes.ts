import type { FastifyInstance } from 'fastify';
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

  app.post('/api/ai/strategy', guard, async (request) =>
    tasks.create(sessionOf(request).userId, request.body),
  );
  app.get('/api/ai/strategies', guard, async (request) =>
    tasks.list(sessionOf(request).userId, request.query),
  );
  app.get<WithId>('/api/ai/strategy/:id', guard, async (request) =>
    tasks.get(sessionOf(request).userId, taskId(request.params.id)),
  );
  app.delete<WithId>('/api/ai/strategy/:id', guard, async (request) =>
    tasks.remove(sessionOf(request).userId, taskId(request.params.id)),
  );
  app.get<WithId>('/api/ai/strategy/:id/conversations', guard, async (request) =>
    tasks.conversations(sessionOf(request).userId, taskId(request.params.id), request.query),
  );
  app.post('/api/ai/strategies/from-ai', guard, async (request) =>
    tasks.saveAsStrategy(sessionOf(request).userId, request.body),
  );
}
