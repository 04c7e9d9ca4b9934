import { describe, expect, it } from 'vitest';
import { burnVerification, hashPassword, verifyPassword } from './password.ts';

const FAST = { N: 1024, r: 8, p: 1 };

describe('hashPassword / verifyPassword', () => {
  it('encodes scrypt$N$r$p$salt$hash with the default cost', async () => {
    const encoded = await hashPassword('demo1234');
    const parts = encoded.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(parts[4] ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(parts[5] ?? '', 'base64url')).toHaveLength(64);
    expect(await verifyPassword('demo1234', encoded)).toBe(true);
  });

  it('salts every hash', async () => {
    const a = await hashPassword('same', FAST);
    const b = await hashPassword('same', FAST);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('rejects a wrong password, case included', async () => {
    const encoded = await hashPassword('Secret', FAST);
    expect(await verifyPassword('secret', encoded)).toBe(false);
    expect(await verifyPassword('', encoded)).toBe(false);
    expect(await verifyPassword('Secret ', encoded)).toBe(false);
  });

  it('verifies with the parameters stored in the hash', async () => {
    const encoded = await hashPassword('pw', { N: 2048, r: 4, p: 2 });
    expect(encoded.startsWith('scrypt$2048$4$2$')).toBe(true);
    expect(await verifyPassword('pw', encoded)).toBe(true);
  });

  it('treats unicode in a canonical form', async () => {
    const encoded = await hashPassword('caf\u00e9', FAST);
    expect(await verifyPassword('cafe\u0301', encoded)).toBe(true);
  });

  it.each([
    '',
    'plain',
    'bcrypt$10$abc',
    'scrypt$16384$8$1$$',
    'scrypt$1000$8$1$c2FsdA$aGFzaA', // N not a power of two
    'scrypt$1073741824$8$1$c2FsdA$aGFzaA', // N absurdly large
    'scrypt$x$8$1$c2FsdA$aGFzaA',
  ])('answers false for the malformed hash %j', async (encoded) => {
    expect(await verifyPassword('pw', encoded)).toBe(false);
  });

  it('spends a verification for unknown users without failing', async () => {
    await expect(burnVerification('anything')).resolves.toBeUndefined();
  });
});
