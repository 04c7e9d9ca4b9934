import { installFrameBridge } from '../realtime/frameBridge';

/**
 * Registers what the main window shares with child frames. For now that is the frame
 * message bridge alone; the shared-state issue adds the store registry and its actions.
 */
export async function registerSharedModules(): Promise<void> {
  installFrameBridge();
}
