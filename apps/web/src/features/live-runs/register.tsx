import { lazy, Suspense } from 'react';
import { registerWorkbenchAddons } from '../strategy';

// The modals, actions and queries load when the editor first shows them, not with the page.
const LiveRunPanels = lazy(() =>
  import('./LiveRunPanels').then((module) => ({ default: module.LiveRunPanels })),
);
const actions = () => import('./actions');

/**
 * Plugs the live runs into the Python Code Editor: Run live on paper and Live Runs beside
 * Run Code, and their modals.
 */
export function registerLiveRuns(): () => void {
  return registerWorkbenchAddons({
    panels: (
      <Suspense fallback={null}>
        <LiveRunPanels />
      </Suspense>
    ),
    openLiveRun: () => void actions().then((a) => a.openStartForm()),
    openLiveRuns: () => void actions().then((a) => a.openLiveRuns()),
  });
}
