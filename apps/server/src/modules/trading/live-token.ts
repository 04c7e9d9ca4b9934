import { accountChannel, type LiveToken } from '@ct/domain';
import { signLiveToken } from '../gateway/jwt.ts';

/** Live tokens last this long; the centrifuge client asks again (getToken) before expiry. */
export const LIVE_TOKEN_TTL_SECONDS = 10 * 60;

/**
 * Tokens for the account's private live channel: a connection token for the user and a
 * subscription token bound to `account:{uuid}`. The route mints them only after checking
 * that the account belongs to the session's user.
 */
export function mintLiveToken(
  secret: string,
  userId: number,
  uuid: string,
  nowMs: number,
): LiveToken {
  const exp = Math.floor(nowMs / 1000) + LIVE_TOKEN_TTL_SECONDS;
  const channel = accountChannel(uuid);
  return {
    connectToken: signLiveToken({ sub: String(userId), exp }, secret),
    channel,
    subscriptionToken: signLiveToken({ sub: String(userId), exp, channel }, secret),
    expiresAt: exp,
  };
}
