import { describe, expect, it } from 'vitest';
import { openOrderRequestSchema, tradingPageQuerySchema } from '../trading/schemas.ts';
import {
  decimalInputSchema,
  freeTextSchema,
  identifierProblem,
  identifierSchema,
  integerInputSchema,
  storableJson,
  storableText,
} from './text.ts';

describe('identifierProblem', () => {
  it.each([
    ['BTCUSDT', null],
    ['My strategy (v2) é 𝄞', null],
    ['a\u0000b', 'must not contain control characters'],
    ['tab\there', 'must not contain control characters'],
    ['c1\u0085', 'must not contain control characters'],
    ['\ud800', 'must be valid Unicode text'],
    ['x\udc00', 'must be valid Unicode text'],
    ['evil\u202egnp.py', 'must not contain invisible or bidirectional control characters'],
    ['iso\u2066late', 'must not contain invisible or bidirectional control characters'],
    ['zero\u200bwidth', 'must not contain invisible or bidirectional control characters'],
    ['bom\ufeffinside', 'must not contain invisible or bidirectional control characters'],
  ])('%j → %s', (text, problem) => {
    expect(identifierProblem(text)).toBe(problem);
  });
});

describe('storableText and storableJson', () => {
  it('remove NUL and replace lone surrogates, keeping everything else', () => {
    expect(storableText('a\u0000b\u0000')).toBe('ab');
    expect(storableText('x\ud800y\udfffz')).toBe('x\ufffdy\ufffdz');
    expect(storableText('pair 😀 kept, tab\tand newline\n kept')).toBe(
      'pair 😀 kept, tab\tand newline\n kept',
    );
  });

  it('walk arrays, objects and keys; numbers, booleans and null stay', () => {
    expect(
      storableJson({ 'k\u0000': ['v\u0000', 1, null, true, { deep: '\udc00' }], n: 2.5 }),
    ).toEqual({ k: ['v', 1, null, true, { deep: '\ufffd' }], n: 2.5 });
  });
});

describe('schemas built on the rules', () => {
  it('identifierSchema trims, then refuses control characters with a readable issue', () => {
    expect(identifierSchema(8).parse('  ok  ')).toBe('ok');
    const bad = identifierSchema(8).safeParse('a\u0000');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('must not contain control characters');
  });

  it('freeTextSchema stores what it can', () => {
    expect(freeTextSchema(10).parse('a\u0000b')).toBe('ab');
    expect(freeTextSchema(2).safeParse('abc').success).toBe(false);
  });

  it.each([
    [5, 5],
    ['-1', -1],
    [' 42 ', 42],
    ['9007199254740991', 9007199254740991],
  ])('integerInputSchema accepts %j as %d', (input, value) => {
    expect(integerInputSchema('n').parse(input)).toBe(value);
  });

  it.each([
    [1e20, 'n must be between -9007199254740991 and 9007199254740991'],
    [2 ** 63, 'n must be between -9007199254740991 and 9007199254740991'],
    ['1e20', 'n must be an integer'],
    ['18446744073709551616', 'n must be between -9007199254740991 and 9007199254740991'],
    ['0x10', 'n must be an integer'],
    ['+1', 'n must be an integer'],
    ['1.5', 'n must be an integer'],
    ['', 'n must be an integer'],
  ])('integerInputSchema refuses %j', (input, message) => {
    const result = integerInputSchema('n').safeParse(input);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it.each([
    ['1', 1],
    ['0.5', 0.5],
    ['-2', -2],
    ['.5', 0.5],
    [3, 3],
  ])('decimalInputSchema reads %j as %d', (input, value) => {
    expect(decimalInputSchema().parse(input)).toBe(value);
  });

  it.each(['0b1', '0x1', '+1', '1e0', 'Infinity', '', ' ', '1,5', '0o7'])(
    'decimalInputSchema makes %j NaN (never 1)',
    (input) => {
      expect(decimalInputSchema().parse(input)).toBeNaN();
    },
  );
});

describe('the trading schemas use them', () => {
  const account = { uuid: 'u-1', token: 't' };

  it("an order's volume '0b1' is NaN, its comment loses its NUL, a NUL symbol is refused", () => {
    const parsed = openOrderRequestSchema.parse({
      ...account,
      symbol: 'BTCUSDT',
      cmd: 1,
      volume: '0b1',
      comment: 'hi\u0000',
    });
    expect(parsed.volume).toBeNaN();
    expect(parsed.comment).toBe('hi');
    expect(
      openOrderRequestSchema.safeParse({ ...account, symbol: 'BTC\u0000', cmd: 1, volume: 1 })
        .success,
    ).toBe(false);
  });

  it('lastSortId must be a safe integer', () => {
    expect(tradingPageQuerySchema.parse({ ...account, lastSortId: '-1' }).lastSortId).toBe(-1);
    expect(tradingPageQuerySchema.safeParse({ ...account, lastSortId: '1e20' }).success).toBe(
      false,
    );
    expect(tradingPageQuerySchema.safeParse({ ...account, lastSortId: 2 ** 63 }).success).toBe(
      false,
    );
  });
});
