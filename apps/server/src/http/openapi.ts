import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { z } from 'zod';
import { isZodSchema } from './route-schemas.ts';

/** The browsable API reference (Swagger UI); the document itself is at `${API_DOCS_PATH}/json`. */
export const API_DOCS_PATH = '/api/docs';
export const OPENAPI_JSON_PATH = `${API_DOCS_PATH}/json`;

/** The session cookie set by the login (modules/auth/cookie.ts). */
const SESSION_SCHEME = 'session';

/** Tags group the operations of the page by the first segments of their path. */
const TAGS: readonly (readonly [prefix: string, tag: string])[] = [
  ['/user/', 'Account'],
  ['/trading/order', 'Trading'],
  ['/trading/account', 'Trading'],
  ['/api/live', 'Trading'],
  ['/trading/', 'Market data'],
  ['/api/market', 'Market data'],
  ['/api/test', 'Test control'],
  ['/api/strateg', 'Strategies'],
  ['/api/backtest', 'Backtest'],
  ['/ws/', 'Backtest'],
  ['/api/charts', 'Charts'],
  ['/api/ai', 'AI'],
  ['/api/settings', 'AI'],
  ['/connection/', 'Live'],
];

const WEBSOCKET_NOTE =
  'A WebSocket endpoint: send the upgrade (GET with `Upgrade: websocket`) from this site. ' +
  'A plain GET is answered 404. Its frames are described in docs/api.md.';

function tagOf(url: string): string {
  return TAGS.find(([prefix]) => url.startsWith(prefix))?.[1] ?? 'Service';
}

/**
 * A zod schema as an OpenAPI 3.0 schema object. Requests are documented as they arrive
 * (`io: 'input'`: a query's numbers are the text they are sent as, defaults optional),
 * answers as they leave. What JSON Schema cannot say (a transform, a refinement) is left
 * open rather than refused.
 */
export function openApiSchemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}

/** True when the route's preHandlers include the session guard (the page shows a lock). */
function needsSession(route: RouteOptions, guard: unknown): boolean {
  const hooks: unknown = route.preHandler;
  return Array.isArray(hooks) ? hooks.includes(guard) : hooks === guard;
}

/**
 * A route's zod schemas converted for @fastify/swagger (it reads JSON Schema), a tag from
 * its path and the session cookie as its security when the session guard protects it.
 */
function transformWith(guard: unknown): SwaggerTransform {
  return ({ schema, url, route }) => {
    const source = (schema ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = { tags: [tagOf(url)], ...source };
    if (needsSession(route, guard)) out.security = [{ [SESSION_SCHEME]: [] }];
    if (route.websocket === true || route.wsHandler !== undefined) {
      // @fastify/websocket hides its routes; ours are part of the API (their frames are in
      // docs/api.md), so the document lists the upgrade
      delete out.hide;
      out.description = WEBSOCKET_NOTE;
    }
    for (const part of ['params', 'body', 'querystring', 'headers'] as const) {
      const value = source[part];
      if (isZodSchema(value)) out[part] = openApiSchemaOf(value, 'input');
    }
    const response = source.response as Record<string, unknown> | undefined;
    if (response) {
      out.response = Object.fromEntries(
        Object.entries(response).map(([status, value]) => [
          status,
          isZodSchema(value)
            ? {
                description: status.startsWith('2') ? 'Success' : 'Refused',
                ...openApiSchemaOf(value, 'output'),
              }
            : value,
        ]),
      );
    }
    return { schema: out as FastifySchema, url };
  };
}

/**
 * The OpenAPI 3 document of every HTTP route, generated from the routes' own zod schemas
 * (http/route-schemas.ts), and Swagger UI at /api/docs. Register after the session guard
 * (installGuard) and before the routes: the document collects routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Chart Terminal API',
        version: '1.0.0',
        description:
          'The HTTP calls of the trading and charting terminal. Error shapes, error codes, the ' +
          'live protocol (/connection/websocket) and the backtest log socket (/ws/{clientId}) ' +
          'are described in docs/api.md.',
      },
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: { type: 'apiKey', in: 'cookie', name: 'ct_sid' },
        },
      },
    },
    transform: transformWith(app.requireSession),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PATH,
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: false,
  });
}
