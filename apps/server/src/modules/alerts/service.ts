import {
  toEpochMs,
  alertLogQuerySchema,
  alertShapeProblem,
  createAlertBodySchema,
  lineLevelAt,
  nextSide,
  sideOf,
  updateAlertBodySchema,
  zoneOf,
  type Alert,
  type AlertLog,
  type DrawingPoint,
} from '@ct/domain';
import { and, eq } from 'drizzle-orm';
import { chartDrawings, type AlertRow } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import { lockUser } from '../charts/store.ts';
import { ALERT_CHANGED_CHANNEL, type AlertContext } from './context.ts';
import { AlertsUnprocessableError, parseAlertsInput } from './errors.ts';
import { newWebhookSecret } from './fire.ts';
import { WebhookRefusedError, resolveWebhookTarget } from './ssrf.ts';
import {
  countAlerts,
  deleteAlert,
  findAlert,
  insertAlert,
  listAlerts,
  listLog,
  putSecret,
  updateAlert,
  type NewAlert,
} from './store.ts';
import { alertOf, logEntryOf } from './views.ts';

/** The same answer for an id that does not exist and one of another user. */
const ALERT_NOT_FOUND = 'Alert not found';

function alertIdOf(value: string): number {
  const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
  if (!(id <= 2_147_483_647)) throw new NotFoundError(ALERT_NOT_FOUND);
  return id;
}

type Shape = Pick<NewAlert, 'kind' | 'level' | 'upper' | 'lower'> & {
  points: DrawingPoint[] | null;
};

/**
 * The CRUD of a user's alerts and the log of their fires (docs/api.md, "Alerts"). Every
 * call is the session user's own; another user's alert is answered like an unknown one.
 * Each change is told to the active feed's engine through the broker (`$node:alert-changed`).
 */
