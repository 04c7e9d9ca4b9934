import type { FastifyInstance } from 'fastify';

/**
 * Bodies are JSON only: any other content type answers 400 (Fastify's text/plain parser is
 * removed). JSON goes through Fastify's own parser (with its prototype-poisoning checks),
 * except that an empty body means "no body" rather than an error: clients that always send
 * `content-type: application/json` may POST logout without one. Routes that need a body
 * then fail validation with a 400 naming it.
 */
export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
