import {
  closingPrice,
  floatingProfit,
  formatSettleDate,
  orderActionLabel,
  orderStatusLabel,
  settlementLabel,
  sideLabel,
  sideOfCmd,
} from '@ct/domain';
import { Button, Dropdown, Empty, Table, Typography } from 'antd';
import type { MenuProps, TableColumnsType } from 'antd';
import { useRef, useState, type MouseEvent } from 'react';
import { messages } from '../../../i18n/messages';
import { useInstrumentCatalogue, useSymbolInfo } from '../../chart/instruments';
import { openCancelPending, openClosePosition, openEditOrder } from '../../trading/dialogs';
import {
  formatLevel,
  formatMoney,
  formatPnl,
  formatPriceOf,
  formatQuantity,
  formatTime,
  tickOfInfo,
} from '../../trading/format';
import {
  useFollowPositionQuotes,
  usePositionQuote,
  useWatchSymbols,
} from '../../trading/positionQuotes';
import type { TradeSubTab } from '../bottom-panel/store';
import { useOrderLogs, usePendingOrders, usePositions, useSettledOrders } from './data';
import type { TableData } from './data';
import type { OrderLogRow, PendingOrderRow, PositionRow, SettledOrderRow } from './types';
import '../../trading/trading.css';

const c = messages.columns;
const b = messages.bottomPanel;

/** How a table is shown: `active` while its tab is visible, `narrow` in the phone layout. */
export type TradeTableProps = { active?: boolean; narrow?: boolean };

// ---- Cells ----

const right = { align: 'right' as const };

function SideCell({ cmd }: { cmd: number }) {
  return (
    <span className={cmd === 1 ? 'side-buy' : cmd === 2 ? 'side-sell' : undefined}>
      {sideLabel(cmd)}
    </span>
  );
}

function PnlText({ value }: { value: number }) {
  return <span className={value >= 0 ? 'num pnl-up' : 'num pnl-down'}>{formatPnl(value)}</span>;
}

/** A price with its instrument's decimals. */
function PriceCell({ symbol, value }: { symbol: string; value: number }) {
  const tick = tickOfInfo(useSymbolInfo(symbol));
  return <span className="num">{formatPriceOf(value, tick)}</span>;
}

/** A TP or SL level, '—' when not set. */
function LevelCell({ symbol, value }: { symbol: string; value: number }) {
  const tick = tickOfInfo(useSymbolInfo(symbol));
  return <span className="num">{formatLevel(value, tick)}</span>;
}

/** Flashes a changed value in its direction (background only: the row never moves). */
function useFlash(value: number): 'up' | 'down' | null {
  const [previous, setPrevious] = useState(value);
  const [direction, setDirection] = useState<'up' | 'down' | null>(null);
  if (value !== previous) {
    setPrevious(value);
    setDirection(value > previous ? 'up' : 'down');
  }
  return direction;
}

/** The live figures of a position row: market price (closing side) and unrealized P&L. */
function useLivePosition(row: PositionRow) {
  const info = useSymbolInfo(row.symbol);
  const quote = usePositionQuote(row.symbol);
  const side = sideOfCmd(row.cmd);
  if (!quote || quote.bid === null || quote.ask === null) {
    return { tick: tickOfInfo(info), market: row.marketPrice, profit: row.floatProfit };
  }
  const live = { bid: quote.bid, ask: quote.ask };
  const profit = info
    ? floatingProfit(
        { side, price: row.price, volume: row.volume, settledVol: row.settledVol },
        live,
        info,
      )
    : row.floatProfit;
  return { tick: tickOfInfo(info), market: closingPrice(side, live), profit };
}

function MarketPriceCell({ row }: { row: PositionRow }) {
  const { tick, market } = useLivePosition(row);
  const flash = useFlash(market);
  return (
    <span key={market} className={`num live-price${flash ? ` flash-${flash}` : ''}`}>
      {formatPriceOf(market, tick)}
    </span>
  );
}

function FloatingPnlCell({ row }: { row: PositionRow }) {
  const { profit } = useLivePosition(row);
  return <PnlText value={profit} />;
}

// ---- Row menu of the narrow layout ----

type RowMenu = { key: string; x: number; y: number; items: MenuProps['items'] } | null;

/**
 * Double-clicking (or double-tapping) a row opens its action menu (spec section 2, narrow
 * layout). Two clicks on the same row within 400 ms count as a double-click on touch
 * screens that send no dblclick.
 */
