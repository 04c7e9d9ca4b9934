import { accountChannel, type LiveToken } from '@ct/domain';
import { mintSessionTokens, type TokenSession } from '../gateway/session-tokens.ts';

export { LIVE_TOKEN_TTL_SECONDS } from '../gateway/session-tokens.ts';

/**
 * Tokens for the account's private live channel: a connection token for the user and a
 * subscription token bound to `account:{uuid}`, both ending with the login session
 * (gateway/session-tokens.ts). The route mints them only after checking that the account
 * belongs to the session's user.
 */
export function mintLiveToken(
  secret: string,
  session: TokenSession,
  uuid: string,
  nowMs: number,
): LiveToken {
  const channel = accountChannel(uuid);
  return { ...mintSessionTokens(secret, session, channel, nowMs), channel };
}
