import type { Trader, User } from '@ct/domain';

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
