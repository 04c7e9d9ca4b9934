import { withParamValues, type ParamValues } from '@ct/domain';
import { optimize as messages } from '../../../i18n/defaults/optimize';
import { QUIET, done, failed, refused, type Outcome } from '../../../shared/outcome';
import { queryClient } from '../../../shared/queryClient';
import { proposeCode, showOnChart, workbenchTarget } from '../actions';
import { failureDetail, type RunAnswer } from '../api';
import { currentCode } from '../editorBridge';
import { DEFAULT_STRATEGY } from '../logic';
import { useEditorStore } from '../store';
import {
  backtestOnOptimization,
  cancelOptimization,
  createOptimization,
  deleteOptimization,
  type OptimizationDetail,
} from './api';
import { optimizationBody, type SetupForm } from './logic';
import { optimizationKeys } from './queries';
import { closeOptimize, useOptimizeStore } from './store';

/*
 * The optimiser's user operations: start, cancel, delete, open a past one, open a trial's
 * full backtest (the same backtest Run Code runs, with the trial's values written into
 * PARAMS of the optimisation's code; the editor's code is not touched), and "Use these
 * parameters" (the values offered as a diff over the editor, like the assistant's Apply).
 */

const m = messages.optimize;

/** The strategy the optimisations are listed under (Default when nothing is selected). */
export function optimizedStrategy(): string {
  return useEditorStore.getState().selected ?? DEFAULT_STRATEGY;
}

/** Starts an optimisation of the editor's code on the editor's chart; shows its progress. */
export async function startOptimization(form: SetupForm): Promise<Outcome> {
  const chart = workbenchTarget();
  if (!chart?.symbol) return refused(m.symbolMissing);
  const strategy = optimizedStrategy();
  useOptimizeStore.setState({ starting: true });
  try {
    const created = await createOptimization(
      optimizationBody(form, {
        code: currentCode(),
        strategyName: strategy,
        symbol: chart.symbol,
        period: chart.period,
      }),
    );
    useOptimizeStore.setState({ current: created.id, tab: 'current' });
    void queryClient.invalidateQueries({ queryKey: optimizationKeys.list(strategy) });
    return done(m.started(created.trials_total));
  } catch (error) {
    const detail = failureDetail(error);
    return failed(detail ? `${m.startFailed}: ${detail}` : m.startFailed);
  } finally {
    useOptimizeStore.setState({ starting: false });
  }
}

/** Cancel: no new trial starts; the progress shows the end. */
export async function cancelRunning(id: string): Promise<Outcome> {
  try {
    await cancelOptimization(id);
  } catch {
    return failed(m.cancelFailed);
  }
  await queryClient.invalidateQueries({ queryKey: optimizationKeys.progress(id) });
  void queryClient.invalidateQueries({ queryKey: optimizationKeys.all });
  return done(m.cancelled);
}

/** Shows a past optimisation in the Result tab. */
export function openOptimization(id: string): void {
  useOptimizeStore.setState({ current: id, tab: 'current' });
}

export async function removeOptimization(id: string): Promise<Outcome> {
  try {
    await deleteOptimization(id);
  } catch {
    return failed(m.deleteFailed);
  }
  if (useOptimizeStore.getState().current === id) useOptimizeStore.setState({ current: null });
  queryClient.removeQueries({ queryKey: optimizationKeys.progress(id) });
  queryClient.removeQueries({ queryKey: optimizationKeys.detail(id) });
  void queryClient.invalidateQueries({ queryKey: optimizationKeys.list(optimizedStrategy()) });
  return done(m.deleted);
}

/**
 * Use these parameters: the editor's code with `values` written into its PARAMS, offered as
 * the diff to Accept or Reject (nothing changes before Accept). The dialog closes so the
 * diff is seen.
 */
export function applyTrialParameters(values: ParamValues): Outcome {
  const rewritten = withParamValues(currentCode(), values);
  if (!rewritten.ok) return failed(rewritten.error);
  if (!proposeCode(rewritten.code, 'optimize-use-parameters')) return QUIET;
  closeOptimize();
  return { success: true, message: null };
}

/**
 * The backtest of one trial: the optimisation's code with the trial's PARAMS on exactly the
 * optimisation's own bars (not the chart's newest, which move on a live chart).
 */
async function runTrial(
  optimization: OptimizationDetail,
  values: ParamValues,
): Promise<RunAnswer | string> {
  try {
    const run = await backtestOnOptimization(
      optimization.id,
      values,
      useEditorStore.getState().clientId,
    );
    if (!run.success) return run.reason ?? m.trialRunFailed;
    return run;
  } catch (error) {
    return failureDetail(error) ?? m.trialRunFailed;
  }
}

/**
 * A trial's full backtest result in the results modal (equity, metrics, trades, Save
 * Results, Show on Chart), as Run Code shows its own.
 */
export async function openTrialResult(
  optimization: OptimizationDetail,
  values: ParamValues,
): Promise<Outcome> {
  const run = await runTrial(optimization, values);
  if (typeof run === 'string') return failed(`${m.trialRunFailed}: ${run}`);
  useEditorStore.setState({
    results: {
      deals: run.data?.deals ?? [],
      performance: run.data?.performance ?? null,
      error: run.data?.error ?? null,
      runId: null,
      symbol: optimization.symbol_id,
      saved: false,
    },
  });
  return { success: true, message: null };
}

/** A trial's trades as markers on the editor's chart (the editor closes, as Show on Chart does). */
export async function showTrialOnChart(
  optimization: OptimizationDetail,
  values: ParamValues,
): Promise<Outcome> {
  const run = await runTrial(optimization, values);
  if (typeof run === 'string') return failed(`${m.trialRunFailed}: ${run}`);
  const outcome = showOnChart(run.data?.deals ?? [], optimization.symbol_id);
  if (outcome.success) closeOptimize();
  return outcome;
}
