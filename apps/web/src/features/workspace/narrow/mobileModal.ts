import { useEffect } from 'react';
import { useMobileModalStore } from '../../../realtime/frames';
import { clearChartTradeAction, useChartTradeStore } from '../../../shared/tradeAction';

/**
 * The phone trading modal's visibility, a shared item between windows (spec section 3,
 * 'mobile modal visibility flag'): while the narrow layout is shown it is on exactly while a
 * chart trade action exists (spec section 4: the modal opens when one appears, and closing
 * it clears the action). The modal is closed from another window by turning the flag off,
 * which clears the action here too.
 */
export function useMobileTradingModal(): void {
  useEffect(() => {
    const show = (visible: boolean) => {
      if (useMobileModalStore.getState().visible !== visible) {
        useMobileModalStore.setState({ visible });
      }
    };
    show(useChartTradeStore.getState().action !== null);
    const stopAction = useChartTradeStore.subscribe((state, previous) => {
      if (state.action !== previous.action) show(state.action !== null);
    });
    const stopVisible = useMobileModalStore.subscribe((state, previous) => {
      if (previous.visible && !state.visible && useChartTradeStore.getState().action !== null) {
        clearChartTradeAction();
      }
    });
    return () => {
      stopAction();
      stopVisible();
      show(false);
    };
  }, []);
}
