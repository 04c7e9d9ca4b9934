import { describe, expect, it } from 'vitest';
import { describeIssues } from '../api/envelope.ts';
import { parseConstraint } from './constraint.ts';
import type { StrategyParam } from './params.ts';
import {
  gridSize,
  paramSpaceSchema,
  planTrials,
  rangeCount,
  resolveParamSpace,
  type ParamSpace,
  type TrialPlanInput,
} from './space.ts';

const DECLARED: StrategyParam[] = [
  { name: 'n1', default: 10, kind: 'int' },
  { name: 'n2', default: 20, kind: 'int' },
  { name: 'x', default: 0.5, kind: 'float' },
  { name: 'mode', default: 'fast', kind: 'string' },
];

function bodyError(params: unknown): string {
  const result = paramSpaceSchema.safeParse(params);
  if (result.success) throw new Error('accepted');
  return describeIssues(result.error.issues.map((i) => ({ ...i, path: ['params', ...i.path] })));
}

function resolved(space: ParamSpace) {
  const result = resolveParamSpace(paramSpaceSchema.parse(space), DECLARED);
  if (!result.ok) throw new Error(result.error);
  return result;
}

function plan(space: ParamSpace, extra: Partial<TrialPlanInput> = {}) {
  const { dimensions, fixed } = resolved(space);
  return planTrials({
    declared: DECLARED,
    dimensions,
    fixed,
    method: 'grid',
    limit: 1000,
    ...extra,
  });
}

describe('paramSpaceSchema', () => {
  it('accepts ranges and value lists', () => {
    expect(
      paramSpaceSchema.parse({
        n1: { min: 5, max: 20, step: 5 },
        mode: { values: ['fast', 'slow'] },
      }),
    ).toEqual({ n1: { min: 5, max: 20, step: 5 }, mode: { values: ['fast', 'slow'] } });
  });

  it.each([
    [{}, 'params: name at least one parameter to vary'],
    [{ n1: { min: 5, max: 20, step: 0 } }, 'params.n1.step: step must be above 0'],
    [{ n1: { min: 5, max: 20, step: -1 } }, 'params.n1.step: step must be above 0'],
    [
      { n1: { min: 30, max: 20, step: 1 } },
      'params.n1.max: max must be at least min (the range is empty)',
    ],
    [{ n1: { min: 5, max: Infinity, step: 1 } }, 'params.n1.max: max must be a number'],
    [{ n1: { min: '5', max: 20, step: 1 } }, 'params.n1.min: min must be a number'],
    [{ n1: { values: [] } }, 'params.n1.values: values must not be empty'],
    [{ n1: { values: [1, 1] } }, 'params.n1.values: values must not repeat 1'],
    [{ n1: { values: [1, 'a'] } }, 'params.n1.values: values must be all numbers or all strings'],
    [{ n1: { values: [true] } }, 'params.n1.values.0: each value must be a number or a string'],
    [{ n1: 5 }, 'params.n1: must be { min, max, step } or { values: [...] }'],
    [{ 'bad name': { values: [1] } }, 'parameter names must be letters, digits and _'],
  ])('refuses %j', (params, message) => {
    expect(bodyError(params)).toContain(message);
  });
});

describe('resolveParamSpace', () => {
  it.each([
    [
      { n9: { values: [1] } },
      'params.n9: n9 is not a parameter of the strategy (its PARAMS: n1, n2, x, mode)',
    ],
    [
      { n1: { min: 1, max: 5, step: 0.5 } },
      'params.n1.step: step must be a whole number for the int parameter n1',
    ],
    [
      { n1: { values: [1.5] } },
      'params.n1.values: n1 is an int parameter; its values must be whole numbers',
    ],
    [
      { x: { values: ['a'] } },
      'params.x.values: x is a number parameter; its values must be numbers',
    ],
    [
      { mode: { values: [1] } },
      'params.mode.values: mode is a text parameter; its values must be strings',
    ],
    [
      { mode: { min: 1, max: 2, step: 1 } },
      'params.mode: mode is a text parameter; list its { values: [...] }',
    ],
    [
      { x: { min: 0, max: 1e300, step: 1e-300 } },
      'params.x.step: the range has too many values; raise the step',
    ],
  ])('refuses %j', (space, error) => {
    expect(resolveParamSpace(paramSpaceSchema.parse(space), DECLARED)).toEqual({
      ok: false,
      error,
    });
  });

  it('keeps the declared order and fixes the others at their defaults', () => {
    const { dimensions, fixed } = resolved({
      x: { values: [0.1] },
      n1: { min: 1, max: 3, step: 1 },
    });
    expect(dimensions.map((d) => d.name)).toEqual(['n1', 'x']);
    expect(fixed).toEqual({ n2: 20, mode: 'fast' });
  });
});

