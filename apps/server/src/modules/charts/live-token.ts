import { chartsChannel, type LiveToken } from '@ct/domain';
import { mintSessionTokens, type TokenSession } from '../gateway/session-tokens.ts';

/**
 * Tokens for the user's private drawing channel: a connection token for the user and a
 * subscription token bound to `charts:{userId}`, both ending with the login session like the
 * account channel's (gateway/session-tokens.ts).
 */
export function mintChartsLiveToken(
  secret: string,
  session: TokenSession,
  nowMs: number,
): LiveToken {
  const channel = chartsChannel(session.userId);
  return { ...mintSessionTokens(secret, session, channel, nowMs), channel };
}
