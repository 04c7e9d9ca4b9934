import {
  DEFAULT_LOADED_BARS,
  MAX_WALK_FORWARD_FOLDS,
  gridSize,
  paramSpaceSchema,
  parseConstraint,
  planTrials,
  resolveParamSpace,
  TOLERANCE,
  walkForwardFolds,
  type OptimizationMethod,
  type OptimizationObjective,
  type OptimizationTrial,
  type ParamSpec,
  type ParamValue,
  type StrategyParam,
} from '@ct/domain';
import { optimize as messages } from '../../../i18n/defaults/optimize';

/*
 * The optimise dialog's pure rules: the form's starting ranges, the trial count and the
 * problems shown before starting (the domain's own space, constraint and grid rules, as the
 * server applies them), the request body, and the heatmap's cells.
 */

const m = messages.optimize;

/** One declared parameter in the form: varied over a range (numbers) or a list of values. */
export type ParamField = {
  name: string;
  kind: StrategyParam['kind'];
  default: ParamValue;
  vary: boolean;
  min: number | null;
  max: number | null;
  step: number | null;
  /** Text parameters: the values, comma separated. */
  values: string;
};

export type SetupForm = {
  params: ParamField[];
  constraint: string;
  objective: OptimizationObjective;
  method: OptimizationMethod;
  maxTrials: number | null;
  seed: number | null;
  walkForward: boolean;
  folds: number | null;
  inSamplePct: number | null;
  anchored: boolean;
};

/** Grids up to this size are counted in the browser with the constraint applied. */
export const COUNT_LIMIT = 100_000;

const roundTo = (value: number, places: number) => Number(value.toFixed(places));

/**
 * A parameter's starting range: numbers around the default (two steps either side, a step
 * of a fifth of it; ints stay whole and at least 1 when the default is positive), text
 * parameters fixed at their default.
 */
export function initialField(param: StrategyParam): ParamField {
  const base = { name: param.name, kind: param.kind, default: param.default };
  if (param.kind === 'string' || typeof param.default !== 'number') {
    return {
      ...base,
      vary: false,
      min: null,
      max: null,
      step: null,
      values: String(param.default),
    };
  }
  const value = param.default;
  if (param.kind === 'int') {
    const step = Math.max(1, Math.round(Math.abs(value) / 5));
    const floor = value > 0 ? 1 : value - 2 * step;
    const min = Math.max(floor, value - 2 * step);
    return { ...base, vary: true, min, max: value + 2 * step, step, values: '' };
  }
  const step = value === 0 ? 0.1 : roundTo(Math.abs(value) / 5, 6);
  return {
    ...base,
    vary: true,
    min: roundTo(value - 2 * step, 6),
    max: roundTo(value + 2 * step, 6),
    step,
    values: '',
  };
}

export function initialSetup(params: readonly StrategyParam[]): SetupForm {
  return {
    params: params.map(initialField),
    constraint: '',
    objective: 'net_profit',
    method: 'grid',
    maxTrials: 50,
    seed: 0,
    walkForward: false,
    folds: 3,
    inSamplePct: 70,
    anchored: false,
  };
}

/** The values of a text list ("a, b" → ["a", "b"]; numbers for number parameters). */
function listValues(field: ParamField): ParamValue[] {
  const parts = field.values
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return field.kind === 'string' ? parts : parts.map(Number);
}

/** The body's `params` of the varied fields. */
export function paramSpace(fields: readonly ParamField[]): Record<string, ParamSpec | object> {
  const space: Record<string, ParamSpec | object> = {};
  for (const field of fields) {
    if (!field.vary) continue;
    space[field.name] =
      field.kind === 'string'
        ? { values: listValues(field) }
        : { min: field.min, max: field.max, step: field.step };
  }
  return space;
}

export type SetupPlan =
  | {
      ok: true;
      /** Parameter combinations (allowed by the constraint; random: drawn). */
      combinations: number;
      /** Backtests in all: walk-forward adds the folds' in-sample and out-of-sample runs. */
      backtests: number;
    }
  | { ok: false; problem: string };

