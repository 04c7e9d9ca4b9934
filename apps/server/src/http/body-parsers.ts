import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  BODY_WORKER_MIN_BYTES,
  domainSchemaName,
  validatedBodies,
  type BodyWorkers,
} from './body-workers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Large JSON bodies of this route are parsed and validated in a body worker. */
    bodyInWorker?: boolean;
  }
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
 * worker thread (body-workers.ts); the validator then takes the worker's value as it is.
 * What is not plain JSON, or fails the schema, comes back to the same parsing and refusals
 * as any body, so answers are unchanged.
 */
export function installBodyParsers(app: FastifyInstance, workers?: BodyWorkers): void {
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
