import { describe, expect, it } from 'vitest';
import {
  accountEventSchema,
  closeRequestSchema,
  openOrderRequestSchema,
  pendingDelRequestSchema,
  pendingOrderRequestSchema,
  tpslRequestSchema,
  tradingPageQuerySchema,
} from './schemas.ts';

const creds = { uuid: 'u-1', token: 't' };

describe('order requests', () => {
  it('reads numbers also from numeric strings and leaves bad ones to the rules (NaN)', () => {
    const parsed = openOrderRequestSchema.parse({
      ...creds,
      symbol: ' XAUUSD ',
      cmd: '2',
      volume: '0.5',
      tp: '1990',
      channel: 1,
      device: 1,
      comment: 'hi',
    });
    expect(parsed).toMatchObject({ symbol: 'XAUUSD', cmd: 2, volume: 0.5, tp: 1990, sl: 0 });
    expect(
      openOrderRequestSchema.parse({ ...creds, symbol: 'X', cmd: 1, volume: 'abc' }).volume,
    ).toBeNaN();
    expect(
      openOrderRequestSchema.parse({ ...creds, symbol: 'X', cmd: 1, volume: '' }).volume,
    ).toBeNaN();
  });

  it.each([
    [{ cmd: 3 }, 'cmd: cmd must be 1 (buy) or 2 (sell)'],
    [{ cmd: 'buy' }, 'cmd: cmd must be 1 (buy) or 2 (sell)'],
    [{ volume: true }, 'volume'],
    [{ volume: undefined }, 'volume'],
    [{ symbol: '' }, 'symbol'],
    [{ clientOrderId: 'x'.repeat(65) }, 'clientOrderId'],
    [{ tp: {} }, 'tp'],
  ])('refuses %o', (change, field) => {
    const result = openOrderRequestSchema.safeParse({
      ...creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 1,
      ...change,
    });
    expect(result.success).toBe(false);
    const text = result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    expect(text).toContain(field);
  });

  it('defaults the time in force to GTC and accepts gfd in any case', () => {
    const base = { ...creds, symbol: 'XAUUSD', cmd: 1, volume: 1, pendPrice: 1990 };
    expect(pendingOrderRequestSchema.parse(base).expireType).toBe('GTC');
    expect(pendingOrderRequestSchema.parse({ ...base, expireType: 'gfd' }).expireType).toBe('GFD');
    expect(pendingOrderRequestSchema.safeParse({ ...base, expireType: 'IOC' }).success).toBe(false);
  });

  it('reads order ids as digits, from numbers or strings', () => {
    expect(closeRequestSchema.parse({ ...creds, orderId: 12, volume: 1 })).toMatchObject({
      orderId: '12',
      closeTypeYT: 0,
    });
    expect(pendingDelRequestSchema.parse({ ...creds, pId: '007' }).pId).toBe('7');
    for (const bad of ['abc', '0', '-1', '1.5', '1234567890123456', 1.5, -3]) {
      expect(tpslRequestSchema.safeParse({ ...creds, orderId: bad }).success).toBe(false);
    }
    expect(
      closeRequestSchema.safeParse({ ...creds, orderId: 1, volume: 1, closeTypeYT: 3 }).success,
    ).toBe(false);
  });

  it('treats an absent, null or 0 TP/SL as not set', () => {
    expect(tpslRequestSchema.parse({ ...creds, orderId: 1 })).toMatchObject({ tp: 0, sl: 0 });
    expect(tpslRequestSchema.parse({ ...creds, orderId: 1, tp: null, sl: '0' })).toMatchObject({
      tp: 0,
      sl: 0,
    });
  });
});

describe('paging', () => {
  it('starts at the newest (-1) with 100 rows unless told', () => {
    expect(tradingPageQuerySchema.parse({ ...creds, _t: '1' })).toMatchObject({
      lastSortId: -1,
      limit: 100,
    });
    expect(tradingPageQuerySchema.parse({ ...creds, lastSortId: '40', limit: '5' })).toMatchObject({
      lastSortId: 40,
      limit: 5,
    });
    expect(tradingPageQuerySchema.safeParse({ ...creds, limit: '501' }).success).toBe(false);
    expect(tradingPageQuerySchema.safeParse({ ...creds, lastSortId: 'x' }).success).toBe(false);
  });
});

describe('account events', () => {
  it('parses each event type and refuses unknown ones', () => {
    const base = { uuid: 'u', symbol: 'XAUUSD', at: 1 };
    expect(
      accountEventSchema.parse({ ...base, type: 'pending_filled', pId: '1', orderId: '2' }).type,
    ).toBe('pending_filled');
    expect(
      accountEventSchema.safeParse({
        ...base,
        type: 'position_closed',
        orderId: '1',
        tradeId: '2',
        volume: 1,
        full: true,
        closeReason: 1,
      }).success,
    ).toBe(true);
    expect(accountEventSchema.safeParse({ ...base, type: 'margin_call' }).success).toBe(false);
  });
});
