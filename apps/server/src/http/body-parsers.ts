import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as domain from '@ct/domain';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Large JSON bodies of this route are parsed and validated in a body worker. */
    bodyInWorker?: boolean;
  }
}

/** Bodies from this size on (bytes) go to a worker; smaller ones cost less than the trip. */
export const BODY_WORKER_MIN_BYTES = 256 * 1024;

/** A body parsed and checked off the event loop, as a body worker answers it. */
export type OffloadedBody =
  | { outcome: 'valid' | 'invalid'; value: unknown }
  /** Not plain JSON (a syntax error, a prototype key): the main thread's parser decides. */
  | { outcome: 'main-thread' };

/** What parses large bodies off the event loop (workers/body-workers.ts, started by the app). */
export type BodyOffload = {
  /** Parses JSON `bytes` and validates them with the domain schema named `schema`. */
  body(bytes: Uint8Array, schema: string): Promise<OffloadedBody>;
};

/** Bodies a worker validated: the route's validator takes them as they are. */
export const validatedBodies = new WeakSet<object>();

/** The name under which `@ct/domain` exports `schema`, or null. */
export function domainSchemaName(schema: unknown): string | null {
  if (schema === undefined || schema === null) return null;
  for (const [name, value] of Object.entries(domain)) if (value === schema) return name;
  return null;
}

/**
 * Bodies are JSON only: any other content type answers 400 (Fastify's text/plain parser is
 * removed). JSON goes through Fastify's own parser (with its prototype-poisoning checks),
 * except that an empty body means "no body" rather than an error: clients that always send
 * `content-type: application/json` may POST logout without one. Routes that need a body
 * then fail validation with a 400 naming it.
 *
 * With `workers`, a body of BODY_WORKER_MIN_BYTES or more on a route marked
 * `config: { bodyInWorker: true }` is parsed and validated with the route's domain schema in a
 * worker thread (workers/body-workers.ts); the validator then takes the worker's value as it is.
 * What is not plain JSON, or fails the schema, comes back to the same parsing and refusals
 * as any body, so answers are unchanged.
 */
export function installBodyParsers(app: FastifyInstance, workers?: BodyOffload): void {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  const schemaNames = new Map<unknown, string | null>();
  function offloadedSchema(request: FastifyRequest): string | null {
    if (!workers || request.routeOptions.config.bodyInWorker !== true) return null;
    const schema = request.routeOptions.schema?.body;
    if (!schemaNames.has(schema)) schemaNames.set(schema, domainSchemaName(schema));
    return schemaNames.get(schema) ?? null;
  }
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    const onMainThread = () => {
      const text = bytes.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, done);
    };
    const schema = bytes.length >= BODY_WORKER_MIN_BYTES ? offloadedSchema(request) : null;
    if (!workers || schema === null) {
      onMainThread();
      return;
    }
    workers.body(bytes, schema).then(
      (answer) => {
        if (answer.outcome === 'main-thread') {
          onMainThread();
          return;
        }
        if (answer.outcome === 'valid' && typeof answer.value === 'object' && answer.value) {
          validatedBodies.add(answer.value);
        }
        done(null, answer.value);
      },
      (error: Error) => done(error, undefined),
    );
  });
}