export function createAlertService(ctx: AlertContext) {
  const { db } = ctx;
  const changed = (id: number) => ctx.broker.publish(ALERT_CHANGED_CHANNEL, { id });

  /**
   * The side of its level the last published price is on: an alert is armed from there,
   * so a crossing is judged from the price the user saw when saving it.
   */
  function initialSide(symbol: string, shape: Shape): number | null {
    const quote = ctx.feed.latestQuote(symbol);
    if (!quote) return null;
    if (shape.kind === 'channel') {
      return zoneOf(quote.bid, shape.lower ?? 0, shape.upper ?? 0);
    }
    const level =
      shape.kind === 'drawing'
        ? lineLevelAt(shape.points ?? [], ctx.now() / 1000)
        : (shape.level ?? null);
    if (level === null || shape.kind === 'indicator') return null;
    return nextSide(null, sideOf(quote.bid, level), false);
  }

  async function checkWebhook(url: string | null | undefined): Promise<void> {
    if (!url) return;
    try {
      await resolveWebhookTarget(url, ctx.allow);
    } catch (error) {
      if (error instanceof WebhookRefusedError) throw new AlertsUnprocessableError(error.message);
      throw error;
    }
  }

  async function drawingPoints(
    userId: number,
    drawingId: number,
    symbol: string,
  ): Promise<DrawingPoint[]> {
    const [drawing] = await db
      .select()
      .from(chartDrawings)
      .where(and(eq(chartDrawings.id, drawingId), eq(chartDrawings.userId, userId)));
    if (!drawing || drawing.symbol !== symbol) {
      throw new AlertsUnprocessableError('drawing_id: no such drawing on this instrument');
    }
    if (drawing.kind !== 'horizontal' && drawing.kind !== 'trend') {
      throw new AlertsUnprocessableError('drawing_id: alerts follow horizontal or trend lines');
    }
    return drawing.points;
  }

  async function ownRow(userId: number, idParam: string): Promise<AlertRow> {
    const row = await findAlert(db, userId, alertIdOf(idParam));
    if (!row) throw new NotFoundError(ALERT_NOT_FOUND);
    return row;
  }

  return {
    async create(userId: number, body: unknown): Promise<Alert> {
      const input = parseAlertsInput(createAlertBodySchema, body);
      if (!ctx.market.has(input.symbol_id)) {
        throw new AlertsUnprocessableError(`symbol_id: Unknown instrument ${input.symbol_id}`);
      }
      const points =
        input.kind === 'drawing' && input.drawing_id !== undefined
          ? await drawingPoints(userId, input.drawing_id, input.symbol_id)
          : null;
      await checkWebhook(input.webhook_url);
      const now = ctx.now();
      const row = await db.transaction(async (tx) => {
        if (!(await lockUser(tx, userId))) throw new NotFoundError('User not found');
        if ((await countAlerts(tx, userId)) >= ctx.settings.maxPerUser) {
          throw new AlertsUnprocessableError(
            `At most ${ctx.settings.maxPerUser} alerts: delete some first`,
          );
        }
        return insertAlert(tx, {
          userId,
          symbol: input.symbol_id,
          kind: input.kind,
          condition: input.condition,
          level: input.kind === 'price' ? (input.level ?? null) : null,
          upper: input.kind === 'channel' ? (input.upper ?? null) : null,
          lower: input.kind === 'channel' ? (input.lower ?? null) : null,
          drawingId: input.kind === 'drawing' ? (input.drawing_id ?? null) : null,
          indicator: input.kind === 'indicator' ? (input.indicator ?? null) : null,
          period: input.period,
          frequency: input.frequency,
          expiresAt: input.expires_at ? toEpochMs(input.expires_at) : null,
          message: input.message ?? '',
          webhookUrl: input.webhook_url ?? null,
          status: 'active',
          side: initialSide(input.symbol_id, {
            kind: input.kind,
            level: input.level,
            upper: input.upper,
            lower: input.lower,
            points,
          }),
          createdAt: now,
          updatedAt: now,
        });
      });
      changed(row.id);
      return alertOf(row);
    },

    async list(userId: number): Promise<{ alerts: Alert[] }> {
      return { alerts: (await listAlerts(db, userId)).map(alertOf) };
    },

    async update(userId: number, idParam: string, body: unknown): Promise<Alert> {
      const id = alertIdOf(idParam);
      const input = parseAlertsInput(updateAlertBodySchema, body);
      const row = await ownRow(userId, String(id));
      const merged = {
        kind: row.kind as Alert['kind'],
        condition: input.condition ?? (row.condition as Alert['condition']),
        level: input.level ?? row.level,
        upper: input.upper ?? row.upper,
        lower: input.lower ?? row.lower,
        drawing_id: row.drawingId,
        indicator: input.indicator ?? row.indicator,
      };
      const problem = alertShapeProblem(merged);
      if (problem) throw new AlertsUnprocessableError(problem);
      if (input.webhook_url) await checkWebhook(input.webhook_url);
      const points =
        row.kind === 'drawing' && row.drawingId !== null
          ? await drawingPoints(userId, row.drawingId, row.symbol)
          : null;
      const status = input.status ?? row.status;
      // a new level, or a resumed alert, is armed from the price now: what happened while
      // it was paused or elsewhere is not a crossing
      const side = initialSide(row.symbol, { ...merged, points });
      const saved = await updateAlert(db, userId, id, {
        condition: merged.condition,
        level: merged.level,
        upper: merged.upper,
        lower: merged.lower,
        indicator: merged.indicator,
        ...(input.period ? { period: input.period } : {}),
        ...(input.frequency ? { frequency: input.frequency } : {}),
        ...(input.expires_at !== undefined
          ? { expiresAt: input.expires_at === null ? null : toEpochMs(input.expires_at) }
          : {}),
        ...(input.message !== undefined ? { message: input.message } : {}),
        ...(input.webhook_url !== undefined ? { webhookUrl: input.webhook_url } : {}),
        status,
        side,
        updatedAt: ctx.now(),
      });
      if (!saved) throw new NotFoundError(ALERT_NOT_FOUND);
      changed(id);
      return alertOf(saved);
    },

    async remove(userId: number, idParam: string): Promise<{ deleted: number }> {
      const id = alertIdOf(idParam);
      if (!(await deleteAlert(db, userId, id))) throw new NotFoundError(ALERT_NOT_FOUND);
      changed(id);
      return { deleted: id };
    },

    async log(userId: number, query: unknown): Promise<AlertLog> {
      const { skip, limit } = parseAlertsInput(alertLogQuerySchema, query);
      const { rows, total } = await listLog(db, userId, skip, limit);
      return { items: rows.map(logEntryOf), total };
    },

    /** A new signing secret, answered this once; the old one stops signing at once. */
    async rotateSecret(userId: number): Promise<{ webhook_secret: string }> {
      const secret = newWebhookSecret();
      await putSecret(db, userId, secret, ctx.now());
      return { webhook_secret: secret };
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
