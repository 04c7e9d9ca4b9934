import type { Clock } from './rate-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

const MINUTE = 60_000;

export type LoginLimits = {
  /** The window failures are counted in. */
  windowMs: number;
  /** Failures of one account from one address before that pair is refused. */
  pairFailures: number;
  /** Failures from one address (any accounts) before the address is refused. */
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
};

/**
 * The spacing an account's next attempt keeps from this one, when this one is its
 * `failures`-th counted failure in the window: none up to `freeAccountFailures - 1`, then
 * `firstDelayMs` doubling per failure, at most `maxDelayMs` (1, 2, 4, 8, 16, 30 s).
 */
export function accountSpacingMs(failures: number, limits: LoginLimits = LOGIN_LIMITS): number {
  if (failures < limits.freeAccountFailures) return 0;
  const doublings = Math.min(failures - limits.freeAccountFailures, 30);
  return Math.min(limits.firstDelayMs * 2 ** doublings, limits.maxDelayMs);
}

/** An attempt that may go ahead after `waitMs`; it counts as a failure unless it succeeds. */
export type LoginAttempt = {
  waitMs: number;
  /** The password was right: forgets the account's failures and this attempt's. */
  succeeded(): Promise<void>;
};

export type LoginDecision =
  { refused: false; attempt: LoginAttempt } | { refused: true; retryAfterMs: number };

/**
 * Login limits that slow guessing without handing an attacker a lockout of the owner:
 * - per account and address: `pairFailures` in the window, then that address is refused
 *   for that account until the window passes (the guesser's own address, not the owner's);
 * - per address: `addressFailures` over any accounts, then the address is refused;
 * - per account, across addresses: after `freeAccountFailures`, attempts take turns spaced
 *   by a doubling delay (`accountSpacingMs`); an attempt is held until its turn, and refused
 *   only when its turn is more than `maxWaitMs` away (Retry-After at most that). An address
 *   the account logged in from recently takes no turn.
 * A success clears the account's failures and turns (not the address's other failures).
 * An attempt counts as a failure when it starts, so parallel guesses cannot slip through
 * while passwords are being hashed; a refused one is not counted.
 */
export class LoginThrottle {
  constructor(
    private readonly store: RateLimitStore,
    private readonly now: Clock,
    private readonly limits: LoginLimits = LOGIN_LIMITS,
  ) {}

  async begin(email: string, address: string): Promise<LoginDecision> {
    const { windowMs, pairFailures, addressFailures } = this.limits;
    const at = this.now();
    const pairKey = `login:pair:${email}\n${address}`;
    const addressKey = `login:address:${address}`;
    const accountKey = `login:account:${email}`;
    const knownKey = `login:known:${email}\n${address}`;
    const pairCount = await this.store.hit(pairKey, at, windowMs);
    const addressCount = await this.store.hit(addressKey, at, windowMs);
    const undo = async () => {
      await this.store.unhit(pairKey, at);
      await this.store.unhit(addressKey, at);
    };
    if (pairCount > pairFailures || addressCount > addressFailures) {
      await undo();
      const retryAfterMs = Math.max(
        await this.blockedForMs(pairKey, pairFailures, at),
        await this.blockedForMs(addressKey, addressFailures, at),
      );
      return { refused: true, retryAfterMs: Math.max(1000, retryAfterMs) };
    }

    const accountCount = await this.store.hit(accountKey, at, windowMs);
    const known = (await this.store.events(knownKey, at, this.limits.knownAddressMs)).length > 0;
    let waitMs = 0;
    if (!known) {
      const spacing = accountSpacingMs(accountCount, this.limits);
      const turn = await this.store.takeTurn(accountKey, at, spacing, this.limits.maxWaitMs);
      if (turn === null) {
        await undo();
        await this.store.unhit(accountKey, at);
        return { refused: true, retryAfterMs: this.limits.maxWaitMs };
      }
      waitMs = turn - at;
    }
    return {
      refused: false,
      attempt: {
        waitMs,
        succeeded: async () => {
          await this.store.clear(pairKey);
          await this.store.clear(accountKey);
          await this.store.unhit(addressKey, at);
          await this.store.hit(knownKey, this.now(), this.limits.knownAddressMs);
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
