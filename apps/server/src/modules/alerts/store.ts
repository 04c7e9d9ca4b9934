import type { DrawingPoint, WebhookAttempt } from '@ct/domain';
import { and, count, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import {
  alertLog,
  alertWebhookSecrets,
  alerts,
  chartDrawings,
  type AlertLogRow,
  type AlertRow,
} from '../../db/schema.ts';
import { rawQuery } from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';

export type NewAlert = typeof alerts.$inferInsert;

export async function countAlerts(tx: Db, userId: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(alerts).where(eq(alerts.userId, userId));
  return row?.n ?? 0;
}

export async function insertAlert(tx: Db, values: NewAlert): Promise<AlertRow> {
  const [row] = await tx.insert(alerts).values(values).returning();
  if (!row) throw new Error('alert insert returned no row');
  return row;
}

export function listAlerts(db: Db, userId: number): Promise<AlertRow[]> {
  return db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(desc(alerts.id));
}

export async function findAlert(db: Db, userId: number, id: number): Promise<AlertRow | undefined> {
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)));
  return row;
}

/** Changes the user's alert (its version moves on, so the engine takes the new shape). */
export async function updateAlert(
  db: Db,
  userId: number,
  id: number,
  set: Partial<NewAlert>,
): Promise<AlertRow | undefined> {
  const [row] = await db
    .update(alerts)
    .set({ ...set, version: sql`${alerts.version} + 1` })
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .returning();
  return row;
}

export async function deleteAlert(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .returning({ id: alerts.id });
  return rows.length > 0;
}

/** An active alert with what the engine judges it on (a drawing's points, when it follows one). */
export type WatchedAlertRow = AlertRow & {
  points: DrawingPoint[] | null;
  drawingUpdatedAt: number | null;
};

function watchedQuery(db: Db) {
  return db
    .select({
      alert: alerts,
      points: chartDrawings.points,
      drawingUpdatedAt: chartDrawings.updatedAt,
    })
    .from(alerts)
    .leftJoin(chartDrawings, eq(chartDrawings.id, alerts.drawingId));
}

const flatten = (rows: Awaited<ReturnType<ReturnType<typeof watchedQuery>['where']>>) =>
  rows.map((r) => ({ ...r.alert, points: r.points, drawingUpdatedAt: r.drawingUpdatedAt }));

export async function listActiveAlerts(db: Db): Promise<WatchedAlertRow[]> {
  return flatten(await watchedQuery(db).where(eq(alerts.status, 'active')));
}

/** The named alerts as they are now (any status: the engine drops what is no longer active). */
export async function listAlertsById(db: Db, ids: readonly number[]): Promise<WatchedAlertRow[]> {
  if (ids.length === 0) return [];
  return flatten(await watchedQuery(db).where(inArray(alerts.id, [...ids])));
}

const sideIs = (side: number | null) =>
  side === null ? isNull(alerts.side) : eq(alerts.side, side);

/** One alert's change of side as a tick moved it. */
export type SideChange = { id: number; from: number | null; to: number | null };

const WRITE_SIDES = `update alerts set side = v.to_side
  from jsonb_to_recordset($1::jsonb) as v(id int, from_side smallint, to_side smallint)
  where alerts.id = v.id and alerts.status = 'active'
    and alerts.side is not distinct from v.from_side
  returning alerts.id`;

/**
 * Moves the sides of many alerts in one statement (a tick's changes on one symbol), each
 * only from the side it replaces; answers the ids that moved (the others changed meanwhile).
 */
export async function writeSides(db: Db, changes: readonly SideChange[]): Promise<Set<number>> {
  if (changes.length === 0) return new Set();
  const rows = await rawQuery<{ id: number }>(db, WRITE_SIDES, [
    JSON.stringify(changes.map((c) => ({ id: c.id, from_side: c.from, to_side: c.to }))),
  ]);
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Records a fire: the side moves (`from` → `to`), or for a bar-close alert the bar is newer
 * than the one it last fired in; a once alert is done. Undefined when the row did not match
 * (fired by another judge, paused, deleted, edited).
 */
export async function fireAlert(
  tx: Db,
  fire: {
    id: number;
    version: number;
    guard: { side: number | null; to: number | null } | { bar: number };
    bar: number;
    now: number;
  },
): Promise<AlertRow | undefined> {
  const guard =
    'bar' in fire.guard
      ? or(isNull(alerts.lastFiredBar), lt(alerts.lastFiredBar, fire.guard.bar))
      : sideIs(fire.guard.side);
  const [row] = await tx
    .update(alerts)
    .set({
      ...('to' in fire.guard ? { side: fire.guard.to } : {}),
      firedCount: sql`${alerts.firedCount} + 1`,
      lastFiredAt: fire.now,
      lastFiredBar: fire.bar,
      status: sql`case when ${alerts.frequency} = 'once' then 'fired' else ${alerts.status} end`,
      updatedAt: fire.now,
    })
    .where(
      and(
        eq(alerts.id, fire.id),
        eq(alerts.status, 'active'),
        eq(alerts.version, fire.version),
        guard,
      ),
    )
    .returning();
  return row;
}

/** Ends an active alert whose expiry has passed. */
export async function expireAlert(db: Db, id: number, now: number): Promise<AlertRow | undefined> {
  const [row] = await db
    .update(alerts)
    .set({ status: 'expired', updatedAt: now, version: sql`${alerts.version} + 1` })
    .where(and(eq(alerts.id, id), eq(alerts.status, 'active')))
    .returning();
  return row;
}

export async function insertLog(
  tx: Db,
  values: typeof alertLog.$inferInsert,
): Promise<AlertLogRow> {
  const [row] = await tx.insert(alertLog).values(values).returning();
  if (!row) throw new Error('alert log insert returned no row');
  return row;
}

export async function listLog(
  db: Db,
  userId: number,
  skip: number,
  limit: number,
): Promise<{ rows: AlertLogRow[]; total: number }> {
  const rows = await db
    .select()
    .from(alertLog)
    .where(eq(alertLog.userId, userId))
    .orderBy(desc(alertLog.id))
    .offset(skip)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(alertLog).where(eq(alertLog.userId, userId));
  return { rows, total: total?.n ?? 0 };
}

/** Appends a webhook attempt to a log entry and sets its delivery state. */
export async function recordAttempt(
  db: Db,
  logId: number,
  attempt: WebhookAttempt,
  state: string,
): Promise<void> {
  await db
    .update(alertLog)
    .set({
      webhookAttempts: sql`${alertLog.webhookAttempts} || ${JSON.stringify([attempt])}::jsonb`,
      webhookState: state,
    })
    .where(eq(alertLog.id, logId));
}

export async function findSecret(db: Db, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ secret: alertWebhookSecrets.secret })
    .from(alertWebhookSecrets)
    .where(eq(alertWebhookSecrets.userId, userId));
  return row?.secret ?? null;
}

/** Stores a new secret for the user (replacing the old one). */
export async function putSecret(db: Db, userId: number, secret: string, at: number): Promise<void> {
  await db
    .insert(alertWebhookSecrets)
    .values({ userId, secret, createdAt: at })
    .onConflictDoUpdate({ target: alertWebhookSecrets.userId, set: { secret, createdAt: at } });
}

/** The user's secret, made when the user has none yet (a webhook fired before one was asked for). */
export async function ensureSecret(
  db: Db,
  userId: number,
  fresh: () => string,
  at: number,
): Promise<string> {
  await db
    .insert(alertWebhookSecrets)
    .values({ userId, secret: fresh(), createdAt: at })
    .onConflictDoNothing();
  return (await findSecret(db, userId)) ?? '';
}
