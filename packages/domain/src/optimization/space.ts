import { TOLERANCE } from '../values/tolerance.ts';
import { z } from 'zod';
import { createRng } from '../market/prng.ts';
import { constraintHolds, type Constraint } from './constraint.ts';
import {
  MAX_PARAM_STRING_LENGTH,
  MAX_STRATEGY_PARAMS,
  PARAM_NAME_PATTERN,
  type ParamKind,
  type ParamValue,
  type ParamValues,
  type StrategyParam,
} from './params.ts';

/*
 * The parameter space of an optimisation (docs/architecture.md "Optimisation rules
 * (domain)"): the body's `params: { name: { min, max, step } | { values: [...] } }`,
 * checked against the strategy's PARAMS, enumerated as a grid or sampled at random from a
 * seed, filtered by the constraint, never with a duplicate trial.
 */

/** Search methods of an optimisation. */
export const OPTIMIZATION_METHODS = ['grid', 'random'] as const;
export type OptimizationMethod = (typeof OPTIMIZATION_METHODS)[number];
export const optimizationMethodSchema = z.enum(OPTIMIZATION_METHODS, {
  error: `method must be one of ${OPTIMIZATION_METHODS.join(', ')}`,
});

/** Most listed values of one parameter. */
export const MAX_PARAM_VALUES = 1000;
/** Largest grid (before the constraint) that is enumerated to count what the constraint allows. */
export const MAX_GRID_ENUMERATION = 1_000_000;
/** Largest grid that random sampling enumerates (and shuffles) instead of drawing points. */
export const MAX_RANDOM_ENUMERATION = 100_000;
/** Draws per wanted trial before random sampling of a huge grid gives up looking for new points. */
const RANDOM_DRAWS_PER_TRIAL = 100;

/** A numeric range: min, min + step, … up to max inclusive (with a float tolerance). */
export type ParamRange = { min: number; max: number; step: number };
/** An explicit list of values (numbers for number parameters, strings for text ones). */
export type ParamChoice = { values: ParamValue[] };
export type ParamSpec = ParamRange | ParamChoice;
/** The body's `params`: the parameters to vary, by name. */
export type ParamSpace = Record<string, ParamSpec>;

/** A finite number (zod refuses NaN and ±Infinity), named in the message. */
const finite = (field: string) => z.number({ error: `${field} must be a number` });

const rangeSchema = z
  .object({ min: finite('min'), max: finite('max'), step: finite('step') })
  .strict()
  .superRefine((range, ctx) => {
    if (range.step <= 0)
      ctx.addIssue({ code: 'custom', path: ['step'], message: 'step must be above 0' });
    if (range.min > range.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['max'],
        message: 'max must be at least min (the range is empty)',
      });
    }
  });

const choiceValueSchema = z.union(
  [
    finite('each value'),
    z
      .string()
      .max(
        MAX_PARAM_STRING_LENGTH,
        `each value must be at most ${MAX_PARAM_STRING_LENGTH} characters`,
      ),
  ],
  { error: 'each value must be a number or a string' },
);

const choiceSchema = z
  .object({
    values: z
      .array(choiceValueSchema, { error: 'values must be a list' })
      .min(1, 'values must not be empty')
      .max(MAX_PARAM_VALUES, `values must have at most ${MAX_PARAM_VALUES} entries`),
  })
  .strict()
  .superRefine(({ values }, ctx) => {
    const seen = new Set<string>();
    for (const value of values) {
      const key = `${typeof value}:${value}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['values'],
          message: `values must not repeat ${JSON.stringify(value)}`,
        });
        return;
      }
      seen.add(key);
    }
    if (new Set(values.map((value) => typeof value)).size > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: 'values must be all numbers or all strings',
      });
    }
  });

/**
 * The body's `params`: at least one parameter name (a Python identifier) mapped to a range
 * `{ min, max, step }` (finite, step > 0, min ≤ max) or to `{ values: [...] }` (1 to
 * MAX_PARAM_VALUES distinct numbers, or strings). Whether the names and kinds fit the
 * strategy is checked by resolveParamSpace once its code is known.
 */
export const paramSpaceSchema = z
  .record(z.string(), z.unknown(), { error: 'params must be an object of parameter names' })
  .superRefine((space, ctx) => {
    const names = Object.keys(space);
    for (const name of names) {
      if (!PARAM_NAME_PATTERN.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'parameter names must be letters, digits and _',
        });
      }
    }
    if (names.length === 0)
      ctx.addIssue({ code: 'custom', message: 'name at least one parameter to vary' });
    if (names.length > MAX_STRATEGY_PARAMS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_STRATEGY_PARAMS} parameters` });
    }
  })
  .transform((space, ctx) => {
    const out: ParamSpace = {};
    for (const [name, spec] of Object.entries(space)) {
      const isObject = typeof spec === 'object' && spec !== null && !Array.isArray(spec);
      const schema = isObject && 'values' in spec ? choiceSchema : rangeSchema;
      if (!isObject) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'must be { min, max, step } or { values: [...] }',
        });
        continue;
      }
      const parsed = schema.safeParse(spec);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          ctx.addIssue({
            code: 'custom',
            path: [name, ...issue.path.map(String)],
            message: issue.message,
          });
        }
        continue;
      }
      out[name] = parsed.data;
    }
    return out;
  });

