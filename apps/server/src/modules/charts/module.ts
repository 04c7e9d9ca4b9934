import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../auth/rate-limit.ts';
import type { Broker } from '../gateway/broker.ts';
import { chartsRoutes } from './routes.ts';
import { createChartsService, type ChartsService } from './service.ts';

export type ChartsModuleOptions = {
  db: Db;
  now: Clock;
  /** True for a catalogue instrument or one the user imported. */
  isKnownSymbol: (userId: number, symbol: string) => Promise<boolean>;
  /** The live gateway's fan-out: drawing changes go to the user's `charts:{userId}` channel. */
  broker: Broker;
  /** Signs the tokens of that channel (the gateway checks them). */
  liveTokenSecret: string;
};

/**
 * Chart storage: drawings per user and instrument (each change published to the user's
 * open pages), indicator settings per user and chart.
 */
export function registerCharts(app: FastifyInstance, options: ChartsModuleOptions): ChartsService {
  const { broker, liveTokenSecret, ...deps } = options;
  const service = createChartsService({
    ...deps,
    publish: (channel, event) => broker.publish(channel, event),
  });
  chartsRoutes(app, service, { liveTokenSecret, now: options.now });
  return service;
}
