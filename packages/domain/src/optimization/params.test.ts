import { describe, expect, it } from 'vitest';
import {
  paramsUpdateStatement,
  parseStrategyParams,
  pythonParamLiteral,
  pythonStringLiteral,
  withParamValues,
} from './params.ts';

const STRATEGY = `"""SMA crossover.

PARAMS = {"not": 1}   (in a docstring: not the declaration)
"""
import math

# Tunable parameters
PARAMS = {
    'n1': 10,        # fast window
    "n2": 20.5,
    "mode": 'fast',
    "offset": -3,
    "scale": 1e-3,
    "big": 1_000,
}

def main(data_array):
    PARAMS = {"inner": 1}  # a local, not the module's
    return []
`;

describe('parseStrategyParams', () => {
  it('reads a multi-line literal with comments, quotes, signs and a trailing comma', () => {
    const result = parseStrategyParams(STRATEGY);
    expect(result).toEqual({
      ok: true,
      params: [
        { name: 'n1', default: 10, kind: 'int' },
        { name: 'n2', default: 20.5, kind: 'float' },
        { name: 'mode', default: 'fast', kind: 'string' },
        { name: 'offset', default: -3, kind: 'int' },
        { name: 'scale', default: 0.001, kind: 'float' },
        { name: 'big', default: 1000, kind: 'int' },
      ],
    });
  });

  it('keeps ints and floats apart even when the float is whole', () => {
    const result = parseStrategyParams('PARAMS = {"a": 2, "b": 2.0, "c": 2., "d": 2e0}\n');
    expect(result.ok && result.params.map((p) => p.kind)).toEqual([
      'int',
      'float',
      'float',
      'float',
    ]);
  });

  it('decodes string escapes and raw strings', () => {
    const result = parseStrategyParams(String.raw`PARAMS = {"a": "x\ty\"z\u00e9", "b": r"\d+"}`);
    expect(result.ok && result.params.map((p) => p.default)).toEqual(['x\ty"z\u00e9', '\\d+']);
  });

  it('gives an empty list without PARAMS, or with an empty dict', () => {
    expect(parseStrategyParams('def main(d):\n    return []\n')).toEqual({ ok: true, params: [] });
    expect(parseStrategyParams('PARAMS = {}\n')).toEqual({ ok: true, params: [] });
  });

  it('ignores PARAMS inside functions, strings and comments', () => {
    const code =
      "# PARAMS = {'x': 1}\ns = '''\nPARAMS = {'y': 2}\n'''\nif True:\n    PARAMS = {'z': 3}\n";
    expect(parseStrategyParams(code)).toEqual({ ok: true, params: [] });
  });

  it.each([
    ['PARAMS = dict(n1=10)\n', 'must be a literal dict', 1],
    ['x = 1\nPARAMS = {"n1": True}\n', 'must be a number or a string, not True', 2],
    ['PARAMS = {"n1": 10 + 1}\n', 'must be a number or a string, not an expression', 1],
    ['PARAMS = {"n1": [1, 2]}\n', 'must be a number or a string', 1],
    ['PARAMS = {"n1": x}\n', 'must be a number or a string, not x', 1],
    ['PARAMS = {n1: 10}\n', 'keys must be parameter names in quotes', 1],
    ['PARAMS = {"n 1": 10}\n', 'must be a name of letters, digits and _', 1],
    ['PARAMS = {"and": 10}\n', 'must be a name', 1],
    ['PARAMS = {"a": 1, "a": 2}\n', 'declares "a" twice', 1],
    ['PARAMS = {"a": 1}\nPARAMS = {"b": 2}\n', 'more than once at module level (lines 1 and 2)', 2],
    ['PARAMS: dict = {"a": 1}\n', 'without a type annotation', 1],
    ['PARAMS = {"a": 1} | OTHER\n', 'must be a literal dict', 1],
    ['PARAMS = {"a": 1e999}\n', 'too large', 1],
    ['PARAMS = {"a": 99999999999999999999}\n', 'too large', 1],
    ['PARAMS = {"a": 1j}\n', 'complex numbers', 1],
    ['PARAMS = {"a": f"x"}\n', 'f-strings', 1],
    ['PARAMS = {"a": 010}\n', 'not a valid Python number', 1],
    ['PARAMS = {"a": 1}\nx = "open\n', 'not closed', 2],
  ])('refuses %j', (code, message, line) => {
    const result = parseStrategyParams(code);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(message);
      expect(result.line).toBe(line);
    }
  });
});

describe('withParamValues', () => {
  it('replaces only the values, keeping comments, layout and other code', () => {
    const result = withParamValues(STRATEGY, { n1: 12, n2: 30, mode: 'slow "x"', offset: -1 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const expected = STRATEGY.replace("'n1': 10,", "'n1': 12,")
      .replace('"n2": 20.5', '"n2": 30.0')
      .replace(`"mode": 'fast'`, '"mode": "slow \\"x\\""')
      .replace('"offset": -3', '"offset": -1');
    expect(result.code).toBe(expected);
    const reparsed = parseStrategyParams(result.code);
    expect(reparsed.ok && reparsed.params.slice(0, 4)).toMatchObject([
      { name: 'n1', default: 12 },
      { name: 'n2', default: 30, kind: 'float' },
      { name: 'mode', default: 'slow "x"' },
      { name: 'offset', default: -1 },
    ]);
  });

  it('refuses an unknown name, a wrong kind and a code without PARAMS', () => {
    expect(withParamValues(STRATEGY, { n9: 1 })).toEqual({
      ok: false,
      error: 'n9 is not a parameter of the strategy',
    });
    expect(withParamValues(STRATEGY, { n1: 1.5 })).toEqual({
      ok: false,
      error: 'n1 must be a whole number',
    });
    expect(withParamValues(STRATEGY, { mode: 3 })).toEqual({
      ok: false,
      error: 'mode must be a string',
    });
    expect(withParamValues('def main(d):\n    return []\n', { n1: 1 }).ok).toBe(false);
  });
});

describe('Python literals', () => {
  it('writes ints as ints and floats as floats', () => {
    expect(pythonParamLiteral('int', -5)).toBe('-5');
    expect(pythonParamLiteral('float', 20)).toBe('20.0');
    expect(pythonParamLiteral('float', 0.1)).toBe('0.1');
    expect(pythonParamLiteral('float', 1e-7)).toBe('1e-7');
    expect(pythonParamLiteral('float', 1.5e300)).toBe('1.5e+300');
    expect(() => pythonParamLiteral('float', Infinity)).toThrow();
    expect(() => pythonParamLiteral('int', 1.5)).toThrow();
  });

  it('escapes every string so it stays one safe line', () => {
    expect(pythonStringLiteral('a"b\\c\n\u00e9\u{1f600}')).toBe(
      '"a\\"b\\\\c\\x0a\\xe9\\U0001f600"',
    );
    expect(pythonStringLiteral('")\nimport os #')).toBe('"\\")\\x0aimport os #"');
  });

  it('states a trial as one PARAMS.update line in the declared order', () => {
    const parsed = parseStrategyParams(STRATEGY);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(paramsUpdateStatement(parsed.params, { mode: 'a\'b"', n2: 25, n1: 7 })).toBe(
      'PARAMS.update({"n1": 7, "n2": 25.0, "mode": "a\'b\\""})',
    );
    expect(() => paramsUpdateStatement(parsed.params, { zz: 1 })).toThrow(/not a parameter/);
  });
});
