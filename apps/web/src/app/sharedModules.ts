import { installFrameBridge } from '../realtime/frameBridge';
import { shareLiveWithFrames } from '../realtime/frameLive';

let liveShared = false;

/**
 * Registers what the main window shares with child frames: the frame message bridge and
 * the live prices (frames never open their own connection). The shared-state issue adds
 * the store registry and its actions.
 */
export async function registerSharedModules(): Promise<void> {
  installFrameBridge();
  if (!liveShared) {
    shareLiveWithFrames();
    liveShared = true;
  }
}
