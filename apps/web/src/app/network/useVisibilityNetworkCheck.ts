import { useCallback, useEffect, useRef, useState } from 'react';
import { http } from '../../api/client';

/** Away time after which the page checks the network when shown again (spec section 9). */
export const AWAY_THRESHOLD_MS = 900_000;

export type VisibilityCheckOptions = {
  /** Clock in epoch milliseconds; injectable for tests. */
  now?: () => number;
  /** Resolves when the network answers; rejects otherwise. */
  check?: () => Promise<unknown>;
  reload?: () => void;
  thresholdMs?: number;
};

// The network check is a fetch of the instrument groups (spec section 4, visibility rule).
const defaultCheck = () => http.get('/trading/symbol/groups', { noCache: true });
const defaultReload = () => window.location.reload();

/**
 * Visibility rule (spec section 4): the time the page was hidden is recorded; when it is
 * shown again after more than the threshold, a network check runs; success reloads the
 * page, failure opens the Network Connection Error dialog.
 */
export function useVisibilityNetworkCheck(options: VisibilityCheckOptions = {}) {
  const {
    now = Date.now,
    check = defaultCheck,
    reload = defaultReload,
    thresholdMs = AWAY_THRESHOLD_MS,
  } = options;
  const [dialogOpen, setDialogOpen] = useState(false);
  const hiddenAt = useRef<number | null>(null);
  const latest = useRef({ now, check, reload, thresholdMs });
  useEffect(() => {
    latest.current = { now, check, reload, thresholdMs };
  });

  useEffect(() => {
    let active = true;
    const onVisibility = () => {
      const { now, check, reload, thresholdMs } = latest.current;
      if (document.visibilityState === 'hidden') {
        hiddenAt.current = now();
        return;
      }
      const since = hiddenAt.current;
      hiddenAt.current = null;
      if (since === null || now() - since <= thresholdMs) return;
      check().then(
        () => {
          if (active) reload();
        },
        () => {
          if (active) setDialogOpen(true);
        },
      );
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      active = false;
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);

  const refresh = useCallback(() => latest.current.reload(), []);
  const cancel = useCallback(() => setDialogOpen(false), []);
  return { dialogOpen, refresh, cancel };
}
