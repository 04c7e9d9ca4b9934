import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { traders, users, type TraderRow, type UserRow } from '../../db/schema.ts';

/** Lower-cased, trimmed: the form emails are stored and compared in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return rows[0];
}

/** A user's trading accounts, oldest first, then by level (the first one becomes current). */
export async function listTraders(db: Db, userId: number): Promise<TraderRow[]> {
  return db
    .select()
    .from(traders)
    .where(eq(traders.userId, userId))
    .orderBy(asc(traders.createdAt), asc(traders.level), asc(traders.name));
}

/** Inserts a user unless the email exists; undefined when it does. */
export async function insertUserIfNew(
  db: Db,
  row: typeof users.$inferInsert,
): Promise<UserRow | undefined> {
  const rows = await db.insert(users).values(row).onConflictDoNothing().returning();
  return rows[0];
}

export async function insertTraders(
  db: Db,
  rows: (typeof traders.$inferInsert)[],
): Promise<TraderRow[]> {
  if (rows.length === 0) return [];
  return db.insert(traders).values(rows).returning();
}
