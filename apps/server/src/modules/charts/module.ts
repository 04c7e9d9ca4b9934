import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../auth/rate-limit.ts';
import { chartsRoutes } from './routes.ts';
import { createChartsService, type ChartsService } from './service.ts';

export type ChartsModuleOptions = {
  db: Db;
  now: Clock;
  /** True for a catalogue instrument or one the user imported. */
  isKnownSymbol: (userId: number, symbol: string) => Promise<boolean>;
};

/** Chart storage: drawings per user and instrument, indicator settings per user and chart. */
export function registerCharts(app: FastifyInstance, options: ChartsModuleOptions): ChartsService {
  const service = createChartsService(options);
  chartsRoutes(app, service);
  return service;
}
