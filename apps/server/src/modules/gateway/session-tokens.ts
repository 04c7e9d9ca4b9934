import { toEpochSec } from '@ct/domain';
import { signLiveToken } from './jwt.ts';

/**
 * Live tokens last this long at most; the centrifuge client asks again (its `getToken`, an
 * HTTP call that needs a live session) before expiry. A logout reaches every node through
 * the broker at once; short tokens bound the case where that message was lost (the session
 * then stops its live data within this and the gateway's grace).
 */
export const LIVE_TOKEN_TTL_SECONDS = 2 * 60;

/** The login session tokens are minted for (modules/auth SessionAuth); `expiresAt` epoch s. */
export type TokenSession = { userId: number; sessionId: number; expiresAt: number };

export type SessionTokens = {
  connectToken: string;
  subscriptionToken: string;
  /** Epoch seconds. */
  expiresAt: number;
};

/**
 * A connect token for the session's user and a subscription token bound to `channel`, both
 * tied to the login session (`sid`: the gateway refuses them once it has ended, and a logout
 * closes what they opened) and never outliving it. Every route that hands out live tokens
 * mints them here, after checking that the channel is the session user's.
 */
export function mintSessionTokens(
  secret: string,
  session: TokenSession,
  channel: string,
  nowMs: number,
): SessionTokens {
  const exp = Math.min(toEpochSec(nowMs) + LIVE_TOKEN_TTL_SECONDS, session.expiresAt);
  const sub = String(session.userId);
  const sid = String(session.sessionId);
  return {
    connectToken: signLiveToken({ sub, exp, sid }, secret),
    subscriptionToken: signLiveToken({ sub, exp, channel, sid }, secret),
    expiresAt: exp,
  };
}
