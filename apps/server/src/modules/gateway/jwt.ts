import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HS256 JSON Web Tokens, the connection and subscription tokens of Centrifugo's model:
 * `sub` is the user id, `exp` the expiry in epoch seconds, `channel` binds a subscription
 * token to one channel, `sid` (ours; Centrifugo ignores it) is the login session that
 * minted the token: the token ends with that session.
 */
export type LiveClaims = { sub: string; exp: number; channel?: string; sid?: string };

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export function signLiveToken(claims: LiveClaims, secret: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

export type VerifyResult =
  { ok: true; claims: LiveClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** Verifies signature, algorithm and expiry (`nowSeconds`). */
export function verifyLiveToken(token: string, secret: string, nowSeconds: number): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'invalid' };
  }
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: unknown };
    if (head.alg !== 'HS256') return { ok: false, reason: 'invalid' };
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Partial<LiveClaims>;
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') {
      return { ok: false, reason: 'invalid' };
    }
    if (claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      claims: {
        sub: claims.sub,
        exp: claims.exp,
        ...(typeof claims.channel === 'string' ? { channel: claims.channel } : {}),
        ...(typeof claims.sid === 'string' ? { sid: claims.sid } : {}),
      },
    };
  } catch {
    return { ok: false, reason: 'invalid' };
  }
}
