import type { Clock } from './rate-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { hashToken } from './tokens.ts';

const MINUTE = 60_000;

export type LoginLimits = {
  /** The window failures are counted in. */
  windowMs: number;
  /** Failures of one account from one address before that pair is refused (unknown devices). */
  pairFailures: number;
  /** Failures from one address (any accounts) before its attempts are spaced out. */
  addressFailures: number;
  /** Failures of one account (any addresses) before its attempts are spaced out. */
  freeAccountFailures: number;
  /** The first spacing; it doubles with each further failure up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** The longest an attempt is held for its turn; beyond, it is refused (Retry-After). */
  maxWaitMs: number;
  /** An address the account logged in from within this long skips the account's spacing. */
  knownAddressMs: number;
  /** Failures of a known device (device cookie) for its account before it is refused. */
  deviceFailures: number;
  /** A device cookie names a known device this long after the device's last login. */
  knownDeviceMs: number;
};

/** docs/api.md, Login limits. */
export const LOGIN_LIMITS: LoginLimits = {
  windowMs: 15 * MINUTE,
  pairFailures: 5,
  addressFailures: 20,
  freeAccountFailures: 5,
  firstDelayMs: 1000,
  maxDelayMs: 30_000,
  maxWaitMs: MINUTE,
  knownAddressMs: 30 * 24 * 60 * MINUTE,
  deviceFailures: 5,
  knownDeviceMs: 90 * 24 * 60 * MINUTE,
};

/**
 * The spacing a key's next attempt keeps from this one, when this one is its `failures`-th
 * counted failure in the window: none up to `free - 1`, then `firstDelayMs` doubling per
 * failure, at most `maxDelayMs` (1, 2, 4, 8, 16, 30 s).
 */
export function spacingMs(failures: number, free: number, limits: LoginLimits): number {
  if (failures < free) return 0;
  const doublings = Math.min(failures - free, 30);
  return Math.min(limits.firstDelayMs * 2 ** doublings, limits.maxDelayMs);
}

/** The account's spacing (`spacingMs` after `freeAccountFailures`). */
export function accountSpacingMs(failures: number, limits: LoginLimits = LOGIN_LIMITS): number {
  return spacingMs(failures, limits.freeAccountFailures, limits);
}

/** An attempt that may go ahead after `waitMs`; it counts as a failure unless it succeeds. */
export type LoginAttempt = {
  waitMs: number;
  /** Whether the attempt came from a known device of the account (its device cookie). */
  knownDevice: boolean;
  /**
   * The password was right: forgets this attempt's failures (and, from an unknown device,
   * the account's), and makes `device` (the device cookie's value) a known device of the
   * account.
   */
  succeeded(device: string): Promise<void>;
};

export type LoginDecision =
  { refused: false; attempt: LoginAttempt } | { refused: true; retryAfterMs: number };

/** The store's name for a device cookie (only its hash is kept). */
const deviceId = (device: string) => hashToken(device);

/**
 * Login limits that slow guessing without refusing the owner's right password for what
 * others did (OWASP's "slow down online guessing attacks with device cookies"):
 * - a **known device** (a device cookie the account logged in with before, within
 *   `knownDeviceMs`) is judged by its own failures only: `deviceFailures` in the window,
 *   then that device is refused for that account until the window passes. No address or
 *   account counter applies to it, and its attempts count toward none;
 * - an **unknown device**:
 *   - per account and address: `pairFailures` in the window, then that address is refused
 *     for that account until the window passes (the guesser's own address);
 *   - per address: after `addressFailures` over any accounts, the address's attempts take
 *     turns spaced by a doubling delay; never refused for the window (a shared address, one
 *     NAT, holds many users);
 *   - per account, across addresses: after `freeAccountFailures`, attempts take turns
 *     spaced by a doubling delay (`accountSpacingMs`); an address the account logged in
 *     from recently takes no such turn.
 *   An attempt is held until its turns come, and refused only when a turn is more than
 *   `maxWaitMs` away (Retry-After that long): a flood is going on right then.
 * A success forgets that attempt's own failures; from an unknown device it clears the
 * account's failures and turns too, and either way the device becomes a known device.
 * An attempt counts as a failure when it starts, so parallel guesses cannot slip through
 * while passwords are being hashed; a refused one is not counted.
 */
export class LoginThrottle {
  constructor(
    private readonly store: RateLimitStore,
    private readonly now: Clock,
    readonly limits: LoginLimits = LOGIN_LIMITS,
  ) {}

