import { registerAiTasks } from '../features/aiTasks/register';
import { useAuthStore } from '../features/auth/store';
import { startFrameSharing } from '../realtime/frames';
import { registerSharedState } from '../realtime/sharedState';

let accountShared = false;

/**
 * Registers what the main window shares with child frames, and what a child frame takes
 * from it (realtime/frames.ts): the message bridge, live prices (frames never open their
 * own connection), the shared actions and the shared state. The current trading account
 * lives in features/auth, above the realtime tier, so it is registered here.
 */
export async function registerSharedModules(): Promise<void> {
  startFrameSharing();
  registerAiTasks();
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
