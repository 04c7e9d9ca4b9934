import crypto from 'node:crypto';

/** scrypt cost parameters; stored in every hash so they can be raised later. */
export type ScryptParams = { N: number; r: number; p: number };

/** About 50 ms and 16 MiB per hash on a laptop: OWASP's minimum for scrypt. */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
// Refuse absurd parameters in a stored hash rather than exhaust memory verifying it.
const MAX_N = 2 ** 20;

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...params, maxmem: 256 * params.N * params.r * params.p + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** Hashes a password as `scrypt$N$r$p$<salt base64url>$<hash base64url>` with a random salt. */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
): Promise<string> {
  const salt = crypto.randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, params);
  return [
    'scrypt',
    params.N,
    params.r,
    params.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

type Decoded = { params: ScryptParams; salt: Buffer; key: Buffer };

function decode(encoded: string): Decoded | null {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((v) => Number(v));
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  const valid =
    N !== undefined &&
    r !== undefined &&
    p !== undefined &&
    [N, r, p].every((v) => Number.isSafeInteger(v) && v > 0) &&
    N <= MAX_N &&
    (N & (N - 1)) === 0 &&
    salt.length > 0 &&
    key.length > 0;
  return valid ? { params: { N, r, p }, salt, key } : null;
}

/** True when `password` matches `encoded`; false for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const decoded = decode(encoded);
  if (!decoded) return false;
  const key = await scrypt(password, decoded.salt, decoded.params);
  return key.length === decoded.key.length && crypto.timingSafeEqual(key, decoded.key);
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the time of one verification without a user, so that an unknown email answers
 * as slowly as a wrong password and does not reveal which accounts exist.
 */
export async function burnVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword('not a password of anyone');
  await verifyPassword(password, await dummyHash);
}
