import { SHARED_ACTIONS } from '@ct/domain';
import { isChildFrame } from '../../realtime/connection';
import { chartClientId, requestSharedAction } from '../../realtime/frameActions';
import { notify } from '../../shared/notify';
import type { CodeEditorRequest } from './codeEditorHook';
import { receiveRelayedLogs } from './logSocket';
import { openWorkbench, useEditorStore } from './store';
import { cachedTemplate, loadStrategyTemplate } from './strategyTemplate';

/**
 * Opens the Python Code Editor for a chart (loaded with the workbench when the chart
 * toolbar's button is first pressed). In a child frame the chart first tells the main
 * window through `monacoWorkflow/currentChart` (clientId, symbolId, defaultCode): the main
 * window runs its code and holds its log socket, so the editor's client id becomes the
 * chart's, by which the main window forwards the log lines and sets the markers.
 */
export async function openEditorFor(request: CodeEditorRequest): Promise<boolean> {
  if (isChildFrame()) {
    const clientId = chartClientId(request.chartId);
    receiveRelayedLogs();
    try {
      const defaultCode = cachedTemplate() ?? (await loadStrategyTemplate());
      await requestSharedAction(SHARED_ACTIONS.currentChart, {
        clientId,
        symbolId: request.symbol,
        defaultCode,
        period: request.period,
      });
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
      return false;
    }
    useEditorStore.setState({ clientId });
  }
  openWorkbench(request);
  return true;
}
