import type { Alert, AlertLogEntry } from '@ct/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Broker } from '../gateway/broker.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import type { AlertSettings } from './settings.ts';
import type { WebhookAllow } from './ssrf.ts';

/** A fired alert as its user is told of it. */
export type FiredAlert = { userId: number; alert: Alert; entry: AlertLogEntry };

/** What the alert engine, its use cases and the API share. */

export type AlertContext = {
  db: Db;
  market: MarketData;
  feed: MarketFeed;
  broker: Broker;
  now: () => number;
  log: FastifyBaseLogger;
  settings: AlertSettings;
  allow: WebhookAllow;
  /** Waits between webhook attempts (tests pass a faster one). */
  sleep: (ms: number) => Promise<void>;
  /** Tells the user of a fire beyond the alert's own log (modules/notifications). */
  onFired?: (fired: FiredAlert) => Promise<void>;
};

/**
 * Internal broker channel: `{ id }`, an alert was created, changed or deleted on some node;
 * the active feed's engine reads that row (docs/architecture.md, "Alerts").
 */
export const ALERT_CHANGED_CHANNEL = '$node:alert-changed';
