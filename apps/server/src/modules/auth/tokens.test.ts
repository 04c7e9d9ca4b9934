import { describe, expect, it } from 'vitest';
import { hashToken, looksLikeToken, newToken } from './tokens.ts';

describe('tokens', () => {
  it('are 256 random bits in base64url', () => {
    const tokens = new Set(Array.from({ length: 100 }, newToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(looksLikeToken(token)).toBe(true);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as a SHA-256 hex digest', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it.each([undefined, '', 'short', 'x'.repeat(44), `${'a'.repeat(42)}=`, 42])(
    'refuses %j by shape',
    (value) => {
      expect(looksLikeToken(value)).toBe(false);
    },
  );
});
