import { useAuthStore } from '../features/auth';
import { fetchChartsLiveToken } from '../features/chart';
import { forgetProvisionalLive, type ConnectOptions } from '../realtime/connection';

/**
 * The identity the start-up opens the live connection with: the stored session's user,
 * with connect tokens of GET /api/charts/live-token (no trading account needed). The first
 * screen's private channels (the account's, the drawings') are that user's, so the
 * connection they join needs no reconnect. Nobody logged in: anonymous. A logout or a
 * change of user before a feature took over drops it.
 */
export function storedLiveIdentity(): ConnectOptions['identity'] {
  const { userId, isLoggedIn } = useAuthStore.getState();
  if (!userId || !isLoggedIn) return undefined;
  const stop = useAuthStore.subscribe((state) => {
    if (state.isLoggedIn && state.userId === userId) return;
    stop();
    forgetProvisionalLive();
  });
  return { userId, getToken: async () => (await fetchChartsLiveToken()).connectToken };
}
