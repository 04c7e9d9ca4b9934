import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { sessions, traders, traderTokens, users, type TraderRow } from '../../db/schema.ts';

export type NewSession = {
  userId: number;
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  traderTokens: { traderUuid: string; tokenHash: string }[];
};

/** Stores a session and its trader tokens together; returns the session id. */
export async function insertSession(db: Db, session: NewSession): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sessions)
      .values({
        userId: session.userId,
        tokenHash: session.tokenHash,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
      })
      .returning({ id: sessions.id });
    if (!row) throw new Error('session insert returned no row');
    if (session.traderTokens.length > 0) {
      await tx.insert(traderTokens).values(
        session.traderTokens.map((t) => ({
          tokenHash: t.tokenHash,
          traderUuid: t.traderUuid,
          sessionId: row.id,
          expiresAt: session.expiresAt,
        })),
      );
    }
    return row.id;
  });
}

/** Deletes a user's expired and revoked sessions (and, by cascade, their trader tokens). */
export async function deleteDeadSessions(db: Db, userId: number, nowSec: number): Promise<void> {
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        or(lte(sessions.expiresAt, nowSec), isNotNull(sessions.revokedAt)),
      ),
    );
}

export type LiveSession = { sessionId: number; userId: number; email: string; expiresAt: number };

/** The session with this token hash if it is neither revoked nor expired. */
export async function findLiveSession(
  db: Db,
  tokenHash: string,
  nowSec: number,
): Promise<LiveSession | undefined> {
  const rows = await db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      email: users.email,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, nowSec),
      ),
    )
    .limit(1);
  return rows[0];
}

/** Whether the session with this id is neither revoked nor expired. */
export async function isSessionLive(db: Db, sessionId: number, nowSec: number): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, nowSec)),
    )
    .limit(1);
  return rows.length > 0;
}

export async function revokeSession(db: Db, sessionId: number, nowSec: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: nowSec })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * The trading account `uuid` if `tokenHash` is the live token issued to it in this
 * session and the account belongs to the session's user.
 */
export async function findTraderByToken(
  db: Db,
  query: { sessionId: number; userId: number; uuid: string; tokenHash: string; nowSec: number },
): Promise<{ trader: TraderRow; expiresAt: number } | undefined> {
  const rows = await db
    .select({ trader: traders, expiresAt: traderTokens.expiresAt })
    .from(traderTokens)
    .innerJoin(traders, eq(traders.uuid, traderTokens.traderUuid))
    .where(
      and(
        eq(traderTokens.tokenHash, query.tokenHash),
        eq(traderTokens.traderUuid, query.uuid),
        eq(traderTokens.sessionId, query.sessionId),
        gt(traderTokens.expiresAt, query.nowSec),
        eq(traders.userId, query.userId),
      ),
    )
    .limit(1);
  return rows[0];
}
