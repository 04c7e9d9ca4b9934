import { describe, expect, it } from 'vitest';
import { QUANTITY_MESSAGES } from './quantity.ts';
import { exitPriceFromTicks } from './price-rules.ts';
import {
  checkTicket,
  DEFAULT_EXIT_TICKS,
  exitRange,
  nearestExitPrice,
  startingEditExitPrice,
  startingExitTicks,
  validateExitPrice,
  type TicketInput,
} from './ticket.ts';

const BTC = { vol_limit_min: 0.01, vol_limit_max: 100, min_limit_ov: 0.01, max_limit_ov: 100 };
const QUOTE = { bid: 99.9, ask: 100 };

const ticket = (overrides: Partial<TicketInput> = {}): TicketInput => ({
  side: 'buy',
  orderType: 'market',
  quantity: 1,
  limitPrice: null,
  quote: QUOTE,
  hasAccount: true,
  terms: BTC,
  tick: 0.1,
  tp: null,
  sl: null,
  ...overrides,
});

describe('order ticket check', () => {
  it('a market buy references the ask, a sell the bid', () => {
    expect(checkTicket(ticket()).reference).toBe(100);
    expect(checkTicket(ticket({ side: 'sell' })).reference).toBe(99.9);
    expect(checkTicket(ticket()).canPlace).toBe(true);
  });

  it.each<[string, Partial<TicketInput>]>([
    ['no quote', { quote: null }],
    ['no price on the side', { quote: { bid: 99.9, ask: null } }],
    ['no account', { hasAccount: false }],
    ['quantity 0', { quantity: 0 }],
    ['quantity empty', { quantity: null }],
    ['quantity off step', { quantity: 0.015 }],
    ['quantity above max', { quantity: 101 }],
    ['limit price 0', { orderType: 'limit', limitPrice: 0 }],
    ['limit price empty', { orderType: 'limit', limitPrice: null }],
    ['limit price below the band', { orderType: 'limit', limitPrice: 79.9 }],
    ['limit price in the gap under the reference', { orderType: 'limit', limitPrice: 99.95 }],
    ['limit price above the band', { orderType: 'limit', limitPrice: 120.1 }],
    ['limit price off the tick', { orderType: 'limit', limitPrice: 95.05 }],
    ['a TP out of range', { tp: 100.05 }],
    ['a TP on the wrong side', { tp: 99 }],
    ['an SL out of range', { sl: 130 }],
    ['a TP not set yet (empty)', { tp: Number.NaN }],
  ])('the place button is disabled with %s', (_name, overrides) => {
    expect(checkTicket(ticket(overrides)).canPlace).toBe(false);
  });

  it('names the quantity rule that is broken', () => {
    expect(checkTicket(ticket({ quantity: 0 })).quantityError).toBe(QUANTITY_MESSAGES.notPositive);
    expect(checkTicket(ticket({ quantity: 0.001 })).quantityError).toBe(
      QUANTITY_MESSAGES.belowMin(0.01, 0.01),
    );
    // without instrument data only quantity > 0 counts
    expect(checkTicket(ticket({ terms: null, quantity: 0.0001 })).quantityError).toBeNull();
  });

  it('a limit order is measured from its price and checked against the band', () => {
    const inside = checkTicket(ticket({ orderType: 'limit', limitPrice: 95 }));
    expect(inside).toMatchObject({ orderPrice: 95, priceError: null, canPlace: true });
    const outside = checkTicket(ticket({ orderType: 'limit', limitPrice: 79.9 }));
    expect(outside.priceError).toBe(
      'Limit price must be between 80.0 and 99.9 (below the market) or between 100.1 and 120.0 (above the market)',
    );
    const sell = checkTicket(ticket({ side: 'sell', orderType: 'limit', limitPrice: 121 }));
    expect(sell.priceError).toBe(
      'Limit price must be between 80.0 and 99.8 (below the market) or between 100.0 and 119.8 (above the market)',
    );
  });

  it('checks TP and SL against the order price by side', () => {
    expect(checkTicket(ticket({ tp: 101, sl: 99 })).canPlace).toBe(true);
    expect(checkTicket(ticket({ tp: 99 })).tpError).toBe(
      'TP price must be between 100.1 and 120.0',
    );
    expect(checkTicket(ticket({ side: 'sell', sl: 99 })).slError).toBe(
      'SL price must be between 100.0 and 119.8',
    );
  });
});

