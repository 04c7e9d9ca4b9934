import { useLanguage } from '../../../shared/language';
import {
  closeReasonLabel,
  formatLots,
  formatMoney,
  formatSettleDate,
  orderActionLabel,
  orderStatusLabel,
  settlementLabel,
} from '@ct/domain';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import { messages as firstScreen } from '../../../i18n/firstScreen';
import { trading } from '../../../i18n/defaults/trading';
import { useInstrumentCatalogue } from '../../../market/instruments';
import {
  openCancelPending,
  openClosePosition,
  openEditOrder,
  AccountBar,
  usePositionTotals,
  type PositionTotals,
  useFollowPositionQuotes,
  useWatchSymbols,
} from '../../trading';
import { TRADE_SUB_TAB_LABELS, type TradeSubTab } from '../bottom-panel/store';
import { FloatingPnlCell, MarketPriceCell } from './cells';
import {
  buttonColumn,
  formattedColumn,
  idColumn,
  labelColumn,
  levelColumn,
  messageColumn,
  moneyColumn,
  pnlColumn,
  priceColumn,
  quantityColumn,
  rowColumn,
  sideColumn,
  symbolColumn,
  textColumn,
  timeColumn,
} from './columns';
import { OrderLogCard, PendingOrderCard, PositionCard, SettledOrderCard } from './cards';
import {
  useActiveTarget,
  useOrderLogs,
  usePendingOrders,
  usePositions,
  useSettledOrders,
} from './data';
import { TradeTable, type TotalCells, type TradeTableProps } from './TradeTable';
import type { OrderLogRow, PendingOrderRow, PositionRow, SettledOrderRow } from './types';
import './trade.css';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...firstScreen, ...trading };

export type { TradeTableProps } from './TradeTable';

const c = messages.columns;

/**
 * A table's columns, made once and again when the language changes (their titles are texts;
 * the table is drawn again, not remounted).
 */
function useColumns<T>(make: () => T): T {
  const language = useLanguage();
  const [made, setMade] = useState(() => ({ language, columns: make() }));
  if (made.language === language) return made.columns;
  const next = { language, columns: make() };
  setMade(next);
  return next.columns;
}
const b = messages.bottomPanel;
const a = messages.accountMoney;

// ---- Positions ----

// What a trader watches comes first, so it stays in view left of the pinned Edit and Close
// however narrow the panel is: instrument, side, volume, open and market price, floating P&L.
const positionColumns = (): TableColumnsType<PositionRow> => [
  symbolColumn(),
  sideColumn('cmd', c.side),
  quantityColumn('volume', c.volume),
  priceColumn('price', c.openPrice),
  rowColumn('marketPrice', c.marketPrice, 'price', (row) => <MarketPriceCell row={row} />),
  rowColumn('floatProfit', c.floatProfit, 'pnl', (row) => <FloatingPnlCell row={row} />),
  levelColumn('tp', c.tp),
  levelColumn('sl', c.sl),
  quantityColumn('settledVol', c.settledVolume),
  moneyColumn('commissionFee', c.commission),
  moneyColumn('storage', c.swap),
  textColumn('currency', c.currency),
  timeColumn('createdAt', c.openTime),
  idColumn('orderId', c.orderId),
  // a phone shows cards and opens these from the row menu
  buttonColumn<PositionRow>('edit', c.edit, (row) => row.orderId, openEditOrder),
  buttonColumn<PositionRow>('close', c.close, (row) => row.orderId, openClosePosition, true),
];

/**
 * The positions' totals row: the open lots by side under Side and Volume, the floating P&L
 * in USD under Floating P&L (each a text of its own, so no cell's text repeats a row's).
 */
function positionTotalCells(totals: PositionTotals): TotalCells {
  const buy = formatLots(totals.buy);
  const sell = formatLots(totals.sell);
  const pnl = formatMoney(totals.floatingPnl, { signed: true });
  return {
    symbol: { content: <strong>{a.total}</strong> },
    cmd: {
      span: 2,
      content: (
        <span className="trade-totals-pair num" aria-label={a.totalVolume(buy, sell)}>
          <span className="side-buy">{`${messages.trading.buy} ${buy}`}</span>
          <span className="side-sell">{`${messages.trading.sell} ${sell}`}</span>
        </span>
      ),
    },
    floatProfit: {
      content: (
        <span
          title={a.totalPnl(totals.currency)}
          className={totals.floatingPnl >= 0 ? 'num pnl-up' : 'num pnl-down'}
        >{`${pnl} ${totals.currency}`}</span>
      ),
    },
  };
}

export function PositionsTable({ active = true, narrow = false }: TradeTableProps) {
  useInstrumentCatalogue();
  useFollowPositionQuotes();
  const data = usePositions(active);
  const target = useActiveTarget();
  useWatchSymbols(data.rows.map((row) => row.symbol));
  const ownTotals = usePositionTotals(data.rows);
  // a replay's floating P&L is the session's, at its cursor (not at live quotes)
  const totals = target
    ? { ...ownTotals, floatingPnl: target.figures.floating, currency: target.figures.currency }
    : ownTotals;
  // Built once per mount: a language switch mounts the tables again.
  const columns = useColumns(positionColumns);
  return (
    <TradeTable
      label={b.positions}
      columns={columns}
      card={(row) => <PositionCard row={row} />}
      data={data}
      rowKey={(row) => row.orderId}
      emptyText={b.emptyPositions}
      narrow={narrow}
      // a phone has no bottom panel header: the account's figures lead its positions
      header={narrow ? <AccountBar variant="strip" target={target} /> : undefined}
      totals={positionTotalCells(totals)}
      rowActions={(row) => [
        { key: 'edit', label: b.edit, onSelect: () => openEditOrder(row) },
        { key: 'close', label: b.close, onSelect: () => openClosePosition(row) },
      ]}
    />
  );
}

