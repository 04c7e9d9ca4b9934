import {
  formatSettleDate,
  orderActionLabel,
  orderStatusLabel,
  PNL_DECIMALS,
  settlementLabel,
  sideLabel,
} from '@ct/domain';
import { Empty, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { messages } from '../../../i18n/messages';
import type { TradeSubTab } from '../bottom-panel/store';
import { useOrderLogs, usePendingOrders, usePositions, useSettledOrders } from './data';
import type { TableData } from './data';
import type { OrderLogRow, PendingOrderRow, PositionRow, SettledOrderRow } from './types';

const c = messages.columns;
const b = messages.bottomPanel;

const num = (value: number) => <span className="num">{value}</span>;
const pnl = (value: number) => (
  <span className={value >= 0 ? 'num pnl-up' : 'num pnl-down'}>
    {value > 0 ? '+' : ''}
    {value.toFixed(PNL_DECIMALS)}
  </span>
);
const side = (cmd: number) => (
  <span className={cmd === 1 ? 'side-buy' : cmd === 2 ? 'side-sell' : undefined}>
    {sideLabel(cmd)}
  </span>
);
// Times are shown as the server sends them until the trading issue fixes their unit.
const time = (value: string | number) => <span className="num">{String(value)}</span>;

const right = { align: 'right' as const };

const positionColumns: TableColumnsType<PositionRow> = [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'cmd', title: c.side, dataIndex: 'cmd', render: side },
  { key: 'volume', title: c.volume, dataIndex: 'volume', render: num, ...right },
  { key: 'settledVol', title: c.settledVolume, dataIndex: 'settledVol', render: num, ...right },
  { key: 'price', title: c.openPrice, dataIndex: 'price', render: num, ...right },
  { key: 'marketPrice', title: c.marketPrice, dataIndex: 'marketPrice', render: num, ...right },
  { key: 'tp', title: c.tp, dataIndex: 'tp', render: num, ...right },
  { key: 'sl', title: c.sl, dataIndex: 'sl', render: num, ...right },
  { key: 'floatProfit', title: c.floatProfit, dataIndex: 'floatProfit', render: pnl, ...right },
  { key: 'commissionFee', title: c.commission, dataIndex: 'commissionFee', render: num, ...right },
  { key: 'storage', title: c.swap, dataIndex: 'storage', render: num, ...right },
  { key: 'currency', title: c.currency, dataIndex: 'currency' },
  { key: 'createdAt', title: c.openTime, dataIndex: 'createdAt', render: time },
  { key: 'orderId', title: c.orderId, dataIndex: 'orderId' },
];

const settledColumns: TableColumnsType<SettledOrderRow> = [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'tradeId', title: c.tradeId, dataIndex: 'tradeId' },
  { key: 'openCmd', title: c.openSide, dataIndex: 'openCmd', render: side },
  { key: 'closeCmd', title: c.closeSide, dataIndex: 'closeCmd', render: side },
  { key: 'openPrice', title: c.openPrice, dataIndex: 'openPrice', render: num, ...right },
  { key: 'closePrice', title: c.closePrice, dataIndex: 'closePrice', render: num, ...right },
  { key: 'settleVolume', title: c.volume, dataIndex: 'settleVolume', render: num, ...right },
  {
    key: 'isSettled',
    title: c.settleStatus,
    dataIndex: 'isSettled',
    render: (v: number) => settlementLabel(v),
  },
  {
    key: 'settleDate',
    title: c.settleDate,
    dataIndex: 'settleDate',
    render: (v: string | number) => <span className="num">{formatSettleDate(v)}</span>,
  },
  { key: 'settleProfit', title: c.settleProfit, dataIndex: 'settleProfit', render: pnl, ...right },
  { key: 'openAt', title: c.openTime, dataIndex: 'openAt', render: time },
  { key: 'closeAt', title: c.closeTime, dataIndex: 'closeAt', render: time },
  {
    key: 'openCommission',
    title: c.openCommission,
    dataIndex: 'openCommission',
    render: num,
    ...right,
  },
  {
    key: 'closeCommission',
    title: c.closeCommission,
    dataIndex: 'closeCommission',
    render: num,
    ...right,
  },
  { key: 'currency', title: c.currency, dataIndex: 'currency' },
];