function useRowMenu<T>(
  rowKey: (row: T) => string,
  itemsOf: (row: T) => { key: string; label: string; onSelect: () => void }[],
) {
  const [menu, setMenu] = useState<RowMenu>(null);
  const actions = useRef(new Map<string, () => void>());
  const lastClick = useRef<{ key: string; at: number } | null>(null);

  const open = (row: T, event: MouseEvent) => {
    const entries = itemsOf(row);
    actions.current = new Map(entries.map((item) => [item.key, item.onSelect]));
    setMenu({
      key: rowKey(row),
      x: event.clientX,
      y: event.clientY,
      items: entries.map(({ key, label }) => ({ key, label })),
    });
  };

  const onRow = (row: T) => ({
    onDoubleClick: (event: MouseEvent) => open(row, event),
    onClick: (event: MouseEvent) => {
      const key = rowKey(row);
      const now = event.timeStamp;
      const last = lastClick.current;
      lastClick.current = { key, at: now };
      if (last && last.key === key && now - last.at < 400) open(row, event);
    },
  });

  const element = (
    <Dropdown
      open={menu !== null}
      onOpenChange={(next) => {
        if (!next) setMenu(null);
      }}
      trigger={['click']}
      menu={{
        items: menu?.items ?? [],
        className: 'row-menu',
        'aria-label': b.rowActions,
        onClick: ({ key }) => {
          setMenu(null);
          actions.current.get(key)?.();
        },
      }}
    >
      <span
        className="row-menu-anchor"
        style={{ left: menu?.x ?? 0, top: menu?.y ?? 0 }}
        aria-hidden="true"
      />
    </Dropdown>
  );
  return { onRow, element };
}

// ---- Tables ----

function TradeTable<T extends object>({
  label,
  columns,
  data,
  rowKey,
  emptyText,
  onRow,
  hint,
}: {
  label: string;
  columns: TableColumnsType<T>;
  data: TableData<T>;
  rowKey: (row: T) => string;
  emptyText: string;
  onRow?: (row: T) => Record<string, unknown>;
  hint?: string;
}) {
  return (
    <div className="trade-table-wrap">
      {hint && data.rows.length > 0 && (
        <Typography.Text type="secondary" className="row-hint">
          {hint}
        </Typography.Text>
      )}
      <Table<T>
        aria-label={label}
        className={onRow ? 'trade-table trade-table-narrow' : 'trade-table'}
        size="small"
        sticky
        columns={columns}
        dataSource={data.rows as T[]}
        loading={data.loading && data.rows.length === 0}
        rowKey={rowKey}
        pagination={false}
        scroll={{ x: 'max-content' }}
        onRow={onRow}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />,
        }}
      />
    </div>
  );
}

// On a phone the live figures come first, the rest scrolls inside the table.
const NARROW_FIRST = ['symbol', 'cmd', 'volume', 'floatProfit', 'marketPrice'];

const positionColumns = (narrow: boolean): TableColumnsType<PositionRow> => {
  const columns = allPositionColumns(narrow);
  if (!narrow) return columns;
  const rank = (key: unknown) => {
    const index = NARROW_FIRST.indexOf(String(key));
    return index === -1 ? NARROW_FIRST.length : index;
  };
  return [...columns].sort((a, b) => rank(a.key) - rank(b.key));
};

const allPositionColumns = (narrow: boolean): TableColumnsType<PositionRow> => [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'cmd', title: c.side, dataIndex: 'cmd', render: (cmd: number) => <SideCell cmd={cmd} /> },
  {
    key: 'volume',
    title: c.volume,
    dataIndex: 'volume',
    render: (v: number) => <span className="num">{formatQuantity(v)}</span>,
    ...right,
  },
  {
    key: 'settledVol',
    title: c.settledVolume,
    dataIndex: 'settledVol',
    render: (v: number) => <span className="num">{formatQuantity(v)}</span>,
    ...right,
  },
  {
    key: 'price',
    title: c.openPrice,
    dataIndex: 'price',
    render: (v: number, row) => <PriceCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'marketPrice',
    title: c.marketPrice,
    dataIndex: 'marketPrice',
    render: (_v: number, row) => <MarketPriceCell row={row} />,
    ...right,
  },
  {
    key: 'tp',
    title: c.tp,
    dataIndex: 'tp',
    render: (v: number, row) => <LevelCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'sl',
    title: c.sl,
    dataIndex: 'sl',
    render: (v: number, row) => <LevelCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'floatProfit',
    title: c.floatProfit,
    dataIndex: 'floatProfit',
    render: (_v: number, row) => <FloatingPnlCell row={row} />,
    ...right,
  },
  {
    key: 'commissionFee',
    title: c.commission,
    dataIndex: 'commissionFee',
    render: (v: number) => <span className="num">{formatMoney(v)}</span>,
    ...right,
  },
  {
    key: 'storage',
    title: c.swap,
    dataIndex: 'storage',
    render: (v: number) => <span className="num">{formatMoney(v)}</span>,
    ...right,
  },
  { key: 'currency', title: c.currency, dataIndex: 'currency' },
  {
    key: 'createdAt',
    title: c.openTime,
    dataIndex: 'createdAt',
    render: (v: number) => <span className="num">{formatTime(v)}</span>,
  },
  { key: 'orderId', title: c.orderId, dataIndex: 'orderId', ...right },
  ...(narrow
    ? []
    : ([
        {
          key: 'edit',
          title: c.edit,
          fixed: 'right',
          render: (_v: unknown, row) => (
            <Button
              size="small"
              aria-label={`${c.edit} ${row.symbol} ${row.orderId}`}
              onClick={() => openEditOrder(row)}
            >
              {c.edit}
            </Button>
          ),
        },
        {
          key: 'close',
          title: c.close,
          fixed: 'right',
          render: (_v: unknown, row) => (
            <Button
              size="small"
              danger
              aria-label={`${c.close} ${row.symbol} ${row.orderId}`}
              onClick={() => openClosePosition(row)}
            >
              {c.close}
            </Button>
          ),
        },
      ] satisfies TableColumnsType<PositionRow>)),
];

