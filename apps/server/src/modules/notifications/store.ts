import { toEpochSec } from '@ct/domain';
import type { Notification, NotificationKind, NotificationParams } from '@ct/domain';
import type { Db } from '../../db/types.ts';
import { rawQuery, type SqlRow } from '../../db/raw.ts';

/*
 * SQL of the notifications (table `notifications`, migration 0017). A user keeps the newest
 * `keep`: each insert deletes what falls beyond them, in the same statement's transaction.
 */

/** Whom a notification is for: a user, or the user who holds a trading account. */
export type NotificationOwner = { userId: number } | { traderUuid: string };

export type NotificationInsert = {
  kind: NotificationKind;
  params: NotificationParams;
  ref: string | null;
  createdAt: number;
};

function toNotification(row: SqlRow): Notification {
  return {
    id: String(row.id),
    kind: row.kind as NotificationKind,
    params: (row.params ?? {}) as NotificationParams,
    ref: (row.ref as string | null) ?? null,
    time: toEpochSec(Number(row.created_at)),
    read: row.read_at !== null && row.read_at !== undefined,
  };
}

// The owner's user id, the trading account's name added to the parameters when it is one;
// a ref already recorded for the user inserts nothing (the partial unique index).
const INSERT_FOR_USER = `
  insert into notifications (user_id, kind, params, ref, created_at)
  select id, $2, $3::jsonb, $4, $5 from users where id = $1
  on conflict (user_id, ref) where ref is not null do nothing
  returning id, user_id, kind, params, ref, created_at, read_at`;
const INSERT_FOR_TRADER = `
  insert into notifications (user_id, kind, params, ref, created_at)
  select user_id, $2, $3::jsonb || jsonb_build_object('account', name), $4, $5
    from traders where uuid = $1
  on conflict (user_id, ref) where ref is not null do nothing
  returning id, user_id, kind, params, ref, created_at, read_at`;
// Everything older than the user's `keep` newest (by id, which grows with time).
const PRUNE = `
  delete from notifications where user_id = $1 and id < (
    select id from notifications where user_id = $1 order by id desc offset $2 - 1 limit 1)`;

/**
 * Inserts a notification (in `tx`, the caller's transaction or the database) and prunes the
 * user's oldest beyond `keep`. Null when the ref was recorded already or the owner is gone.
 */
export async function insertNotification(
  tx: Db,
  owner: NotificationOwner,
  note: NotificationInsert,
  keep: number,
): Promise<{ userId: number; notification: Notification } | null> {
  const [row] = await rawQuery(tx, 'userId' in owner ? INSERT_FOR_USER : INSERT_FOR_TRADER, [
    'userId' in owner ? owner.userId : owner.traderUuid,
    note.kind,
    JSON.stringify(note.params),
    note.ref,
    note.createdAt,
  ]);
  if (!row) return null;
  const userId = Number(row.user_id);
  await rawQuery(tx, PRUNE, [userId, keep]);
  return { userId, notification: toNotification(row) };
}

/** A page of the user's notifications, newest first, with how many are kept and unread. */
export async function listNotifications(
  db: Db,
  userId: number,
  skip: number,
  limit: number,
): Promise<{ items: Notification[]; total: number; unread: number }> {
  const rows = await rawQuery(
    db,
    `select id, kind, params, ref, created_at, read_at from notifications
      where user_id = $1 order by id desc offset $2 limit $3`,
    [userId, skip, limit],
  );
  const [counts] = await rawQuery(
    db,
    `select count(*)::int as total, count(*) filter (where read_at is null)::int as unread
       from notifications where user_id = $1`,
    [userId],
  );
  return {
    items: rows.map(toNotification),
    total: Number(counts?.total ?? 0),
    unread: Number(counts?.unread ?? 0),
  };
}

/** The user's unread count. */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  const [row] = await rawQuery(
    db,
    'select count(*)::int as n from notifications where user_id = $1 and read_at is null',
    [userId],
  );
  return Number(row?.n ?? 0);
}

/**
 * Marks the user's notifications read: these ids (another user's ids change nothing), or
 * all when `ids` is null. Returns the ids that changed.
 */
export async function markRead(
  db: Db,
  userId: number,
  ids: readonly string[] | null,
  nowMs: number,
): Promise<string[]> {
  const rows =
    ids === null
      ? await rawQuery(
          db,
          `update notifications set read_at = $2 where user_id = $1 and read_at is null
           returning id`,
          [userId, nowMs],
        )
      : await rawQuery(
          db,
          `update notifications set read_at = $2
            where user_id = $1 and read_at is null and id = any($3::bigint[]) returning id`,
          [userId, nowMs, ids],
        );
  return rows.map((r) => String(r.id));
}
