import { Modal } from 'antd';
import { trading as messages } from '../../i18n/defaults/trading';
import { useActiveChart } from '../../shared/chartGrid';
import { clearChartTradeAction, useChartTradeAction } from '../../shared/tradeAction';
import { closeEditOrder, useTradingDialogs } from './dialogs';
import { EditOrderPanel } from './EditOrderPanel';
import { useTradingTarget } from './target';
import { TradingTabs } from './TradingTabs';
import './trading.css';

/** Full-screen modal frame of the phone layout. */
const FULL_SCREEN = {
  width: '100%',
  centered: false,
  className: 'fullscreen-modal',
  rootClassName: 'fullscreen-modal-root',
  footer: null,
  destroyOnHidden: true,
} as const;

/**
 * The trading modal of mobile-sized apps (spec section 4): open while a chart trade action
 * exists; closing it clears the action. While the chart replays that instrument, the ticket
 * trades the replay's account (target.ts).
 */
export function TradingModal() {
  const action = useChartTradeAction();
  const chartTarget = useTradingTarget(useActiveChart()?.id);
  const target = action && chartTarget?.symbol === action.symbol ? chartTarget : null;
  return (
    <Modal
      {...FULL_SCREEN}
      open={action !== null}
      title={
        target
          ? messages.trading.targetTitle(target.symbol)
          : messages.trading.title(action?.symbol ?? null)
      }
      onCancel={clearChartTradeAction}
    >
      {action && <TradingTabs symbol={action.symbol} target={target} />}
    </Modal>
  );
}

/** The Edit Order panel as a full-screen modal on phones. */
export function EditOrderModal() {
  const order = useTradingDialogs((s) => s.editOrder);
  const seq = useTradingDialogs((s) => s.editSeq);
  return (
    <Modal
      {...FULL_SCREEN}
      open={order !== null}
      title={messages.editOrder.title}
      onCancel={closeEditOrder}
    >
      {order && (
        <EditOrderPanel key={seq} order={order} onClose={closeEditOrder} showHeader={false} />
      )}
    </Modal>
  );
}
