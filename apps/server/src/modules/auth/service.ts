import { toEpochSec, toEpochMs } from '@ct/domain';
import type { TraderCredentials, User } from '@ct/domain';
import type { Db } from '../../db/types.ts';
import type { TraderRow } from '../../db/schema.ts';
import { AuthFailedError, InvalidCredentialsError, RateLimitedError } from '../../http/errors.ts';
import { findUserByEmail, listTraders, normalizeEmail } from '../users/store.ts';
import { toTraderView, toUserView } from '../users/view.ts';
import { burnVerification, verifyPassword } from '../users/password.ts';
import type { LoginThrottle } from './login-limits.ts';
import { type Clock, rateLimitMessage } from './rate-limit.ts';
import {
  deleteDeadSessions,
  findLiveSession,
  findTraderByToken,
  insertSession,
  isSessionLive,
  revokeSession,
} from './store.ts';
import { IdentityCache } from './identity-cache.ts';
import { hashToken, looksLikeToken, newToken } from './tokens.ts';

/** Who a request acts for, once its session checked out; `expiresAt` in epoch seconds. */
export type SessionAuth = { sessionId: number; userId: number; email: string; expiresAt: number };

export type LoginResult = {
  /** The cookie value; only its hash is stored. */
  sessionToken: string;
  /** Seconds the session lives. */
  ttlSeconds: number;
  user: User;
  /** The device cookie's value: this device is now a known device of the account. */
  deviceToken: string;
  /** Seconds the device stays known after this login (the device cookie's Max-Age). */
  deviceTtlSeconds: number;
};

export type SessionCheck = {
  sessionToken: string | undefined;
  /** x-user-id / x-user-name as sent; undefined or empty when not sent. */
  userIdHeader: string | undefined;
  userNameHeader: string | undefined;
};

export type AuthServiceDeps = {
  db: Db;
  now: Clock;
  sessionTtlHours: number;
  limiter: LoginThrottle;
  /** Holds a slowed login attempt until its turn (tests pass one that moves their clock). */
  sleep: (ms: number) => Promise<void>;
};

export type AuthService = ReturnType<typeof createAuthService>;

/** How long this process trusts an identity it checked (see identity-cache.ts). */
export const IDENTITY_TTL_MS = 5000;

