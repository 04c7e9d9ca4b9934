import { csvImportRequestSchema, importSymbolParamsSchema } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { sessionOf } from '../../auth/guard.ts';
import type { ZodTypeProvider } from '../../../http/route-schemas.ts';
import type { ImportService } from './service.ts';

/** CSV files of a few hundred thousand bars fit in this. */
const IMPORT_BODY_LIMIT = 40 * 1024 * 1024;

/** The user's own instruments from CSV files (FastAPI-style `/api` answers). */
export function importRoutes(root: FastifyInstance, imports: ImportService): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/market/imports',
    {
      preHandler: app.requireSession,
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { bodyInWorker: true },
      schema: { body: csvImportRequestSchema },
    },
    async (request) => {
      const body = request.body;
      return imports.importCsv(sessionOf(request).userId, body.name, body.csv);
    },
  );

  app.get('/api/market/imports', { preHandler: app.requireSession }, async (request) => ({
    imports: await imports.list(sessionOf(request).userId),
  }));

  app.delete(
    '/api/market/imports/:symbol',
    { preHandler: app.requireSession, schema: { params: importSymbolParamsSchema } },
    async (request) => {
      const { symbol } = request.params;
      await imports.remove(sessionOf(request).userId, symbol);
      return { deleted: symbol };
    },
  );
}
