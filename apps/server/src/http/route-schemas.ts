import type {
  FastifyInstance,
  FastifySchema,
  FastifyTypeProvider,
  onRouteHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { z } from 'zod';
import { validatedBodies } from './body-parsers.ts';
import { parseInput } from './validate.ts';

/*
 * A route declares its input once, as zod schemas from @ct/domain in Fastify's
 * `schema: { params, body, querystring }`: Fastify validates with them (the handler reads
 * the parsed `request.body`, defaults and transforms applied) and the OpenAPI document
 * (http/openapi.ts) is generated from the same objects.
 *
 * Refusals keep the answers they had when each handler called `parseInput` itself: the
 * route's own preHandlers (the session guard, a trading account's check) still run before
 * an invalid input is refused, and the refusal is `parseInput`'s 400 of the raw value,
 * byte for byte. So validation results are attached (`attachValidation`) and a last
 * preHandler turns a failure into that error.
 */

/**
 * Types `request.body`/`query`/`params` from a route's zod schemas (z.output of each).
 * Answers stay untyped by their documented schema: some are completed on the way out (the
 * trading helpers' `success`/`message`), and response schemas only document.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: unknown;
}

/** True for a zod schema (any zod 4 type). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && 'safeParse' in value;
}

/** The parts Fastify validates, in its order, with the request property each lands in. */
const PARTS = [
  ['params', 'params'],
  ['body', 'body'],
  ['querystring', 'query'],
] as const;

type Part = (typeof PARTS)[number][0];

/** Fastify's validation error carries the part that failed. */
type AttachedError = Error & { validationContext?: string };

/** A route schema in this app: zod schemas for the parts, anything else is metadata. */
function zodPart(schema: FastifySchema | undefined, part: Part): z.ZodType | null {
  const value = (schema as Record<string, unknown> | undefined)?.[part];
  return isZodSchema(value) ? value : null;
}

/**
 * The last preHandler of a route with input schemas: when validation failed, the raw
 * values are parsed again with `parseInput` from the failed part on (the earlier parts
 * passed and already hold their parsed values), which throws the exact 400 the handlers
 * used to throw. A value Fastify handed the validator as `null` (an absent body) is
 * re-read as it arrived.
 */
function refuseInvalidInput(schema: FastifySchema): preHandlerHookHandler {
  return (request, _reply, done) => {
    const error = request.validationError as AttachedError | undefined;
    if (!error) return done();
    const failed = PARTS.findIndex(([part]) => part === error.validationContext);
    const target = request as unknown as Record<string, unknown>;
    try {
      for (const [part, property] of PARTS.slice(Math.max(failed, 0))) {
        const zod = zodPart(schema, part);
        if (zod) target[property] = parseInput(zod, target[property]);
      }
    } catch (refusal) {
      return done(refusal as Error);
    }
    done();
  };
}

/** A validator that documents but never refuses (for routes whose service validates). */
const passThrough = () => (value: unknown) => ({ value });

/**
 * Route option for routes whose service parses its own input with the same domain schema
 * (charts and AI: a 422 in their module's shape, ordered after their own id checks): the
 * schema is in the document, the service stays the one place that validates. Register such
 * routes on the plain instance, so `request.body` stays `unknown` to the handler.
 */
export const validatedByService = { validatorCompiler: passThrough } as const;

/**
 * Makes zod the schema language of every route: a validator compiler running zod, a
 * serializer compiler that is plain `JSON.stringify` (response schemas are documentation
 * only: answers are serialized exactly as before, no slower) and the hook that keeps
 * refusals as they were. Call before any route is added.
 */
export function installRouteSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, method, url }) => {
    if (!isZodSchema(schema)) {
      throw new Error(`${method} ${url}: route input schemas are zod schemas from @ct/domain`);
    }
    return (value: unknown) => {
      // a large body already parsed and validated by the same schema in a body worker
      if (typeof value === 'object' && value !== null && validatedBodies.has(value)) {
        return { value };
      }
      const result = schema.safeParse(value);
      return result.success ? { value: result.data } : { error: new Error('invalid input') };
    };
  });
  app.setSerializerCompiler(() => (data: unknown) => JSON.stringify(data));

  const onRoute: onRouteHookHandler = (route) => {
    const schema = route.schema;
    if (!schema || !PARTS.some(([part]) => zodPart(schema, part) !== null)) return;
    route.attachValidation = true;
    const own = route.preHandler;
    route.preHandler = [
      ...(own === undefined ? [] : Array.isArray(own) ? own : [own]),
      refuseInvalidInput(schema),
    ];
  };
  app.addHook('onRoute', onRoute);
}