export function PositionsTable({ active = true, narrow = false }: TradeTableProps) {
  useInstrumentCatalogue();
  useFollowPositionQuotes();
  const data = usePositions(active);
  useWatchSymbols(data.rows.map((row) => row.symbol));
  const menu = useRowMenu<PositionRow>(
    (row) => row.orderId,
    (row) => [
      { key: 'edit', label: b.edit, onSelect: () => openEditOrder(row) },
      { key: 'close', label: b.close, onSelect: () => openClosePosition(row) },
    ],
  );
  return (
    <>
      <TradeTable
        label={b.positions}
        columns={positionColumns(narrow)}
        data={data}
        rowKey={(row) => row.orderId}
        emptyText={b.emptyPositions}
        onRow={narrow ? menu.onRow : undefined}
        hint={narrow ? b.rowHint : undefined}
      />
      {narrow && menu.element}
    </>
  );
}

const settledColumns: TableColumnsType<SettledOrderRow> = [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'tradeId', title: c.tradeId, dataIndex: 'tradeId', ...right },
  {
    key: 'openCmd',
    title: c.openSide,
    dataIndex: 'openCmd',
    render: (v: number) => <SideCell cmd={v} />,
  },
  {
    key: 'closeCmd',
    title: c.closeSide,
    dataIndex: 'closeCmd',
    render: (v: number) => <SideCell cmd={v} />,
  },
  {
    key: 'openPrice',
    title: c.openPrice,
    dataIndex: 'openPrice',
    render: (v: number, row) => <PriceCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'closePrice',
    title: c.closePrice,
    dataIndex: 'closePrice',
    render: (v: number, row) => <PriceCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'settleVolume',
    title: c.volume,
    dataIndex: 'settleVolume',
    render: (v: number) => <span className="num">{formatQuantity(v)}</span>,
    ...right,
  },
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
  {
    key: 'settleProfit',
    title: c.settleProfit,
    dataIndex: 'settleProfit',
    render: (v: number) => <PnlText value={v} />,
    ...right,
  },
  {
    key: 'openAt',
    title: c.openTime,
    dataIndex: 'openAt',
    render: (v: number) => <span className="num">{formatTime(v)}</span>,
  },
  {
    key: 'closeAt',
    title: c.closeTime,
    dataIndex: 'closeAt',
    render: (v: number) => <span className="num">{formatTime(v)}</span>,
  },
  {
    key: 'openCommission',
    title: c.openCommission,
    dataIndex: 'openCommission',
    render: (v: number) => <span className="num">{formatMoney(v)}</span>,
    ...right,
  },
  {
    key: 'closeCommission',
    title: c.closeCommission,
    dataIndex: 'closeCommission',
    render: (v: number) => <span className="num">{formatMoney(v)}</span>,
    ...right,
  },
  { key: 'currency', title: c.currency, dataIndex: 'currency' },
];

export function SettledOrdersTable({ active = true }: TradeTableProps) {
  useInstrumentCatalogue();
  return (
    <TradeTable
      label={b.orders}
      columns={settledColumns}
      data={useSettledOrders(active)}
      rowKey={(row) => row.tradeId}
      emptyText={b.emptyOrders}
    />
  );
}