export function createAuthService({ db, now, sessionTtlHours, limiter, sleep }: AuthServiceDeps) {
  const nowSec = () => toEpochSec(now());
  const ttlSeconds = Math.max(1, Math.round(sessionTtlHours * 3600));
  // Checked identities, so that every trading call does not look its session and token up
  // again (identity-cache.ts: dropped at logout here, at expiry, and after 5 s anyway).
  const sessionsSeen = new IdentityCache<SessionAuth>(IDENTITY_TTL_MS);
  const tradersSeen = new IdentityCache<{ sessionId: number; trader: TraderRow }>(IDENTITY_TTL_MS);

  /**
   * Checks the password (limited per device, account and address: login-limits.ts) and
   * opens a session with a fresh token for every trading account of the user.
   */
  async function login(input: {
    userName: string;
    password: string;
    address: string;
    /** The device cookie the request carried, if any (login-limits.ts: known devices). */
    deviceToken?: string | undefined;
  }): Promise<LoginResult> {
    const email = normalizeEmail(input.userName);
    const device = looksLikeToken(input.deviceToken) ? input.deviceToken : undefined;
    const decision = await limiter.begin(email, input.address, device);
    if (decision.refused) {
      const { retryAfterMs } = decision;
      throw new RateLimitedError(rateLimitMessage(retryAfterMs), Math.ceil(retryAfterMs / 1000));
    }
    const { attempt } = decision;
    // an account under guessing from several addresses: wait for this attempt's turn
    if (attempt.waitMs > 0) await sleep(attempt.waitMs);
    const user = await findUserByEmail(db, email);
    if (!user) {
      await burnVerification(input.password);
      throw new InvalidCredentialsError();
    }
    if (!(await verifyPassword(input.password, user.passwordHash))) {
      throw new InvalidCredentialsError();
    }
    // the device keeps its cookie (one per browser, for every account logged in from it)
    const deviceToken = device ?? newToken();
    await attempt.succeeded(deviceToken);

    const traders = await listTraders(db, user.id);
    const issued = traders.map((trader) => ({ trader, token: newToken() }));
    const sessionToken = newToken();
    const createdAt = nowSec();
    await deleteDeadSessions(db, user.id, createdAt);
    await insertSession(db, {
      userId: user.id,
      tokenHash: hashToken(sessionToken),
      createdAt,
      expiresAt: createdAt + ttlSeconds,
      traderTokens: issued.map(({ trader, token }) => ({
        traderUuid: trader.uuid,
        tokenHash: hashToken(token),
      })),
    });
    const view = toUserView(
      user,
      issued.map(({ trader, token }) => toTraderView(trader, token)),
    );
    const deviceTtlSeconds = Math.floor(limiter.limits.knownDeviceMs / 1000);
    return { sessionToken, ttlSeconds, user: view, deviceToken, deviceTtlSeconds };
  }

  /**
   * The live session named by the cookie, whose user matches x-user-id / x-user-name when
   * they are sent (the name is the login email, compared case-insensitively).
   */
  async function checkSession(check: SessionCheck): Promise<SessionAuth> {
    if (!looksLikeToken(check.sessionToken)) throw new AuthFailedError();
    const session = await liveSession(hashToken(check.sessionToken));
    if (!session) throw new AuthFailedError();
    if (check.userIdHeader && check.userIdHeader.trim() !== String(session.userId)) {
      throw new AuthFailedError();
    }
    if (check.userNameHeader && normalizeEmail(check.userNameHeader) !== session.email) {
      throw new AuthFailedError();
    }
    return session;
  }

  /** The live session of a token hash: from the cache, else the database. */
  async function liveSession(tokenHash: string): Promise<SessionAuth | undefined> {
    const nowMs = now();
    const seen = sessionsSeen.get(tokenHash, nowMs);
    if (seen) return seen;
    const found = await findLiveSession(db, tokenHash, toEpochSec(nowMs));
    if (!found) return undefined;
    const session: SessionAuth = {
      sessionId: found.sessionId,
      userId: found.userId,
      email: found.email,
      expiresAt: found.expiresAt,
    };
    sessionsSeen.set(tokenHash, session, nowMs, toEpochMs(found.expiresAt));
    return session;
  }

  /** The trading account, if `token` is the one issued to `uuid` in this very session. */
  async function checkTrader(
    auth: SessionAuth,
    credentials: TraderCredentials,
  ): Promise<TraderRow> {
    if (!looksLikeToken(credentials.token)) throw new AuthFailedError();
    const tokenHash = hashToken(credentials.token);
    const key = `${auth.sessionId}:${auth.userId}:${credentials.uuid}:${tokenHash}`;
    const nowMs = now();
    const seen = tradersSeen.get(key, nowMs);
    if (seen) return seen.trader;
    const found = await findTraderByToken(db, {
      sessionId: auth.sessionId,
      userId: auth.userId,
      uuid: credentials.uuid,
      tokenHash,
      nowSec: toEpochSec(nowMs),
    });
    if (!found) throw new AuthFailedError();
    tradersSeen.set(
      key,
      { sessionId: auth.sessionId, trader: found.trader },
      nowMs,
      toEpochMs(found.expiresAt),
    );
    return found.trader;
  }

  const endedListeners = new Set<(sessionId: number) => void>();

  /**
   * Ends the session; its trader tokens stop working with it, in this process at once, and
   * what listens to session ends (the live gateway: its connections and subscriptions) hears.
   */
  async function logout(auth: SessionAuth): Promise<void> {
    sessionsSeen.forgetSession(auth.sessionId);
    tradersSeen.forgetSession(auth.sessionId);
    await revokeSession(db, auth.sessionId, nowSec());
    // Again after the write: a look-up that raced with it is not kept either.
    sessionsSeen.forgetSession(auth.sessionId);
    tradersSeen.forgetSession(auth.sessionId);
    for (const listener of endedListeners) listener(auth.sessionId);
  }

  /**
   * A session ended on another node (the broker said so): its cached identities go at once
   * instead of within the cache's bound.
   */
  function forgetSession(sessionId: number): void {
    sessionsSeen.forgetSession(sessionId);
    tradersSeen.forgetSession(sessionId);
  }

  /** Calls `listener` with the id of every session logged out here; returns the unsubscribe. */
  function onSessionEnded(listener: (sessionId: number) => void): () => void {
    endedListeners.add(listener);
    return () => endedListeners.delete(listener);
  }

  /** Whether a session (by id: live tokens name it) is neither logged out nor expired. */
  function sessionIsLive(sessionId: number): Promise<boolean> {
    return isSessionLive(db, sessionId, nowSec());
  }

  return {
    login,
    checkSession,
    checkTrader,
    logout,
    onSessionEnded,
    forgetSession,
    isSessionLive: sessionIsLive,
  };
}
