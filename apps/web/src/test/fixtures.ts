import type { Bar, Deal, ReplayView, Trader, User } from '@ct/domain';

/** A trading account with overridable fields. */
export function buildTrader(overrides: Partial<Trader> = {}): Trader {
  return {
    uuid: 'acc-1',
    name: 'Main Account',
    level: 1,
    type: 1,
    token: 'tok-1',
    channel: 1,
    ...overrides,
  };
}

/** A user as login returns it, with two trading accounts unless overridden. */
export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 12,
    nick_name: 'alice',
    phone: '+1 555 0100',
    email: 'alice@example.com',
    country: 'United States',
    channel: 1,
    audit_status: 1,
    audit_remark: '',
    audit_at: 1_700_000_000,
    created_at: 1_690_000_000,
    updated_at: null,
    traders: [
      buildTrader(),
      buildTrader({ uuid: 'acc-2', name: 'Second Account', level: 2, type: 2, token: 'tok-2' }),
    ],
    ...overrides,
  };
}

/** A JSON fetch answer. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** 2026-01-05 00:00 UTC in seconds: where the replay fixtures start. */
export const REPLAY_T0 = Date.UTC(2026, 0, 5) / 1000;

/**
 * A replay session on BTCUSDT 1h at its start bar: an untouched 100,000 USD account, no trades
 * and no strategy, with overridable fields.
 */
export function buildReplayView(overrides: Partial<ReplayView> = {}): ReplayView {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    symbol_id: 'BTCUSDT',
    period: '1h',
    start: REPLAY_T0,
    cursor: REPLAY_T0,
    strategy_name: null,
    created_at: REPLAY_T0,
    updated_at: REPLAY_T0,
    last_bar: REPLAY_T0 + 3600,
    quote: { bid: 100, ask: 100.5 },
    account: {
      initial_balance: 100_000,
      balance: 100_000,
      floating: 0,
      equity: 100_000,
      margin: 0,
      free_margin: 100_000,
      currency: 'USD',
    },
    positions: [],
    pending: [],
    trades: [],
    fills: [],
    equity: [],
    evaluations: [],
    ...overrides,
  };
}

/** A closed winning trade of one lot, 2024-01-02 → 2024-01-03, 100 → 110. */
export function buildDeal(overrides: Partial<Deal> = {}): Deal {
  return {
    open_date: '2024/01/02 00:00:00',
    close_date: '2024/01/03 00:00:00',
    open_price: 100,
    close_price: 110,
    lots: 1,
    status: 'YES',
    profit: 10,
    commission: 0,
    start: 1_704_153_600,
    end: 1_704_240_000,
    qty: 1,
    ...overrides,
  };
}

/** `count` flat hourly bars (open and close 100, high 101, low 99, volume 1) from `start` (ms). */
export function hourlyBars(count: number, start: number): Bar[] {
  const hour = 3_600_000;
  return Array.from({ length: count }, (_, i) => ({
    time: start + i * hour,
    open: 100,
    high: 101,
    low: 99,
    close: 100,
    volume: 1,
  }));
}
