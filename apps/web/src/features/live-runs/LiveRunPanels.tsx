import './liveRuns.css';
import { LiveRunsModal } from './LiveRunsModal';
import { StartLiveRunModal } from './StartLiveRunModal';

/** The live runs' modals in the Python Code Editor: the start form above the panel. */
export function LiveRunPanels() {
  return (
    <>
      <LiveRunsModal />
      <StartLiveRunModal />
    </>
  );
}