  /** `device`: the request's device cookie, when it sent one. */
  async begin(email: string, address: string, device?: string): Promise<LoginDecision> {
    const at = this.now();
    if (device !== undefined && (await this.isKnownDevice(email, device, at))) {
      return this.beginKnownDevice(email, device, at);
    }
    return this.beginUnknownDevice(email, address, at);
  }

  private knownDeviceKey(email: string, device: string): string {
    return `login:device:${email}\n${deviceId(device)}`;
  }

  private async isKnownDevice(email: string, device: string, at: number): Promise<boolean> {
    const key = this.knownDeviceKey(email, device);
    return (await this.store.events(key, at, this.limits.knownDeviceMs)).length > 0;
  }

  /** Marks `device` as a known device of the account (from now, for `knownDeviceMs`). */
  private async rememberDevice(email: string, device: string): Promise<void> {
    const key = this.knownDeviceKey(email, device);
    await this.store.hit(key, this.now(), this.limits.knownDeviceMs, 1);
  }

  private async beginKnownDevice(
    email: string,
    device: string,
    at: number,
  ): Promise<LoginDecision> {
    const { windowMs, deviceFailures } = this.limits;
    const failuresKey = `login:device-failures:${email}\n${deviceId(device)}`;
    const count = await this.store.hit(failuresKey, at, windowMs);
    if (count > deviceFailures) {
      await this.store.unhit(failuresKey, at);
      const retryAfterMs = await this.blockedForMs(failuresKey, deviceFailures, at);
      return { refused: true, retryAfterMs: Math.max(1000, retryAfterMs) };
    }
    return {
      refused: false,
      attempt: {
        waitMs: 0,
        knownDevice: true,
        succeeded: async (next) => {
          await this.store.clear(failuresKey);
          await this.rememberDevice(email, next);
        },
      },
    };
  }

  private async beginUnknownDevice(
    email: string,
    address: string,
    at: number,
  ): Promise<LoginDecision> {
    const { windowMs, pairFailures, addressFailures, maxWaitMs } = this.limits;
    const pairKey = `login:pair:${email}\n${address}`;
    const addressKey = `login:address:${address}`;
    const accountKey = `login:account:${email}`;
    const knownKey = `login:known:${email}\n${address}`;
    const pairCount = await this.store.hit(pairKey, at, windowMs);
    if (pairCount > pairFailures) {
      await this.store.unhit(pairKey, at);
      const retryAfterMs = await this.blockedForMs(pairKey, pairFailures, at);
      return { refused: true, retryAfterMs: Math.max(1000, retryAfterMs) };
    }
    const addressCount = await this.store.hit(addressKey, at, windowMs);
    const accountCount = await this.store.hit(accountKey, at, windowMs);
    const undo = async () => {
      await this.store.unhit(pairKey, at);
      await this.store.unhit(addressKey, at);
      await this.store.unhit(accountKey, at);
    };

    const addressSpacing = spacingMs(addressCount, addressFailures, this.limits);
    const addressTurn = await this.store.takeTurn(addressKey, at, addressSpacing, maxWaitMs);
    if (addressTurn === null) {
      await undo();
      return { refused: true, retryAfterMs: maxWaitMs };
    }
    let turn = addressTurn;
    const known = (await this.store.events(knownKey, at, this.limits.knownAddressMs)).length > 0;
    if (!known) {
      const accountSpacing = accountSpacingMs(accountCount, this.limits);
      const accountTurn = await this.store.takeTurn(accountKey, at, accountSpacing, maxWaitMs);
      if (accountTurn === null) {
        await undo();
        return { refused: true, retryAfterMs: maxWaitMs };
      }
      turn = Math.max(turn, accountTurn);
    }
    return {
      refused: false,
      attempt: {
        waitMs: turn - at,
        knownDevice: false,
        succeeded: async (next) => {
          await this.store.clear(pairKey);
          await this.store.clear(accountKey);
          await this.store.unhit(addressKey, at);
          await this.store.hit(knownKey, this.now(), this.limits.knownAddressMs);
          await this.rememberDevice(email, next);
        },
      },
    };
  }

  /** How long until the key holds fewer than `limit` events again. */
  private async blockedForMs(key: string, limit: number, now: number): Promise<number> {
    const list = await this.store.events(key, now, this.limits.windowMs);
    if (list.length < limit) return 0;
    const oldestThatCounts = list[list.length - limit] ?? now;
    return Math.max(1, oldestThatCounts + this.limits.windowMs - now);
  }
}