/** One varied parameter: its values by index (0 … count − 1), never materialised as a list. */
export type Dimension = {
  name: string;
  kind: ParamKind;
  count: number;
  at(index: number): ParamValue;
};

/** Decimal places of a number as written by JavaScript (1e-7 → 7, 0.25 → 2, 10 → 0). */
function decimals(value: number): number {
  const [mantissa = '', exponent] = String(value).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/**
 * Values in `range`: min + i × step for i = 0 … while ≤ max. The count tolerates float
 * error ((0.3 − 0) / 0.1 = 2.9999… counts 4 values), and each float value is rounded to
 * the decimals of min and step (0.1 + 0.2 → 0.3). Ints stay ints.
 */
export function rangeCount(range: ParamRange): number {
  const span = (range.max - range.min) / range.step;
  return Math.floor(span + TOLERANCE.snap * Math.max(1, span)) + 1;
}

function rangeDimension(name: string, kind: ParamKind, range: ParamRange): Dimension {
  const count = rangeCount(range);
  const places = Math.max(decimals(range.min), decimals(range.step));
  const at = (index: number) => {
    const raw = range.min + index * range.step;
    if (kind === 'int') return raw;
    return places <= 15 ? Number(raw.toFixed(places)) : raw;
  };
  return { name, kind, count, at };
}

export type ResolvedSpace =
  { ok: true; dimensions: Dimension[]; fixed: ParamValues } | { ok: false; error: string };

/**
 * Checks a parsed `params` against the strategy's declared PARAMS and gives one dimension
 * per varied parameter (in declared order) and the fixed values of the others (their
 * defaults). Errors name the field: `params.n9: n9 is not a parameter of the strategy`,
 * `params.n1.step: step must be a whole number for the int parameter n1`, …
 */
export function resolveParamSpace(
  space: ParamSpace,
  declared: readonly StrategyParam[],
): ResolvedSpace {
  const known = declared.map((param) => param.name).join(', ') || 'none';
  for (const name of Object.keys(space)) {
    if (!declared.some((param) => param.name === name)) {
      return {
        ok: false,
        error: `params.${name}: ${name} is not a parameter of the strategy (its PARAMS: ${known})`,
      };
    }
  }
  const dimensions: Dimension[] = [];
  const fixed: Record<string, ParamValue> = {};
  for (const param of declared) {
    const spec = space[param.name];
    if (spec === undefined) {
      fixed[param.name] = param.default;
      continue;
    }
    const field = `params.${param.name}`;
    if ('values' in spec) {
      for (const value of spec.values) {
        if (param.kind === 'string' && typeof value !== 'string') {
          return {
            ok: false,
            error: `${field}.values: ${param.name} is a text parameter; its values must be strings`,
          };
        }
        if (param.kind !== 'string' && typeof value !== 'number') {
          return {
            ok: false,
            error: `${field}.values: ${param.name} is a number parameter; its values must be numbers`,
          };
        }
        if (param.kind === 'int' && !Number.isSafeInteger(value)) {
          return {
            ok: false,
            error: `${field}.values: ${param.name} is an int parameter; its values must be whole numbers`,
          };
        }
      }
      const values = spec.values;
      dimensions.push({
        name: param.name,
        kind: param.kind,
        count: values.length,
        at: (index) => values[index] as ParamValue,
      });
      continue;
    }
    if (param.kind === 'string') {
      return {
        ok: false,
        error: `${field}: ${param.name} is a text parameter; list its { values: [...] }`,
      };
    }
    if (param.kind === 'int') {
      for (const key of ['min', 'max', 'step'] as const) {
        if (!Number.isSafeInteger(spec[key])) {
          return {
            ok: false,
            error: `${field}.${key}: ${key} must be a whole number for the int parameter ${param.name}`,
          };
        }
      }
    }
    if ((spec.max - spec.min) / spec.step > Number.MAX_SAFE_INTEGER / 2) {
      return { ok: false, error: `${field}.step: the range has too many values; raise the step` };
    }
    dimensions.push(rangeDimension(param.name, param.kind, spec));
  }
  return { ok: true, dimensions, fixed };
}

/** Combinations of a grid over `dimensions` (before any constraint), without enumerating. */
export function gridSize(dimensions: readonly Dimension[]): number {
  return dimensions.reduce((size, dimension) => size * dimension.count, 1);
}

/** An integer with thousands separators (12345 → "12,345"), for messages. */
export function formatCount(count: number): string {
  return Number.isFinite(count) && count < 1e21
    ? Math.round(count)
        .toString()
        .replace(/\B(?=(\d{3})+(?!\d))/g, ',')
    : count.toExponential(2);
}

function trialAt(
  dimensions: readonly Dimension[],
  fixed: ParamValues,
  declared: readonly StrategyParam[],
  digits: readonly number[],
): ParamValues {
  const varied = new Map(
    dimensions.map((dimension, i) => [dimension.name, dimension.at(digits[i] as number)]),
  );
  const values: Record<string, ParamValue> = {};
  for (const param of declared)
    values[param.name] = varied.get(param.name) ?? (fixed[param.name] as ParamValue);
  return values;
}

/** Mixed-radix digits of a grid index (the last dimension varies fastest). */
function digitsOf(dimensions: readonly Dimension[], index: number): number[] {
  const digits = new Array<number>(dimensions.length);
  let rest = index;
  for (let i = dimensions.length - 1; i >= 0; i--) {
    const count = (dimensions[i] as Dimension).count;
    digits[i] = rest % count;
    rest = Math.floor(rest / count);
  }
  return digits;
}

export type TrialPlanInput = {
  declared: readonly StrategyParam[];
  dimensions: readonly Dimension[];
  fixed: ParamValues;
  constraint?: Constraint | null;
  method: OptimizationMethod;
  /** Random method: how many trials to draw (at most `limit`); the grid ignores it. */
  maxTrials?: number | null;
  /** Random method: the seed of the draw (a uint32; the same seed gives the same trials). */
  seed?: number;
  /** Most trials one optimisation may run (a setting). */
  limit: number;
};

export type TrialPlan =
  { ok: true; trials: ParamValues[]; gridSize: number } | { ok: false; error: string };

/**
 * The trials of an optimisation, each with every declared parameter's value.
 *
 * Grid: every combination in order (the first varied parameter outermost) that the
 * constraint allows; refused when more than `limit` remain, with the count named. A grid
 * over MAX_GRID_ENUMERATION is refused from its size alone.
 *
 * Random: `maxTrials` distinct combinations the constraint allows, drawn with mulberry32
 * (market/prng) from `seed`; fewer when fewer exist. Grids up to MAX_RANDOM_ENUMERATION
 * are enumerated and shuffled (Fisher–Yates); larger ones are drawn point by point,
 * skipping repeats, giving up after RANDOM_DRAWS_PER_TRIAL draws per wanted trial.
 *
 * A constraint that cannot be evaluated (text compared with a number) is an error.
 */
export function planTrials(input: TrialPlanInput): TrialPlan {
  const { declared, dimensions, fixed, constraint, method, limit } = input;
  const size = gridSize(dimensions);
  const allowed = (values: ParamValues) =>
    constraint ? constraintHolds(constraint, values) : true;
  const nothingAllowed = {
    ok: false as const,
    error: 'constraint: no combination of the parameters satisfies it',
  };
  try {
    if (method === 'grid') {
      const refuse = (counted: string) => ({
        ok: false as const,
        error: `params: the grid has ${counted}; at most ${formatCount(limit)} trials are allowed. Narrow the ranges, raise the steps, add a constraint or use the random method`,
      });
      if (size > MAX_GRID_ENUMERATION || (!constraint && size > limit)) {
        return refuse(`${formatCount(size)} combinations`);
      }
      const trials: ParamValues[] = [];
      for (let index = 0; index < size; index++) {
        const values = trialAt(dimensions, fixed, declared, digitsOf(dimensions, index));
        if (allowed(values)) trials.push(values);
      }
      if (trials.length === 0) return nothingAllowed;
      if (trials.length > limit) {
        return refuse(
          `${formatCount(trials.length)} combinations allowed by the constraint (of ${formatCount(size)})`,
        );
      }
      return { ok: true, trials, gridSize: size };
    }
    const wanted = input.maxTrials ?? limit;
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > limit) {
      return {
        ok: false,
        error: `max_trials: max_trials must be a whole number from 1 to ${formatCount(limit)}`,
      };
    }
    const rng = createRng(input.seed ?? 0);
    const draw = (count: number) => Math.min(count - 1, Math.floor(rng.next() * count));
    const trials: ParamValues[] = [];
    if (size <= MAX_RANDOM_ENUMERATION) {
      const order = Array.from({ length: size }, (_, i) => i);
      for (let i = 0; i < size && trials.length < wanted; i++) {
        const j = i + draw(size - i);
        const picked = order[j] as number;
        order[j] = order[i] as number;
        order[i] = picked;
        const values = trialAt(dimensions, fixed, declared, digitsOf(dimensions, picked));
        if (allowed(values)) trials.push(values);
      }
    } else {
      const seen = new Set<string>();
      for (
        let attempt = 0;
        attempt < wanted * RANDOM_DRAWS_PER_TRIAL && trials.length < wanted;
        attempt++
      ) {
        const digits = dimensions.map((dimension) => draw(dimension.count));
        const key = digits.join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        const values = trialAt(dimensions, fixed, declared, digits);
        if (allowed(values)) trials.push(values);
      }
    }
    if (trials.length === 0) return nothingAllowed;
    return { ok: true, trials, gridSize: size };
  } catch (error) {
    return { ok: false, error: `constraint: ${(error as Error).message}` };
  }
}
