import crypto from 'node:crypto';

const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh secret: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return crypto.randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  // one-shot: every call of the API hashes its session cookie (and a trading call its token)
  return crypto.hash('sha256', token, 'hex');
}

/** Cheap shape check before touching the database. */
export function looksLikeToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}
