import { csvImportRequestSchema, importSymbolParamsSchema } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { sessionOf } from '../../auth/guard.ts';
import { parseInput } from '../../../http/validate.ts';
import type { ImportService } from './service.ts';

/** CSV files of a few hundred thousand bars fit in this. */
const IMPORT_BODY_LIMIT = 40 * 1024 * 1024;

/** The user's own instruments from CSV files (FastAPI-style `/api` answers). */
export function importRoutes(app: FastifyInstance, imports: ImportService): void {
  app.post(
    '/api/market/imports',
    { preHandler: app.requireSession, bodyLimit: IMPORT_BODY_LIMIT },
    async (request) => {
      const body = parseInput(csvImportRequestSchema, request.body);
      return imports.importCsv(sessionOf(request).userId, body.name, body.csv);
    },
  );

  app.get('/api/market/imports', { preHandler: app.requireSession }, async (request) => ({
    imports: await imports.list(sessionOf(request).userId),
  }));

  app.delete<{ Params: { symbol: string } }>(
    '/api/market/imports/:symbol',
    { preHandler: app.requireSession },
    async (request) => {
      const { symbol } = parseInput(importSymbolParamsSchema, request.params);
      await imports.remove(sessionOf(request).userId, symbol);
      return { deleted: symbol };
    },
  );
}
