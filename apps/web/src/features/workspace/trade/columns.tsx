import { formatEpochSeconds, formatLots, formatMoney } from '@ct/domain';
import { Button } from 'antd';
import type { TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { trading as messages } from '../../../i18n/defaults/trading';
import { messages as firstScreen } from '../../../i18n/firstScreen';
import { LiveRunTag } from '../../live-runs';
import { LevelCell, PnlText, PriceCell, SideCell } from './cells';

/*
 * Column factories of the trade tables: each table is a list of these. The key of a column
 * is its field's name (the data index), so a table's column keys name its fields.
 */

export type Column<T> = TableColumnsType<T>[number];
/** The fields of `T` whose values are of type `V`. */
type FieldOf<T, V> = { [K in keyof T]-?: T[K] extends V ? K : never }[keyof T] & string;
type WithSymbol = { symbol: string };

/*
 * Every column has a width, so the table's scroll width is their sum (tableScrollWidth):
 * the table scrolls inside itself, its pinned columns cover nothing at the end of the
 * scroll, and live values changing length do not shift the columns.
 */

/** Widths (px) by what a column holds; a longer title or word widens its column (textWidth). */
export const COLUMN_WIDTHS = {
  symbol: 80,
  side: 56,
  quantity: 72,
  price: 104,
  money: 96,
  pnl: 104,
  time: 160,
  id: 88,
  text: 72,
  label: 96,
  message: 240,
  button: 56,
} as const;
type WidthKind = keyof typeof COLUMN_WIDTHS;

/** Room a text needs: 14 px semibold letters and the cell's padding, rounded up to 8 px. */
export function textWidth(text: string): number {
  return Math.ceil((text.length * 8.5 + 16) / 8) * 8;
}

function widthOf(kind: WidthKind, title: string, longest = ''): number {
  return Math.max(COLUMN_WIDTHS[kind], textWidth(title), textWidth(longest));
}

/** The width the table scrolls to: the sum of its columns' widths. */
export function tableScrollWidth<T>(columns: TableColumnsType<T>): number {
  return columns.reduce(
    (sum, column) => sum + (typeof column.width === 'number' ? column.width : 0),
    0,
  );
}

/** A column of field `key`, shown by `render` (the value as text without it). */
function field<T, V>(
  key: FieldOf<T, V>,
  title: string,
  width: WidthKind | number,
  render?: (value: V, row: T) => ReactNode,
  align?: 'right',
): Column<T> {
  return {
    key,
    title,
    dataIndex: key,
    width: typeof width === 'number' ? width : widthOf(width, title),
    ...(render && { render }),
    ...(align && { align }),
  };
}

/** A number formatted in tabular figures. */
const numeric =
  <T,>(format: (value: number) => string, kind: WidthKind, align?: 'right') =>
  (key: FieldOf<T, number>, title: string): Column<T> =>
    field<T, number>(key, title, kind, (v) => <span className="num">{format(v)}</span>, align);

/** Room for the Live tag beside the instrument (a row a live run sent). */
const LIVE_TAG_WIDTH = 40;

/** The instrument of a row; a row a live run sent carries its Live tag. */
export function SymbolCell({ row }: { row: WithSymbol }) {
  return (
    <span className="live-run-symbol">
      {row.symbol}
      <LiveRunTag row={row as { comment?: string | null; clientOrderId?: string | null }} />
    </span>
  );
}

/** The instrument, pinned to the left (with room for the Live tag). */
export const symbolColumn = <T extends WithSymbol>(): Column<T> => ({
  key: 'symbol',
  title: messages.columns.symbol,
  dataIndex: 'symbol',
  width: widthOf('symbol', messages.columns.symbol) + LIVE_TAG_WIDTH,
  fixed: 'left',
  render: (_symbol: string, row: T) => <SymbolCell row={row} />,
});

/** Plain text (currency, time in force). */
export const textColumn = <T,>(key: FieldOf<T, string | null>, title: string) =>
  field<T, string | null>(key, title, 'text');

/**
 * A sentence (why an order was rejected or closed) in its own class; an empty one shows
 * nothing, a long one ends in '…' and shows whole on hover. The server writes it: a known
 * one is shown in the chosen language (`serverText`).
 */
export const messageColumn = <T,>(
  key: FieldOf<T, string | null>,
  title: string,
  className: string,
): Column<T> => ({
  ...field<T, string | null>(key, title, 'message', (v) => {
    const text = v ? firstScreen.http.serverText(v) : null;
    return text ? (
      <span className={className} title={text}>
        {text}
      </span>
    ) : null;
  }),
  ellipsis: true,
});

/** An id, right-aligned like the numbers. */
export const idColumn = <T,>(key: FieldOf<T, string | number>, title: string) =>
  field<T, string | number>(key, title, 'id', undefined, 'right');

/**
 * A code shown as its word (`label`, which may look at the row): status, action, settlement,
 * close reason; `longest` is the longest word, which the column makes room for.
 */
export const labelColumn = <T,>(
  key: FieldOf<T, number>,
  title: string,
  label: (code: number, row: T) => ReactNode,
  longest = '',
) => field<T, number>(key, title, widthOf('label', title, longest), label);

/** Buy or Sell (cmd 1 or 2), in their colours. */
export const sideColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(key, title, 'side', (cmd) => <SideCell cmd={cmd} />);

export const quantityColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  numeric<T>(formatLots, 'quantity', 'right')(key, title);

export const moneyColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  numeric<T>((v) => formatMoney(v), 'money', 'right')(key, title);

/** Epoch seconds as local date and time. */
export const timeColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  numeric<T>(formatEpochSeconds, 'time')(key, title);

/** A number in another format (a settle date). */
export const formattedColumn = <T,>(
  key: FieldOf<T, number>,
  title: string,
  format: (value: number) => string,
) => numeric<T>(format, 'label')(key, title);

/** A profit with its sign, green at zero or above, red below. */
export const pnlColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(key, title, 'pnl', (v) => <PnlText value={v} />, 'right');

/** A price with the decimals of the row's instrument. */
export const priceColumn = <T extends WithSymbol>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(
    key,
    title,
    'price',
    (v, row) => <PriceCell symbol={row.symbol} value={v} />,
    'right',
  );

/** A TP or SL level of the row's instrument, '—' when not set. */
export const levelColumn = <T extends WithSymbol>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(
    key,
    title,
    'price',
    (v, row) => <LevelCell symbol={row.symbol} value={v} />,
    'right',
  );

/**
 * A figure computed from the whole row (live market price, live P&L). Its column is as wide
 * as the figure, not its title, which wraps instead: these columns must stay in view beside
 * the pinned ones in a narrow panel.
 */
export const rowColumn = <T,>(
  key: FieldOf<T, number>,
  title: string,
  kind: 'price' | 'pnl',
  cell: (row: T) => ReactNode,
): Column<T> => ({
  ...field<T, number>(key, title, COLUMN_WIDTHS[kind], (_v, row) => cell(row), 'right'),
  onHeaderCell: () => ({ className: 'trade-th-wrap' }),
});

/**
 * A button per row, pinned to the right, named for screen readers and tests by its title,
 * the instrument and the row's id ('Close BTCUSDT 11').
 */
export function buttonColumn<T extends WithSymbol>(
  key: string,
  title: string,
  idOf: (row: T) => string,
  onClick: (row: T) => void,
  danger = false,
): Column<T> {
  return {
    key,
    title,
    width: widthOf('button', title),
    fixed: 'right',
    render: (_v: unknown, row: T) => (
      <Button
        size="small"
        danger={danger}
        aria-label={`${title} ${row.symbol} ${idOf(row)}`}
        onClick={() => onClick(row)}
      >
        {title}
      </Button>
    ),
  };
}
