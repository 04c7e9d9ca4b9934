import type { Command } from './protocol.ts';

/** A token bucket: `burst` commands at once, refilled at `perSecond` (fractions allowed). */
export type Budget = { burst: number; perSecond: number };

/**
 * What one connection may send, as Centrifugo PRO's per-connection command rate limits: every
 * command (pongs included) takes from `total`, and a command of a limited kind from its own
 * bucket too. A kind's budget follows its cost: `refresh` and `sub_refresh` verify a JWT and
 * look the login session up in the database, a public `subscribe` is a set insertion.
 */
export type CommandLimits = {
  total: Budget;
  subscribe: Budget;
  unsubscribe: Budget;
  refresh: Budget;
  sub_refresh: Budget;
  /** Methods the gateway does not serve (publish, rpc, history …: answered 104). */
  other: Budget;
};

/**
 * Generous for the official client: it sends `connect` and one `subscribe` per subscription
 * in one message when it (re)connects (at most 256 channels), `refresh` once per connect
 * token (2 minutes) and `sub_refresh` once per subscription token, a pong per ping (25 s).
 */
export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  total: { burst: 600, perSecond: 100 },
  subscribe: { burst: 300, perSecond: 20 },
  unsubscribe: { burst: 300, perSecond: 20 },
  refresh: { burst: 10, perSecond: 0.2 },
  sub_refresh: { burst: 50, perSecond: 1 },
  other: { burst: 20, perSecond: 2 },
};

/**
 * Commands over budget a connection may send (each answered 111) before it is disconnected
 * with 3013: a client that overshoots now and then keeps its connection, a flood ends it.
 */
export const DEFAULT_REFUSALS: Budget = { burst: 20, perSecond: 0.1 };

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly budget: Budget,
    now: number,
  ) {
    this.tokens = budget.burst;
    this.at = now;
  }

  /** Takes one token if there is one (after refilling for the time since the last take). */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.at) / 1000;
    this.tokens = Math.min(this.budget.burst, this.tokens + elapsed * this.budget.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

type LimitedKind = Exclude<keyof CommandLimits, 'total'>;

/** The bucket a command draws from besides `total`; null for connect and pongs. */
function kindOf(command: Command): LimitedKind | null {
  const methods = Object.keys(command).filter((key) => key !== 'id');
  if (methods.length !== 1) return null; // a pong, or malformed: handled (closed) later
  const [method] = methods;
  switch (method) {
    case 'connect':
      return null; // once per connection: a second one is a bad request
    case 'subscribe':
    case 'unsubscribe':
    case 'refresh':
    case 'sub_refresh':
      return method;
    default:
      return 'other';
  }
}

/** One connection's buckets. */
export class CommandBudget {
  private readonly total: TokenBucket;
  private readonly kinds: Record<LimitedKind, TokenBucket>;

  constructor(limits: CommandLimits, now: number) {
    this.total = new TokenBucket(limits.total, now);
    this.kinds = {
      subscribe: new TokenBucket(limits.subscribe, now),
      unsubscribe: new TokenBucket(limits.unsubscribe, now),
      refresh: new TokenBucket(limits.refresh, now),
      sub_refresh: new TokenBucket(limits.sub_refresh, now),
      other: new TokenBucket(limits.other, now),
    };
  }

  /** Whether this command is within budget (it then takes its tokens). */
  admit(command: Command, now: number): boolean {
    if (!this.total.take(now)) return false;
    const kind = kindOf(command);
    return kind === null || this.kinds[kind].take(now);
  }
}