// ---- Orders (settlements) ----

// The outcome comes first: at what prices, how much profit, and why it closed.
const settledColumns = (): TableColumnsType<SettledOrderRow> => [
  symbolColumn(),
  sideColumn('openCmd', c.openSide),
  quantityColumn('settleVolume', c.volume),
  priceColumn('openPrice', c.openPrice),
  priceColumn('closePrice', c.closePrice),
  pnlColumn('settleProfit', c.settleProfit),
  labelColumn('closeReason', c.closeReason, (reason) => c.domainLabel(closeReasonLabel(reason))),
  labelColumn('isSettled', c.settleStatus, (settled) => c.domainLabel(settlementLabel(settled))),
  sideColumn('closeCmd', c.closeSide),
  timeColumn('closeAt', c.closeTime),
  timeColumn('openAt', c.openTime),
  formattedColumn('settleDate', c.settleDate, formatSettleDate),
  moneyColumn('openCommission', c.openCommission),
  moneyColumn('closeCommission', c.closeCommission),
  textColumn('currency', c.currency),
  idColumn('tradeId', c.tradeId),
];

export function SettledOrdersTable({ active = true, narrow = false }: TradeTableProps) {
  useInstrumentCatalogue();
  // Built once per mount: a language switch mounts the tables again.
  const columns = useColumns(settledColumns);
  return (
    <TradeTable
      label={b.orders}
      columns={columns}
      card={(row) => <SettledOrderCard row={row} />}
      data={useSettledOrders(active)}
      rowKey={(row) => row.tradeId}
      emptyText={b.emptyOrders}
      narrow={narrow}
    />
  );
}

// ---- Pending orders ----

const pendingColumns = (): TableColumnsType<PendingOrderRow> => [
  symbolColumn(),
  sideColumn('cmd', c.side),
  quantityColumn('volume', c.volume),
  priceColumn('pendPrice', c.pendPrice),
  levelColumn('tp', c.tp),
  levelColumn('sl', c.sl),
  textColumn('expireType', c.expireType),
  timeColumn('createdAt', c.createdAt),
  idColumn('pId', c.pendingId),
  // a phone shows cards and opens this from the row menu
  buttonColumn<PendingOrderRow>('cancel', c.cancel, (row) => row.pId, openCancelPending, true),
];

export function PendingOrdersTable({ active = true, narrow = false }: TradeTableProps) {
  useInstrumentCatalogue();
  // Built once per mount: a language switch mounts the tables again.
  const columns = useColumns(pendingColumns);
  return (
    <TradeTable
      label={b.pending}
      columns={columns}
      card={(row) => <PendingOrderCard row={row} />}
      data={usePendingOrders(active)}
      rowKey={(row) => row.pId}
      emptyText={b.emptyPending}
      narrow={narrow}
      rowActions={(row) => [
        { key: 'cancel', label: b.cancelOrder, onSelect: () => openCancelPending(row) },
      ]}
    />
  );
}

// ---- Order log ----

const orderLogColumns = (): TableColumnsType<OrderLogRow> => [
  symbolColumn(),
  sideColumn('cmd', c.side),
  // our Modify rows (3) say what they changed: a position's TP/SL or a pending order
  labelColumn(
    'actionType',
    c.action,
    (action, row) => c.domainLabel(orderActionLabel(action, row.pId !== null)),
    c.domainLabel(orderActionLabel(3)),
  ),
  quantityColumn('volume', c.volume),
  priceColumn('price', c.price),
  priceColumn('marketPrice', c.marketPrice),
  labelColumn(
    'orderStatus',
    c.status,
    (status) => (
      <span className={`order-status order-status-${status}`}>
        {c.domainLabel(orderStatusLabel(status))}
      </span>
    ),
    c.domainLabel(orderStatusLabel(3)), // Partially Filled
  ),
  levelColumn('tp', c.tp),
  levelColumn('sl', c.sl),
  moneyColumn('commissionFee', c.commission),
  textColumn('currency', c.currency),
  timeColumn('createdAt', c.createdAt),
  timeColumn('transactTime', c.transactTime),
  // why it was rejected, canceled, expired or closed by TP/SL
  messageColumn('message', c.message, 'log-message'),
];

export function OrderLogsTable({ active = true, narrow = false }: TradeTableProps) {
  useInstrumentCatalogue();
  // Built once per mount: a language switch mounts the tables again.
  const columns = useColumns(orderLogColumns);
  return (
    <TradeTable
      label={b.orderLogs}
      columns={columns}
      card={(row) => <OrderLogCard row={row} />}
      data={useOrderLogs(active)}
      rowKey={(row) => String(row.sortId)}
      emptyText={b.emptyOrderLogs}
      narrow={narrow}
    />
  );
}

/** The sub-tabs of the Trade tab, in order, with their labels (read in the current language) and tables. */
export const TRADE_TABLES: {
  key: TradeSubTab;
  label: string;
  Table: (props: TradeTableProps) => React.JSX.Element;
}[] = [
  {
    key: 'positions',
    get label() {
      return TRADE_SUB_TAB_LABELS.positions;
    },
    Table: PositionsTable,
  },
  {
    key: 'orders',
    get label() {
      return TRADE_SUB_TAB_LABELS.orders;
    },
    Table: SettledOrdersTable,
  },
  {
    key: 'pending',
    get label() {
      return TRADE_SUB_TAB_LABELS.pending;
    },
    Table: PendingOrdersTable,
  },
  {
    key: 'orderLogs',
    get label() {
      return TRADE_SUB_TAB_LABELS.orderLogs;
    },
    Table: OrderLogsTable,
  },
];