describe('grid', () => {
  it('includes max despite float error, rounds floats and keeps ints whole', () => {
    expect(rangeCount({ min: 0, max: 0.3, step: 0.1 })).toBe(4);
    expect(rangeCount({ min: 0, max: 1, step: 0.3 })).toBe(4);
    expect(rangeCount({ min: 5, max: 5, step: 1 })).toBe(1);
    const { dimensions } = resolved({
      x: { min: 0.1, max: 0.7, step: 0.2 },
      n1: { min: 5, max: 20, step: 5 },
    });
    const [n1, x] = dimensions;
    expect(Array.from({ length: n1!.count }, (_, i) => n1!.at(i))).toEqual([5, 10, 15, 20]);
    expect(Array.from({ length: x!.count }, (_, i) => x!.at(i))).toEqual([0.1, 0.3, 0.5, 0.7]);
  });

  it('counts without enumerating and refuses a grid over the limit, naming the count', () => {
    const space = { n1: { min: 1, max: 200, step: 1 }, n2: { min: 1, max: 300, step: 1 } };
    expect(gridSize(resolved(space).dimensions)).toBe(60_000);
    expect(plan(space)).toEqual({
      ok: false,
      error:
        'params: the grid has 60,000 combinations; at most 1,000 trials are allowed. Narrow the ranges, raise the steps, add a constraint or use the random method',
    });
    const huge = { n1: { min: 1, max: 1e6, step: 1 }, n2: { min: 1, max: 1e6, step: 1 } };
    expect(plan(huge)).toMatchObject({
      ok: false,
      error: expect.stringContaining('1,000,000,000,000 combinations'),
    });
  });

  it('gives exactly the combinations the constraint allows, in order', () => {
    const constraint = parseConstraint('n1 < n2 and n2 <= 4 * n1', DECLARED);
    if (!constraint.ok) throw new Error(constraint.error);
    const result = plan(
      { n1: { min: 5, max: 20, step: 5 }, n2: { min: 10, max: 40, step: 10 } },
      { constraint: constraint.constraint },
    );
    expect(result.ok && result.trials.map((t) => [t.n1, t.n2])).toEqual([
      [5, 10],
      [5, 20],
      [10, 20],
      [10, 30],
      [10, 40],
      [15, 20],
      [15, 30],
      [15, 40],
      [20, 30],
      [20, 40],
    ]);
    expect(result.ok && result.trials[0]).toEqual({ n1: 5, n2: 10, x: 0.5, mode: 'fast' });
    expect(result.ok && result.gridSize).toBe(16);
  });

  it('counts what the constraint allows against the limit, and refuses when nothing is allowed', () => {
    const constraint = (text: string) => {
      const parsed = parseConstraint(text, DECLARED);
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.constraint;
    };
    const space = { n1: { min: 1, max: 100, step: 1 }, n2: { min: 1, max: 100, step: 1 } };
    expect(plan(space, { constraint: constraint('n1 + n2 <= 40') })).toMatchObject({ ok: true });
    expect(plan(space, { constraint: constraint('n1 < n2') })).toMatchObject({
      ok: false,
      error: expect.stringContaining(
        'the grid has 4,950 combinations allowed by the constraint (of 10,000)',
      ),
    });
    expect(plan(space, { constraint: constraint('n1 > 200') })).toEqual({
      ok: false,
      error: 'constraint: no combination of the parameters satisfies it',
    });
  });
});

describe('random sampling', () => {
  const space = {
    n1: { min: 1, max: 50, step: 1 },
    n2: { min: 1, max: 50, step: 1 },
    mode: { values: ['a', 'b'] },
  };
  const key = (t: Record<string, unknown>) => JSON.stringify(t);

  it('honours max_trials with distinct trials, reproducible from the seed', () => {
    const first = plan(space, { method: 'random', maxTrials: 200, seed: 42 });
    const again = plan(space, { method: 'random', maxTrials: 200, seed: 42 });
    const other = plan(space, { method: 'random', maxTrials: 200, seed: 43 });
    if (!first.ok || !again.ok || !other.ok) throw new Error('refused');
    expect(first.trials).toHaveLength(200);
    expect(new Set(first.trials.map(key)).size).toBe(200);
    expect(again.trials).toEqual(first.trials);
    expect(other.trials).not.toEqual(first.trials);
    expect(first.trials.every((t) => Number.isInteger(t.n1) && t.x === 0.5)).toBe(true);
  });

  it('gives every allowed combination once when fewer exist than asked', () => {
    const parsed = parseConstraint('n1 <= 3 and n2 <= 2', DECLARED);
    if (!parsed.ok) throw new Error(parsed.error);
    const result = plan(space, {
      method: 'random',
      maxTrials: 100,
      seed: 7,
      constraint: parsed.constraint,
    });
    if (!result.ok) throw new Error(result.error);
    expect(result.trials).toHaveLength(12);
    expect(new Set(result.trials.map(key)).size).toBe(12);
  });

  it('draws points from a grid too large to enumerate, still distinct and reproducible', () => {
    const big = { x: { min: 0, max: 1000, step: 0.001 }, n1: { min: 1, max: 1000, step: 1 } };
    const first = plan(big, { method: 'random', maxTrials: 500, seed: 1 });
    const again = plan(big, { method: 'random', maxTrials: 500, seed: 1 });
    if (!first.ok || !again.ok) throw new Error('refused');
    expect(first.gridSize).toBe(1_000_001_000);
    expect(first.trials).toHaveLength(500);
    expect(new Set(first.trials.map(key)).size).toBe(500);
    expect(again.trials).toEqual(first.trials);
  });

  it('refuses max_trials above the limit', () => {
    expect(plan(space, { method: 'random', maxTrials: 5000, limit: 1000 })).toEqual({
      ok: false,
      error: 'max_trials: max_trials must be a whole number from 1 to 1,000',
    });
  });
});
