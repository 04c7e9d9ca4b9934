import {
  aiProvidersResponseSchema,
  apiSettingsSchema,
  chatRequestSchema,
  formatChatEvent,
  saveApiSettingsRequestSchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../../http/no-store.ts';
import { validatedByService } from '../../http/route-schemas.ts';
import { sessionOf } from '../auth/guard.ts';
import type { ChatService } from './chat-service.ts';
import type { ProviderCatalogue } from './providers.ts';
import type { SettingsService } from './settings-service.ts';

/** Chat bodies may be larger than the default limit; the size rules answer 413 below it. */
export const CHAT_BODY_LIMIT = 2 * 1024 * 1024;
/** A comment line this often keeps proxies from closing a stream that waits for a model. */
const KEEP_ALIVE_MS = 15_000;

/** Providers, the user's API settings and the streaming chat; session required. */
export function aiRoutes(
  app: FastifyInstance,
  deps: { providers: ProviderCatalogue; settings: SettingsService; chat: ChatService },
): void {
  const guard = { preHandler: app.requireSession };
  // The services parse their input (422 in this module's shape): the schemas here are the
  // same ones, for the API document (http/route-schemas.ts).
  const documented = (schema: object) => ({ ...guard, ...validatedByService, schema });

  const providers = { response: { 200: aiProvidersResponseSchema } };
  app.get('/api/ai/providers', { ...guard, schema: providers }, async () => ({
    providers: await deps.providers.list(),
  }));

  const settings = { response: { 200: apiSettingsSchema } };
  app.get('/api/settings', { ...guard, onRequest: noStore, schema: settings }, async (request) =>
    deps.settings.get(sessionOf(request).userId),
  );
  const saveSettings = { body: saveApiSettingsRequestSchema, response: { 200: apiSettingsSchema } };
  app.post('/api/settings', { ...documented(saveSettings), onRequest: noStore }, async (request) =>
    deps.settings.save(sessionOf(request).userId, request.body),
  );

  const chat = { ...documented({ body: chatRequestSchema }), bodyLimit: CHAT_BODY_LIMIT };
  app.post('/api/ai/chat', chat, async (request, reply) => {
    // refusals before the stream starts are ordinary JSON answers (401, 413, 422, 429)
    const chat = await deps.chat.prepare(sessionOf(request).userId, request.body);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    const browserGone = new AbortController();
    const onClose = () => browserGone.abort();
    res.on('close', onClose);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    try {
      await deps.chat.stream(
        chat,
        (event) => {
          if (!res.destroyed) res.write(formatChatEvent(event));
        },
        browserGone.signal,
      );
    } finally {
      clearInterval(keepAlive);
      res.off('close', onClose);
      res.end();
    }
  });
}
