import { useAccountLiveUpdates } from './accountLive';
import { EditOrderModal, TradingModal } from './PhoneTradingModals';
import { TradingDialogs } from './TradingDialogs';

/**
 * Trading on the narrow (phone) workspace: the account's live channel, the full-screen
 * trading and Edit Order modals, and the close and cancel dialogs.
 */
export function NarrowTradingRuntime() {
  useAccountLiveUpdates();
  return (
    <>
      <TradingModal />
      <EditOrderModal />
      <TradingDialogs />
    </>
  );
}
