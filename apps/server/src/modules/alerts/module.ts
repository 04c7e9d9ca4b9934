import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/types.ts';
import type { Broker } from '../gateway/broker.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import { ALERT_CHANGED_CHANNEL, type AlertContext } from './context.ts';
import { AlertEngine } from './engine.ts';
import { Deliveries, type FiredAlert } from './fire.ts';
import { alertRoutes } from './routes.ts';
import { createAlertService, type AlertService } from './service.ts';
import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from './settings.ts';
import { parseWebhookAllow } from './ssrf.ts';

export type AlertsModule = { engine: AlertEngine; service: AlertService; context: AlertContext };

const changedSchema = z.object({ id: z.number().int().positive() });

/**
 * Alerts: the API, and the engine that judges them on the feed's quotes (armed in the
 * active feed: `runTimers` in one process, Cluster.activate across nodes). Changes made
 * on any node reach the engine through the broker; a 5 s reload is the safety net.
 */
export async function registerAlerts(
  app: FastifyInstance,
  deps: {
    db: Db;
    market: MarketData;
    feed: MarketFeed;
    broker: Broker;
    now: () => number;
    liveTokenSecret: string;
    settings?: Partial<AlertSettings>;
    runTimers: boolean;
    sleep?: (ms: number) => Promise<void>;
    /** After a fire is committed: the user's notification. */
    onFired?: (fired: FiredAlert) => Promise<void>;
  },
): Promise<AlertsModule> {
  const settings = { ...DEFAULT_ALERT_SETTINGS, ...deps.settings };
  const context: AlertContext = {
    db: deps.db,
    market: deps.market,
    feed: deps.feed,
    broker: deps.broker,
    now: deps.now,
    log: app.log,
    settings,
    allow: parseWebhookAllow(settings.webhookAllow),
    sleep: deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    ...(deps.onFired ? { onFired: deps.onFired } : {}),
  };
  const deliveries = new Deliveries(context);
  const engine = new AlertEngine(context, deliveries);
  await engine.load();
  const stopQuotes = deps.feed.onQuote(engine.onQuote);
  const stopChanges = deps.broker.listen(({ channel, data }) => {
    if (channel !== ALERT_CHANGED_CHANNEL) return;
    const parsed = changedSchema.safeParse(data);
    if (parsed.success) void engine.track([parsed.data.id]);
  });
  if (deps.runTimers) app.addHook('onListen', async () => engine.startTimer());
  app.addHook('onClose', async () => {
    stopQuotes();
    stopChanges();
    engine.stop();
    deliveries.close();
    await engine.whenIdle();
  });
  const service = createAlertService(context);
  alertRoutes(app, service, { liveTokenSecret: deps.liveTokenSecret, now: deps.now });
  return { engine, service, context };
}