/** The trial count before starting, or the first problem (as the server would name it). */
export function planSetup(form: SetupForm, declared: readonly StrategyParam[]): SetupPlan {
  if (!form.params.some((field) => field.vary)) return { ok: false, problem: m.nothingVaried };
  for (const field of form.params) {
    if (!field.vary || field.kind === 'string') continue;
    if (field.min === null || field.max === null || field.step === null)
      return { ok: false, problem: m.rangeMissing(field.name) };
  }
  const space = paramSpaceSchema.safeParse(paramSpace(form.params));
  if (!space.success) {
    const issue = space.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    return { ok: false, problem: `${path ? `${path}: ` : ''}${issue?.message ?? ''}` };
  }
  const resolved = resolveParamSpace(space.data, declared);
  if (!resolved.ok) return { ok: false, problem: resolved.error };
  let constraint = null;
  if (form.constraint.trim() !== '') {
    const parsed = parseConstraint(form.constraint, declared);
    if (!parsed.ok) return { ok: false, problem: `${m.constraint}: ${parsed.error}` };
    constraint = parsed.constraint;
  }
  const size = gridSize(resolved.dimensions);
  let combinations: number;
  if (form.method === 'random') {
    if (form.maxTrials === null || form.maxTrials < 1)
      return { ok: false, problem: m.maxTrialsMissing };
    if (size > COUNT_LIMIT && !constraint) combinations = Math.min(form.maxTrials, size);
    else {
      const plan = planTrials({
        ...resolved,
        declared,
        constraint,
        method: 'random',
        maxTrials: form.maxTrials,
        seed: form.seed ?? 0,
        limit: form.maxTrials,
      });
      if (!plan.ok) return { ok: false, problem: plan.error };
      combinations = plan.trials.length;
    }
  } else if (!constraint || size > COUNT_LIMIT) {
    combinations = size;
  } else {
    const plan = planTrials({
      ...resolved,
      declared,
      constraint,
      method: 'grid',
      limit: COUNT_LIMIT,
    });
    if (!plan.ok) return { ok: false, problem: plan.error };
    combinations = plan.trials.length;
  }
  let folds = 0;
  if (form.walkForward) {
    if (form.folds === null || form.inSamplePct === null)
      return { ok: false, problem: m.walkForwardMissing };
    if (form.folds < 1 || form.folds > MAX_WALK_FORWARD_FOLDS)
      return { ok: false, problem: m.foldsRange(MAX_WALK_FORWARD_FOLDS) };
    const cut = walkForwardFolds(DEFAULT_LOADED_BARS, {
      folds: form.folds,
      in_sample_pct: form.inSamplePct,
      anchored: form.anchored,
    });
    if (!cut.ok) return { ok: false, problem: cut.error };
    folds = form.folds;
  }
  return { ok: true, combinations, backtests: combinations * (1 + folds) + folds };
}

/** The body of POST /api/optimizations for the editor's code on the chart. */
export function optimizationBody(
  form: SetupForm,
  target: { code: string; strategyName: string | null; symbol: string; period: string },
) {
  return {
    code: target.code,
    ...(target.strategyName ? { strategy_name: target.strategyName } : {}),
    symbol_id: target.symbol,
    period: target.period,
    params: paramSpace(form.params),
    ...(form.constraint.trim() ? { constraint: form.constraint.trim() } : {}),
    objective: form.objective,
    method: form.method,
    ...(form.method === 'random'
      ? { max_trials: form.maxTrials ?? undefined, seed: form.seed ?? 0 }
      : {}),
    ...(form.walkForward
      ? {
          walk_forward: {
            folds: form.folds ?? 1,
            in_sample_pct: form.inSamplePct ?? 70,
            anchored: form.anchored,
          },
        }
      : {}),
  };
}

/** "about 1 min 5 s left" from seconds; null when not known yet. */
export function etaText(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds < 60) return m.eta(`${Math.max(1, Math.round(seconds))} s`);
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return m.eta(rest > 0 ? `${minutes} min ${rest} s` : `${minutes} min`);
}

/** The value of a parameter as a cell shows it. */
export const valueText = (value: ParamValue | undefined) =>
  value === undefined ? '-' : String(value);

export type Heatmap = {
  xs: ParamValue[];
  ys: ParamValue[];
  /** Best objective per cell (other parameters varied: the best of them), by `x|y`. */
  cells: Map<string, { objective: number | null; trial: OptimizationTrial }>;
  min: number | null;
  max: number | null;
};

const order = (a: ParamValue, b: ParamValue) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));

export const cellKey = (x: ParamValue, y: ParamValue) => `${String(x)}|${String(y)}`;

/** The objective over two parameters (x across, y down, both ascending). */
export function heatmap(trials: readonly OptimizationTrial[], x: string, y: string): Heatmap {
  const xs = new Map<string, ParamValue>();
  const ys = new Map<string, ParamValue>();
  const cells: Heatmap['cells'] = new Map();
  let min: number | null = null;
  let max: number | null = null;
  for (const trial of trials) {
    const xv = trial.params[x];
    const yv = trial.params[y];
    if (xv === undefined || yv === undefined) continue;
    xs.set(String(xv), xv);
    ys.set(String(yv), yv);
    const key = cellKey(xv, yv);
    const known = cells.get(key);
    const score = trial.objective;
    if (!known || (score !== null && (known.objective === null || score > known.objective)))
      cells.set(key, { objective: score, trial });
    if (score !== null) {
      min = min === null ? score : Math.min(min, score);
      max = max === null ? score : Math.max(max, score);
    }
  }
  return {
    xs: [...xs.values()].sort(order),
    ys: [...ys.values()].sort(order),
    cells,
    min,
    max,
  };
}

/** Where a score sits between the worst (0) and the best (1); 0.5 when all are equal. */
export function shade(score: number | null, min: number | null, max: number | null): number | null {
  if (score === null || min === null || max === null) return null;
  if (max - min <= TOLERANCE.zeroSpread) return 0.5;
  return (score - min) / (max - min);
}

/** The objective's figure as the table shows it (max_drawdown is kept negated as the score). */
export function objectiveValue(
  objective: OptimizationObjective,
  score: number | null,
): number | null {
  if (score === null) return null;
  return objective === 'max_drawdown' ? -score : score;
}
