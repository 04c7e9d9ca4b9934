import { SHARED_ACTIONS } from '@ct/domain';
import { isChildFrame } from '../../realtime/connection';
import { registerSharedAction } from '../../realtime/frameActions';

/**
 * Registers the workbench's shared actions in the main window (spec section 7):
 * `monacoWorkflow/currentChart` and `chartActions/runCode`, run for the charts of child
 * frames. Their code (the backtest call, the log relay) loads the first time a frame asks.
 * A child frame registers nothing: it asks the main window. Returns the unregister.
 */
export function registerStrategySharedActions(): () => void {
  if (isChildFrame()) return () => {};
  const workflow = () => import('./frameWorkflow');
  const stops = [
    registerSharedAction(SHARED_ACTIONS.currentChart, async (payload, context) =>
      (await workflow()).currentChart(payload, context),
    ),
    registerSharedAction(SHARED_ACTIONS.runCode, async (payload, context) =>
      (await workflow()).runCodeForChart(payload, context),
    ),
  ];
  return () => stops.forEach((stop) => stop());
}
