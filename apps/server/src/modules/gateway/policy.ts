import { toEpochSec } from '@ct/domain';
import type { GatewayPolicy } from './hub.ts';
import { type LiveClaims, verifyLiveToken } from './jwt.ts';
import { ERROR } from './protocol.ts';

export type PolicyOptions = {
  secret: string;
  now: () => number;
  /** Is this a known instrument (its channel `public:{symbol}` exists)? */
  isKnownSymbol: (symbol: string) => boolean;
  /**
   * Is this login session still live (not logged out, not expired)? Asked for every token
   * that names one (`sid`): on connect, refresh, subscribe and subscription refresh. Absent:
   * tokens are checked by signature and expiry only.
   */
  isSessionLive?: (sessionId: number) => Promise<boolean>;
};

/**
 * Who may do what on the live gateway: anyone may connect (anonymous without a token)
 * and subscribe to the public price channels of known instruments; a connect token
 * identifies a user; other channels need a subscription token minted for that channel
 * and that user. A token's `exp` is how long what it grants lasts (the client refreshes it
 * before then); an expired token is refused with 109 so that the client gets a new one.
 */
export function createGatewayPolicy({
  secret,
  now,
  isKnownSymbol,
  isSessionLive,
}: PolicyOptions): GatewayPolicy {
  const nowSeconds = () => toEpochSec(now());
  /**
   * The session a token is tied to: its id; null when it names none; 'ended' when it names
   * one that is over (answered like an expired token: the client asks for a new one, which
   * only a live session gets).
   */
  async function sessionOf(claims: LiveClaims): Promise<number | null | 'ended' | 'invalid'> {
    if (claims.sid === undefined) return null;
    const sessionId = Number(claims.sid);
    if (!Number.isSafeInteger(sessionId)) return 'invalid';
    if (isSessionLive && !(await isSessionLive(sessionId))) return 'ended';
    return sessionId;
  }
  return {
    async authenticate(token) {
      if (token === undefined || token === '') return { userId: null, expiresAt: null };
      const result = verifyLiveToken(token, secret, nowSeconds());
      if (!result.ok) return result.reason === 'expired' ? ERROR.tokenExpired : ERROR.unauthorized;
      const userId = Number(result.claims.sub);
      if (!Number.isInteger(userId)) return ERROR.unauthorized;
      const sessionId = await sessionOf(result.claims);
      if (sessionId === 'invalid') return ERROR.unauthorized;
      if (sessionId === 'ended') return ERROR.tokenExpired;
      return { userId, expiresAt: result.claims.exp, sessionId };
    },
    async authorize(identity, channel, token) {
      if (channel.startsWith('public:')) {
        return isKnownSymbol(channel.slice('public:'.length))
          ? { expiresAt: null }
          : ERROR.unknownChannel;
      }
      if (identity.userId === null || !token) return ERROR.permissionDenied;
      const result = verifyLiveToken(token, secret, nowSeconds());
      if (!result.ok)
        return result.reason === 'expired' ? ERROR.tokenExpired : ERROR.permissionDenied;
      if (result.claims.channel !== channel || result.claims.sub !== String(identity.userId)) {
        return ERROR.permissionDenied;
      }
      const sessionId = await sessionOf(result.claims);
      if (sessionId === 'invalid') return ERROR.permissionDenied;
      if (sessionId === 'ended') return ERROR.tokenExpired;
      return { expiresAt: result.claims.exp, sessionId };
    },
  };
}
