import { registerAiTasks } from '../features/aiTasks';
import { useAuthStore } from '../features/auth';
import { registerLiveRuns } from '../features/live-runs';
import { registerStrategySharedActions } from '../features/strategy';
import { startFrameSharing } from '../realtime/frames';
import { registerSharedState } from '../realtime/sharedState';

let accountShared = false;

/**
 * Registers what the main window shares with child frames, and what a child frame takes
 * from it (realtime/frames.ts): the message bridge, live prices (frames never open their
 * own connection), the shared actions and the shared state. The current trading account
 * lives in features/auth, above the realtime tier, so it is registered here, as are the
 * features' shared actions (run code and the editor's chart: strategy; create AI task: AI
 * tasks), whose code loads when a frame first asks.
 */
export async function registerSharedModules(): Promise<void> {
  startFrameSharing();
  registerStrategySharedActions();
  registerAiTasks();
  registerLiveRuns();
  if (!accountShared) {
    accountShared = true;
    registerSharedState('account', {
      get: () => {
        const { userId, userName, currentTrader } = useAuthStore.getState();
        return { userId, userName, currentTrader };
      },
      set: (account) => useAuthStore.setState(account),
      subscribe: (listener) =>
        useAuthStore.subscribe((state, previous) => {
          if (
            state.currentTrader !== previous.currentTrader ||
            state.userId !== previous.userId ||
            state.userName !== previous.userName
          ) {
            listener();
          }
        }),
    });
  }
}
