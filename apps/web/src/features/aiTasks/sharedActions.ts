import { SHARED_ACTIONS, sharedActionPayloadSchemas, type ActionResult } from '@ct/domain';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';
import { useChartGridStore } from '../../shared/chartGrid';
import { workflowChart } from '../strategy';
import { createTaskFor, settingsTaskValues } from './actions';

const m = messages.aiTasks;

/** The chart a client id names: a frame chart whose editor is open, or a chart of this window. */
function chartOf(clientId: string): { symbol: string; period: string } | null {
  const told = workflowChart(clientId);
  if (told) return { symbol: told.symbolId, period: told.period ?? 'day' };
  const cell = useChartGridStore.getState().charts.find((c) => c.id === clientId);
  return cell?.symbol ? { symbol: cell.symbol, period: cell.period } : null;
}

/**
 * chartActions/createAITask (spec section 7: clientId, prompt, taskType → success, reason):
 * the main window creates the task for that chart with the model of its API Settings.
 * 'No active chart' when the client id names no chart.
 */
export async function createAiTaskForChart(payload: unknown): Promise<ActionResult> {
  const request = sharedActionPayloadSchemas[SHARED_ACTIONS.createAITask].parse(payload);
  const chart = chartOf(request.clientId);
  if (!chart) return { success: false, reason: m.noActiveChart };
  const values = await settingsTaskValues(request.prompt);
  if (!values) return { success: false, reason: m.providersFailed };
  const created = await createTaskFor(values, chart, {
    clientId: request.clientId,
    taskType: request.taskType,
  });
  return 'reason' in created ? { success: false, reason: created.reason } : { success: true };
}