const pendingColumns: TableColumnsType<PendingOrderRow> = [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'cmd', title: c.side, dataIndex: 'cmd', render: side },
  { key: 'volume', title: c.volume, dataIndex: 'volume', render: num, ...right },
  { key: 'pendPrice', title: c.pendPrice, dataIndex: 'pendPrice', render: num, ...right },
  { key: 'tp', title: c.tp, dataIndex: 'tp', render: num, ...right },
  { key: 'sl', title: c.sl, dataIndex: 'sl', render: num, ...right },
  { key: 'expireType', title: c.expireType, dataIndex: 'expireType' },
  { key: 'pId', title: c.pendingId, dataIndex: 'pId' },
];

const orderLogColumns: TableColumnsType<OrderLogRow> = [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'cmd', title: c.side, dataIndex: 'cmd', render: side },
  {
    key: 'actionType',
    title: c.action,
    dataIndex: 'actionType',
    render: (v: number) => orderActionLabel(v),
  },
  { key: 'volume', title: c.volume, dataIndex: 'volume', render: num, ...right },
  { key: 'price', title: c.price, dataIndex: 'price', render: num, ...right },
  { key: 'marketPrice', title: c.marketPrice, dataIndex: 'marketPrice', render: num, ...right },
  {
    key: 'orderStatus',
    title: c.status,
    dataIndex: 'orderStatus',
    render: (v: number) => orderStatusLabel(v),
  },
  { key: 'tp', title: c.tp, dataIndex: 'tp', render: num, ...right },
  { key: 'sl', title: c.sl, dataIndex: 'sl', render: num, ...right },
  { key: 'commissionFee', title: c.commission, dataIndex: 'commissionFee', render: num, ...right },
  { key: 'currency', title: c.currency, dataIndex: 'currency' },
  { key: 'createdAt', title: c.createdAt, dataIndex: 'createdAt', render: time },
  { key: 'transactTime', title: c.transactTime, dataIndex: 'transactTime', render: time },
];

function TradeTable<T extends object>({
  label,
  columns,
  data,
  rowKey,
  emptyText,
}: {
  label: string;
  columns: TableColumnsType<T>;
  data: TableData<T>;
  rowKey: (row: T) => string;
  emptyText: string;
}) {
  return (
    <Table<T>
      aria-label={label}
      className="trade-table"
      size="small"
      sticky
      columns={columns}
      dataSource={data.rows}
      loading={data.loading}
      rowKey={rowKey}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{
        emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />,
      }}
    />
  );
}

export function PositionsTable() {
  return (
    <TradeTable
      label={b.positions}
      columns={positionColumns}
      data={usePositions()}
      rowKey={(row) => row.uuid}
      emptyText={b.emptyPositions}
    />
  );
}

export function SettledOrdersTable() {
  return (
    <TradeTable
      label={b.orders}
      columns={settledColumns}
      data={useSettledOrders()}
      rowKey={(row) => row.tradeId}
      emptyText={b.emptyOrders}
    />
  );
}

export function PendingOrdersTable() {
  return (
    <TradeTable
      label={b.pending}
      columns={pendingColumns}
      data={usePendingOrders()}
      rowKey={(row) => row.pId}
      emptyText={b.emptyPending}
    />
  );
}

export function OrderLogsTable() {
  return (
    <TradeTable
      label={b.orderLogs}
      columns={orderLogColumns}
      data={useOrderLogs()}
      // Log rows carry no id in the spec; the trading issue should add one.
      rowKey={(row) => `${row.symbol}-${row.actionType}-${row.createdAt}-${row.transactTime}`}
      emptyText={b.emptyOrderLogs}
    />
  );
}

/** The sub-tabs of the Trade tab, in order, with their labels and tables. */
export const TRADE_TABLES: { key: TradeSubTab; label: string; Table: () => React.JSX.Element }[] = [
  { key: 'positions', label: b.positions, Table: PositionsTable },
  { key: 'orders', label: b.orders, Table: SettledOrdersTable },
  { key: 'pending', label: b.pending, Table: PendingOrdersTable },
  { key: 'orderLogs', label: b.orderLogs, Table: OrderLogsTable },
];