describe('exit ranges and the nearest allowed level', () => {
  it('TP above and SL below a buy; the reverse for a sell', () => {
    expect(exitRange('tp', 'buy', 100, 0.1)).toEqual({ min: 100.1, max: 120 });
    expect(exitRange('sl', 'buy', 100, 0.1)).toEqual({ min: 80, max: 99.9 });
    expect(nearestExitPrice('tp', 'buy', 100, 0.1)).toBe(100.1);
    expect(nearestExitPrice('sl', 'buy', 100, 0.1)).toBe(99.9);
    expect(nearestExitPrice('tp', 'sell', 100, 0.1)).toBe(99.9);
    expect(nearestExitPrice('sl', 'sell', 100, 0.1)).toBe(100.1);
  });
});

describe('where the edit panel starts a TP or SL that was not set', () => {
  it('the default 10 ticks beyond the nearest allowed level, not on its edge', () => {
    // open 5000, tick 0.5: TP range 5005.0–6000.0, SL 4000.0–4995.0
    expect(startingEditExitPrice('tp', 'buy', 5000, 0.5)).toBe(5010);
    expect(startingEditExitPrice('sl', 'buy', 5000, 0.5)).toBe(4990);
    expect(startingEditExitPrice('tp', 'sell', 5000, 0.5)).toBe(4990);
    expect(startingEditExitPrice('sl', 'sell', 5000, 0.5)).toBe(5010);
    const start = startingEditExitPrice('tp', 'buy', 5000, 0.5);
    expect(validateExitPrice('tp', 'buy', 5000, start, 0.5)).toBeNull();
  });

  it('counts from the market when it has passed that level', () => {
    // a buy closes at the bid: at 5100 a TP below it would fire at once
    expect(startingEditExitPrice('tp', 'buy', 5000, 0.5, 5100)).toBe(5105);
    // the market not past the level changes nothing
    expect(startingEditExitPrice('tp', 'buy', 5000, 0.5, 5001)).toBe(5010);
    // a sell's SL above the ask 5200.2 (snapped outwards to 5200.5)
    expect(startingEditExitPrice('sl', 'sell', 5000, 0.5, 5200.2)).toBe(5205.5);
  });

  it('stays inside the range', () => {
    expect(startingEditExitPrice('tp', 'buy', 5000, 0.5, 5999)).toBe(6000);
    // open 1, tick 0.05: the range 1.05–1.20 is narrower than 10 ticks: its far end
    expect(startingEditExitPrice('tp', 'buy', 1, 0.05)).toBe(1.2);
  });
});

describe('where an enabled TP or SL starts', () => {
  it('at the default 10 ticks when that level is allowed', () => {
    // 10 ticks of 1 from 100 is 110: inside 100.1–120
    expect(startingExitTicks('tp', 'buy', 100, 1)).toBe(DEFAULT_EXIT_TICKS);
    expect(startingExitTicks('sl', 'sell', 100, 1)).toBe(DEFAULT_EXIT_TICKS);
  });

  it.each([
    ['tp', 'buy'],
    ['sl', 'buy'],
    ['tp', 'sell'],
    ['sl', 'sell'],
  ] as const)(
    'a %s of a %s at the nearest allowed level when 10 ticks are too close',
    (kind, side) => {
      // EURUSD: 10 ticks of 0.00001 from 1.29904 lie inside 0.1 % of the price
      const [price, tick] = [1.29904, 0.00001];
      expect(
        validateExitPrice(
          kind,
          side,
          price,
          exitPriceFromTicks(kind, side, price, DEFAULT_EXIT_TICKS, tick),
          tick,
        ),
      ).not.toBeNull();
      const ticks = startingExitTicks(kind, side, price, tick);
      const level = exitPriceFromTicks(kind, side, price, ticks, tick);
      expect(level).toBe(nearestExitPrice(kind, side, price, tick));
      expect(validateExitPrice(kind, side, price, level, tick)).toBeNull();
    },
  );

  it('stays allowed from an order price off the tick grid', () => {
    const ticks = startingExitTicks('tp', 'buy', 100.05, 0.1);
    expect(validateExitPrice('tp', 'buy', 100.05, 100.05 + ticks * 0.1, 0.1)).toBeNull();
  });
});
