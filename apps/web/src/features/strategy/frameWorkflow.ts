import {
  SHARED_ACTIONS,
  sharedActionPayloadSchemas,
  type ActionResult,
  type BacktestRunAnswer,
} from '@ct/domain';
import { strategy as messages } from '../../i18n/defaults/strategy';
import { requestSharedAction, type SharedActionContext } from '../../realtime/frameActions';
import { failureDetail, runBacktest } from './api';
import { startLogRelay } from './logRelay';
import { markersFromDeals } from './logic';

/*
 * The strategy workbench's shared actions as the main window runs them for its frames
 * (spec sections 7 and 8). Loaded the first time a frame asks (strategy/register.ts).
 */

const m = messages.strategy;
/** The period of a run whose chart did not say (the chart page's default). */
const FALLBACK_PERIOD = 'day';

/** A frame chart whose editor is open: what monacoWorkflow/currentChart told. */
export type WorkflowChart = { symbolId: string; period: string | null; defaultCode: string };

const workflows = new Map<string, WorkflowChart>();

/** The chart a frame's editor works for, by the chart's client id (null: none told). */
export function workflowChart(clientId: string): WorkflowChart | null {
  return workflows.get(clientId) ?? null;
}

/** Forgets the told charts (tests). */
export function forgetWorkflows(): void {
  workflows.clear();
}

/**
 * monacoWorkflow/currentChart: a frame's chart opens the Python Code Editor. The main
 * window keeps its symbol, period and default code, and forwards the log of its client id
 * to that frame (frames open no socket).
 */
export function currentChart(payload: unknown, context: SharedActionContext): ActionResult {
  const chart = sharedActionPayloadSchemas[SHARED_ACTIONS.currentChart].parse(payload);
  workflows.set(chart.clientId, {
    symbolId: chart.symbolId,
    period: chart.period ?? null,
    defaultCode: chart.defaultCode,
  });
  if (context.source) startLogRelay(chart.clientId, context.source as Window);
  return { success: true };
}

/**
 * chartActions/runCode: backtests the code on the chart's symbol with the chart's client id
 * (its log lines stream to /ws/{clientId}, forwarded to the frame), then puts the trades on
 * that chart as markers (chartActions/setEvents, which finds the chart in whichever window
 * it is). Answers as the run helper does: success, reason, data.
 */
export async function runCodeForChart(
  payload: unknown,
  context: SharedActionContext,
): Promise<BacktestRunAnswer> {
  const run = sharedActionPayloadSchemas[SHARED_ACTIONS.runCode].parse(payload);
  if (context.source) startLogRelay(run.clientId, context.source as Window);
  let answer: BacktestRunAnswer;
  try {
    answer = await runBacktest({
      clientId: run.clientId,
      code: run.code,
      symbol: run.symbolId,
      period: run.period ?? workflowChart(run.clientId)?.period ?? FALLBACK_PERIOD,
      ...(run.limit === undefined ? {} : { limit: run.limit }),
      ...(run.strategyName ? { strategy_name: run.strategyName } : {}),
    });
  } catch (error) {
    return { success: false, reason: failureDetail(error) ?? m.unknownError, data: null };
  }
  const deals = answer.data?.deals ?? [];
  if (answer.success && !answer.data?.error && deals.length > 0) {
    try {
      await requestSharedAction(SHARED_ACTIONS.setEvents, {
        clientId: run.clientId,
        symbol: run.symbolId,
        events: markersFromDeals(deals),
      });
    } catch (error) {
      // the run stands; its chart may have gone (the frame closed)
      console.warn('The trades of the run could not be put on its chart', error);
    }
  }
  return answer;
}
