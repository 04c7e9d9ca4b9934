import type { GatewayPolicy } from './hub.ts';
import { verifyLiveToken } from './jwt.ts';
import { ERROR } from './protocol.ts';

export type PolicyOptions = {
  secret: string;
  now: () => number;
  /** Is this a known instrument (its channel `public:{symbol}` exists)? */
  isKnownSymbol: (symbol: string) => boolean;
};

/**
 * Who may do what on the live gateway: anyone may connect (anonymous without a token)
 * and subscribe to the public price channels of known instruments; a connect token
 * identifies a user; other channels need a subscription token minted for that channel
 * and that user. A token's `exp` is how long what it grants lasts (the client refreshes it
 * before then); an expired token is refused with 109 so that the client gets a new one.
 */
export function createGatewayPolicy({ secret, now, isKnownSymbol }: PolicyOptions): GatewayPolicy {
  const nowSeconds = () => Math.floor(now() / 1000);
  return {
    async authenticate(token) {
      if (token === undefined || token === '') return { userId: null, expiresAt: null };
      const result = verifyLiveToken(token, secret, nowSeconds());
      if (!result.ok) return result.reason === 'expired' ? ERROR.tokenExpired : ERROR.unauthorized;
      const userId = Number(result.claims.sub);
      if (!Number.isInteger(userId)) return ERROR.unauthorized;
      return { userId, expiresAt: result.claims.exp };
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
      return { expiresAt: result.claims.exp };
    },
  };
}
