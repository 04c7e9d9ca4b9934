import { describe, expect, it } from 'vitest';
import { exitTriggered, isPendingTriggered, pendingTriggerType } from './triggers.ts';

describe('pending order triggers', () => {
  it.each([
    // [side, price, reference, type]
    ['buy', 1990, 2000, 'limit'],
    ['buy', 2010, 2000, 'stop'],
    ['sell', 2010, 2000, 'limit'],
    ['sell', 1990, 2000, 'stop'],
  ] as const)('a %s at %s against %s is a %s order', (side, price, reference, type) => {
    expect(pendingTriggerType(side, price, reference)).toBe(type);
  });

  it.each([
    // [side, type, price, bid, ask, fills]
    ['buy', 'limit', 1990, 1989, 1990, true], // ask reached the price
    ['buy', 'limit', 1990, 1989.5, 1990.5, false],
    ['buy', 'limit', 1990, 1985, 1985.5, true], // gapped through: still fills
    ['buy', 'stop', 2010, 2009.5, 2010, true],
    ['buy', 'stop', 2010, 2009, 2009.5, false],
    ['sell', 'limit', 2010, 2010, 2010.5, true], // bid reached the price
    ['sell', 'limit', 2010, 2009.5, 2010, false], // the ask does not count for a sell
    ['sell', 'stop', 1990, 1990, 1990.5, true],
    ['sell', 'stop', 1990, 1990.5, 1991, false],
  ] as const)('%s %s at %s with %s/%s → %s', (side, type, price, bid, ask, fills) => {
    expect(isPendingTriggered(side, type, price, { bid, ask })).toBe(fills);
  });
});

describe('TP and SL triggers', () => {
  it.each([
    // [side, tp, sl, bid, ask, result]
    ['buy', 110, 90, 110, 110.5, 'tp'],
    ['buy', 110, 90, 109.99, 110.5, null], // a buy closes at the bid
    ['buy', 110, 90, 90, 90.5, 'sl'],
    ['buy', 110, 90, 95, 95.5, null],
    ['buy', 0, 90, 200, 200.5, null], // no TP set
    ['buy', 110, 0, 1, 1.5, null], // no SL set
    ['sell', 90, 110, 89, 90, 'tp'], // a sell closes at the ask
    ['sell', 90, 110, 89.5, 90.01, null],
    ['sell', 90, 110, 109.5, 110, 'sl'],
    ['sell', 90, 110, 105, 105.5, null],
  ] as const)('%s tp %s sl %s at %s/%s → %s', (side, tp, sl, bid, ask, result) => {
    expect(exitTriggered(side, { tp, sl }, { bid, ask })).toBe(result);
  });
});
