import { describe, expect, it } from 'vitest';
import { constraintHolds, parseConstraint, type Constraint } from './constraint.ts';
import type { ParamValues, StrategyParam } from './params.ts';

const PARAMS: StrategyParam[] = [
  { name: 'n1', default: 10, kind: 'int' },
  { name: 'n2', default: 20, kind: 'int' },
  { name: 'x', default: 0.5, kind: 'float' },
  { name: 'mode', default: 'fast', kind: 'string' },
];

function parsed(text: string): Constraint {
  const result = parseConstraint(text, PARAMS);
  if (!result.ok) throw new Error(result.error);
  return result.constraint;
}

const holds = (text: string, values: ParamValues) => constraintHolds(parsed(text), values);
const base = { n1: 10, n2: 20, x: 0.5, mode: 'fast' };

describe('parseConstraint', () => {
  it('parses the example and lists the names it uses', () => {
    const constraint = parsed('n1 < n2 and n2 <= 4 * n1');
    expect(constraint.names).toEqual(['n1', 'n2']);
    expect(constraint.ast).toMatchObject({
      kind: 'and',
      left: { kind: 'compare', first: { kind: 'name', name: 'n1' }, rest: [{ op: '<' }] },
      right: {
        kind: 'compare',
        rest: [{ op: '<=', operand: { kind: 'arithmetic', op: '*' } }],
      },
    });
  });

  it.each([
    ['n1 < n3', 'unknown name n3 at position 6 (the parameters are: n1, n2, x, mode)'],
    ['n1 <', 'the expression ends too early (position 5)'],
    ['(n1 < n2', 'a ( at position 1 is not closed'],
    ['n1 < n2)', 'unexpected ) at position 8'],
    ['n1 = n2', 'use == to compare (position 4)'],
    ['n1 ** 2 > 3', '** is not supported (position 4)'],
    ['n1 < n2 && n2 < 9', 'use "and" instead of && (position 9)'],
    ['n1 < $', 'unexpected character "$" at position 6'],
    ['n1 and', 'the expression ends too early (position 7)'],
    ['__import__("os")', 'unexpected ( at position 11'],
    [
      '__import__ > 1',
      'unknown name __import__ at position 1 (the parameters are: n1, n2, x, mode)',
    ],
    ['n1.real > 1', 'unexpected character "." at position 3'],
    ['mode < 3', 'cannot compare text with a number using < (position 6)'],
    ['mode - 1 > 0', 'cannot use - on text (position 6)'],
    ['"a" < ', 'the expression ends too early (position 7)'],
    ['', 'must be an expression over the parameters'],
    ['1abc > 2', '1 is not a number (position 1)'],
    ['x < "open', 'a string is not closed (position 5)'],
  ])('refuses %j', (text, error) => {
    expect(parseConstraint(text, PARAMS)).toEqual({ ok: false, error });
  });

  it('bounds the length and the nesting', () => {
    expect(parseConstraint(`${'('.repeat(40)}n1${')'.repeat(40)} > 1`, PARAMS)).toMatchObject({
      ok: false,
      error: expect.stringContaining('nested more than 32 deep'),
    });
    expect(parseConstraint(`n1 > ${'1'.repeat(600)}`, PARAMS).ok).toBe(false);
  });
});

describe('constraintHolds', () => {
  it('evaluates the example over trials', () => {
    const text = 'n1 < n2 and n2 <= 4 * n1';
    expect(holds(text, { ...base, n1: 10, n2: 40 })).toBe(true);
    expect(holds(text, { ...base, n1: 10, n2: 41 })).toBe(false);
    expect(holds(text, { ...base, n1: 10, n2: 10 })).toBe(false);
  });

  it('follows Python precedence and semantics', () => {
    expect(holds('not n1 > 5 or n2 == 20', base)).toBe(true);
    expect(holds('not (n1 > 5 or n2 == 21)', base)).toBe(false);
    expect(holds('-n1 + 2 * 3 == -4', base)).toBe(true);
    expect(holds('(n1 + 2) * 3 == 36', base)).toBe(true);
    expect(holds('n2 / n1 == 2 and n2 // 3 == 6 and -7 % 3 == 2 and 7 % -3 == -2', base)).toBe(
      true,
    );
    expect(holds('5 < n1 < 15 < n2', base)).toBe(true);
    expect(holds('5 < n1 < 9 < n2', base)).toBe(false);
    expect(holds('mode == "fast" and mode != \'slow\'', base)).toBe(true);
    expect(holds('mode + "er" == "faster"', base)).toBe(true);
    expect(holds('mode == 1', base)).toBe(false);
    expect(holds('True == 1 and x * 2 == 1.0', base)).toBe(true);
    expect(holds('n1 - 10', base)).toBe(false);
    expect(holds('mode', base)).toBe(true);
  });

  it('treats a division by zero as not allowed rather than failing', () => {
    expect(holds('n2 / n1 > 1', { ...base, n1: 0 })).toBe(false);
    expect(holds('n1 == 0 or n2 / n1 > 1', { ...base, n1: 0 })).toBe(true);
  });

  it('throws for a type mix only evaluation can see', () => {
    expect(() => holds('(n1 or mode) < 3', { ...base, n1: 0 })).toThrow(/cannot compare text/);
  });
});
