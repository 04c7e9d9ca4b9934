import { useEffect } from 'react';
import {
  useAccountLiveUpdates,
  closeEditOrder,
  useTradingDialogs,
  TradingDialogs,
} from '../../trading';
import { openSidePanel, useSidePanelStore } from '../side-panel/store';

/**
 * What trading needs on the wide workspace besides its panels: the account's live channel,
 * the close and cancel dialogs, and the edit-order action taking the side panel (it opens
 * the trading panel, which shows the Edit Order panel; leaving that panel ends the edit).
 */
export function WideTradingRuntime() {
  useAccountLiveUpdates();
  useEffect(() => {
    const stopEdit = useTradingDialogs.subscribe((s, prev) => {
      if (s.editOrder && s.editSeq !== prev.editSeq) openSidePanel('trading');
    });
    const stopPanel = useSidePanelStore.subscribe((s) => {
      if (s.active !== 'trading' && useTradingDialogs.getState().editOrder) closeEditOrder();
    });
    return () => {
      stopEdit();
      stopPanel();
    };
  }, []);
  return <TradingDialogs />;
}