const pendingColumns = (narrow: boolean): TableColumnsType<PendingOrderRow> => [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'cmd', title: c.side, dataIndex: 'cmd', render: (v: number) => <SideCell cmd={v} /> },
  {
    key: 'volume',
    title: c.volume,
    dataIndex: 'volume',
    render: (v: number) => <span className="num">{formatQuantity(v)}</span>,
    ...right,
  },
  {
    key: 'pendPrice',
    title: c.pendPrice,
    dataIndex: 'pendPrice',
    render: (v: number, row) => <PriceCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'tp',
    title: c.tp,
    dataIndex: 'tp',
    render: (v: number, row) => <LevelCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'sl',
    title: c.sl,
    dataIndex: 'sl',
    render: (v: number, row) => <LevelCell symbol={row.symbol} value={v} />,
    ...right,
  },
  { key: 'expireType', title: c.expireType, dataIndex: 'expireType' },
  {
    key: 'createdAt',
    title: c.createdAt,
    dataIndex: 'createdAt',
    render: (v: number) => <span className="num">{formatTime(v)}</span>,
  },
  { key: 'pId', title: c.pendingId, dataIndex: 'pId', ...right },
  ...(narrow
    ? []
    : ([
        {
          key: 'cancel',
          title: c.cancel,
          fixed: 'right',
          render: (_v: unknown, row) => (
            <Button
              size="small"
              danger
              aria-label={`${c.cancel} ${row.symbol} ${row.pId}`}
              onClick={() => openCancelPending(row)}
            >
              {c.cancel}
            </Button>
          ),
        },
      ] satisfies TableColumnsType<PendingOrderRow>)),
];

export function PendingOrdersTable({ active = true, narrow = false }: TradeTableProps) {
  useInstrumentCatalogue();
  const menu = useRowMenu<PendingOrderRow>(
    (row) => row.pId,
    (row) => [{ key: 'cancel', label: b.cancelOrder, onSelect: () => openCancelPending(row) }],
  );
  return (
    <>
      <TradeTable
        label={b.pending}
        columns={pendingColumns(narrow)}
        data={usePendingOrders(active)}
        rowKey={(row) => row.pId}
        emptyText={b.emptyPending}
        onRow={narrow ? menu.onRow : undefined}
        hint={narrow ? b.rowHint : undefined}
      />
      {narrow && menu.element}
    </>
  );
}

const orderLogColumns: TableColumnsType<OrderLogRow> = [
  { key: 'symbol', title: c.symbol, dataIndex: 'symbol', fixed: 'left' },
  { key: 'cmd', title: c.side, dataIndex: 'cmd', render: (v: number) => <SideCell cmd={v} /> },
  {
    key: 'actionType',
    title: c.action,
    dataIndex: 'actionType',
    render: (v: number) => orderActionLabel(v),
  },
  {
    key: 'volume',
    title: c.volume,
    dataIndex: 'volume',
    render: (v: number) => <span className="num">{formatQuantity(v)}</span>,
    ...right,
  },
  {
    key: 'price',
    title: c.price,
    dataIndex: 'price',
    render: (v: number, row) => <PriceCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'marketPrice',
    title: c.marketPrice,
    dataIndex: 'marketPrice',
    render: (v: number, row) => <PriceCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'orderStatus',
    title: c.status,
    dataIndex: 'orderStatus',
    render: (v: number) => (
      <span className={`order-status order-status-${v}`}>{orderStatusLabel(v)}</span>
    ),
  },
  {
    key: 'tp',
    title: c.tp,
    dataIndex: 'tp',
    render: (v: number, row) => <LevelCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'sl',
    title: c.sl,
    dataIndex: 'sl',
    render: (v: number, row) => <LevelCell symbol={row.symbol} value={v} />,
    ...right,
  },
  {
    key: 'commissionFee',
    title: c.commission,
    dataIndex: 'commissionFee',
    render: (v: number) => <span className="num">{formatMoney(v)}</span>,
    ...right,
  },
  { key: 'currency', title: c.currency, dataIndex: 'currency' },
  {
    key: 'createdAt',
    title: c.createdAt,
    dataIndex: 'createdAt',
    render: (v: number) => <span className="num">{formatTime(v)}</span>,
  },
  {
    key: 'transactTime',
    title: c.transactTime,
    dataIndex: 'transactTime',
    render: (v: number) => <span className="num">{formatTime(v)}</span>,
  },
  {
    key: 'message',
    title: c.message,
    dataIndex: 'message',
    render: (v: string) => (v ? <span className="log-message">{v}</span> : null),
  },
];

export function OrderLogsTable({ active = true }: TradeTableProps) {
  useInstrumentCatalogue();
  return (
    <TradeTable
      label={b.orderLogs}
      columns={orderLogColumns}
      data={useOrderLogs(active)}
      rowKey={(row) => String(row.sortId)}
      emptyText={b.emptyOrderLogs}
    />
  );
}

/** The sub-tabs of the Trade tab, in order, with their labels and tables. */
export const TRADE_TABLES: {
  key: TradeSubTab;
  label: string;
  Table: (props: TradeTableProps) => React.JSX.Element;
}[] = [
  { key: 'positions', label: b.positions, Table: PositionsTable },
  { key: 'orders', label: b.orders, Table: SettledOrdersTable },
  { key: 'pending', label: b.pending, Table: PendingOrdersTable },
  { key: 'orderLogs', label: b.orderLogs, Table: OrderLogsTable },
];
