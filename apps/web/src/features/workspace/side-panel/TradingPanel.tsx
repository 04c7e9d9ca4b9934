import { Typography } from 'antd';
import { trading as messages } from '../../../i18n/defaults/trading';
import {
  closeEditOrder,
  useTradingDialogs,
  useTradingTarget,
  EditOrderPanel,
  TradingTabs,
} from '../../trading';
import { useActiveChart } from '../../../shared/chartGrid';

const t = messages.trading;

/**
 * The trading panel: '{symbol} Paper Trading' with the Order and DOM tabs. While an
 * edit-order action is active the Edit Order panel takes its place (spec section 2). While
 * the active chart replays, the panel trades the replay's own account, named as such.
 */
export function TradingPanel() {
  const activeChart = useActiveChart();
  const target = useTradingTarget(activeChart?.id);
  const editing = useTradingDialogs((s) => s.editOrder);
  const editSeq = useTradingDialogs((s) => s.editSeq);
  if (editing) {
    return (
      <div className="side-panel-body">
        <EditOrderPanel key={editSeq} order={editing} onClose={closeEditOrder} />
      </div>
    );
  }
  return (
    <div className="side-panel-body">
      <header className="side-panel-header">
        <Typography.Title level={5} className="side-panel-title">
          {target ? t.targetTitle(target.symbol) : t.title(activeChart?.symbol ?? null)}
        </Typography.Title>
      </header>
      <TradingTabs symbol={activeChart?.symbol ?? null} target={target} />
    </div>
  );
}
