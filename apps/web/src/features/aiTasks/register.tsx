import { SHARED_ACTIONS } from '@ct/domain';
import { lazy, Suspense } from 'react';
import { isChildFrame } from '../../realtime/connection';
import { registerSharedAction } from '../../realtime/frameActions';
import { registerWorkbenchAddons } from '../strategy';

// The modals, actions and queries load when the editor first shows them, not with the page.
const AiTaskPanels = lazy(() =>
  import('./AiTaskPanels').then((module) => ({ default: module.AiTaskPanels })),
);
const actions = () => import('./actions');

/**
 * Plugs the AI strategy tasks into the Python Code Editor (its two buttons and modals) and,
 * in the main window, registers `chartActions/createAITask` for the charts of child frames.
 */
export function registerAiTasks(): () => void {
  const unplug = registerWorkbenchAddons({
    panels: (
      <Suspense fallback={null}>
        <AiTaskPanels />
      </Suspense>
    ),
    openTaskList: () => void actions().then((a) => a.openTaskList()),
    openPrompt: () => void actions().then((a) => a.openPrompt()),
  });
  const unregister = isChildFrame()
    ? () => {}
    : registerSharedAction(SHARED_ACTIONS.createAITask, async (payload) =>
        (await import('./sharedActions')).createAiTaskForChart(payload),
      );
  return () => {
    unplug();
    unregister();
  };
}
