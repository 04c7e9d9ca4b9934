import { and, count, desc, eq } from 'drizzle-orm';
import { replays, type ReplayRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

export type NewReplay = typeof replays.$inferInsert;

export async function countReplays(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(replays).where(eq(replays.userId, userId));
  return row?.n ?? 0;
}

export async function insertReplay(db: Db, values: NewReplay): Promise<void> {
  await db.insert(replays).values(values);
}

/** The user's sessions, the last changed first. */
export function listReplays(db: Db, userId: number, limit: number): Promise<ReplayRow[]> {
  return db
    .select()
    .from(replays)
    .where(eq(replays.userId, userId))
    .orderBy(desc(replays.updatedAt))
    .limit(limit);
}

export async function findReplay(db: Db, userId: number, id: string): Promise<ReplayRow | null> {
  const [row] = await db
    .select()
    .from(replays)
    .where(and(eq(replays.id, id), eq(replays.userId, userId)));
  return row ?? null;
}

/**
 * Writes a session's new cursor, actions and evaluations if nobody changed it since it was
 * read (`version`); the row written, or null when another change came first.
 */
export async function updateReplay(
  db: Db,
  row: ReplayRow,
  set: Pick<NewReplay, 'cursorTime' | 'steps' | 'actions' | 'evaluations' | 'nextId' | 'updatedAt'>,
): Promise<ReplayRow | null> {
  const [updated] = await db
    .update(replays)
    .set({ ...set, version: row.version + 1 })
    .where(
      and(eq(replays.id, row.id), eq(replays.userId, row.userId), eq(replays.version, row.version)),
    )
    .returning();
  return updated ?? null;
}

export async function deleteReplay(db: Db, userId: number, id: string): Promise<boolean> {
  const rows = await db
    .delete(replays)
    .where(and(eq(replays.id, id), eq(replays.userId, userId)))
    .returning({ id: replays.id });
  return rows.length > 0;
}
