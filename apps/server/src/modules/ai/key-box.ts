import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the server's own key lives when SETTINGS_ENCRYPTION_KEY is not set. */
export const KEY_FILE_NAME = 'settings-encryption.key';

const VERSION = 'v1';
const IV_BYTES = 12;

/** Thrown when a stored secret cannot be opened (another server key, or altered data). */
export class SealedSecretError extends Error {}

/**
 * Encrypts secrets at rest with AES-256-GCM. The associated data (e.g. `user:42`) binds a
 * sealed value to its row: a value copied to another user's row does not open. The server
 * key comes from a setting, or from a random key file in the data directory, made with
 * mode 0600 on first use.
 */
export class KeyBox {
  private key: Buffer | null = null;

  constructor(private readonly source: { secret: string | null; dataDir: string }) {}

  private serverKey(): Buffer {
    if (this.key) return this.key;
    if (this.source.secret !== null) {
      this.key = createHash('sha256').update(this.source.secret, 'utf8').digest();
      return this.key;
    }
    this.key = readOrCreateKeyFile(path.join(this.source.dataDir, KEY_FILE_NAME));
    return this.key;
  }

  /** `v1:<iv>:<tag>:<ciphertext>`, base64url parts. */
  seal(plain: string, associated: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.serverKey(), iv);
    cipher.setAAD(Buffer.from(associated, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, ...parts].join(':');
  }

  open(sealed: string, associated: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new SealedSecretError('unknown sealed format');
    }
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        this.serverKey(),
        Buffer.from(iv, 'base64url'),
      );
      decipher.setAAD(Buffer.from(associated, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SealedSecretError('the stored secret does not open with this server key');
    }
  }
}

function readOrCreateKeyFile(file: string): Buffer {
  try {
    return decodeKeyFile(fs.readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  try {
    // 'wx': two processes starting at once must not overwrite each other's key
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return decodeKeyFile(fs.readFileSync(file, 'utf8'), file);
  }
}

function decodeKeyFile(text: string, file: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}
