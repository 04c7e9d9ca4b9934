import { Button } from 'antd';
import type { TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { messages } from '../../../i18n/messages';
import { formatMoney, formatQuantity, formatTime } from '../../trading/format';
import { LevelCell, PnlText, PriceCell, SideCell } from './cells';

/*
 * Column factories of the trade tables: each table is a list of these. The key of a column
 * is its field's name (the data index), so a table's column keys name its fields.
 */

export type Column<T> = TableColumnsType<T>[number];
/** The fields of `T` whose values are of type `V`. */
type FieldOf<T, V> = { [K in keyof T]-?: T[K] extends V ? K : never }[keyof T] & string;
type WithSymbol = { symbol: string };

/** A column of field `key`, shown by `render` (the value as text without it). */
function field<T, V>(
  key: FieldOf<T, V>,
  title: string,
  render?: (value: V, row: T) => ReactNode,
  align?: 'right',
): Column<T> {
  return { key, title, dataIndex: key, ...(render && { render }), ...(align && { align }) };
}

/** A number formatted in tabular figures. */
const numeric =
  <T,>(format: (value: number) => string, align?: 'right') =>
  (key: FieldOf<T, number>, title: string): Column<T> =>
    field<T, number>(key, title, (v) => <span className="num">{format(v)}</span>, align);

/** The instrument, pinned to the left. */
export const symbolColumn = <T extends WithSymbol>(): Column<T> => ({
  key: 'symbol',
  title: messages.columns.symbol,
  dataIndex: 'symbol',
  fixed: 'left',
});

/** Plain text (currency, time in force); with `className`, an empty text shows nothing. */
export const textColumn = <T,>(key: FieldOf<T, string | null>, title: string, className?: string) =>
  field<T, string | null>(
    key,
    title,
    className ? (v) => (v ? <span className={className}>{v}</span> : null) : undefined,
  );

/** An id, right-aligned like the numbers. */
export const idColumn = <T,>(key: FieldOf<T, string | number>, title: string) =>
  field<T, string | number>(key, title, undefined, 'right');

/** A code shown as its word (`label`): status, action, settlement, close reason. */
export const labelColumn = <T,>(
  key: FieldOf<T, number>,
  title: string,
  label: (code: number) => ReactNode,
) => field<T, number>(key, title, label);

/** Buy or Sell (cmd 1 or 2), in their colours. */
export const sideColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(key, title, (cmd) => <SideCell cmd={cmd} />);

export const quantityColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  numeric<T>(formatQuantity, 'right')(key, title);

export const moneyColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  numeric<T>(formatMoney, 'right')(key, title);

/** Epoch seconds as local date and time. */
export const timeColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  numeric<T>(formatTime)(key, title);

/** A number in another format (a settle date). */
export const formattedColumn = <T,>(
  key: FieldOf<T, number>,
  title: string,
  format: (value: number) => string,
) => numeric<T>(format)(key, title);

/** A profit with its sign, green at zero or above, red below. */
export const pnlColumn = <T,>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(key, title, (v) => <PnlText value={v} />, 'right');

/** A price with the decimals of the row's instrument. */
export const priceColumn = <T extends WithSymbol>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(key, title, (v, row) => <PriceCell symbol={row.symbol} value={v} />, 'right');

/** A TP or SL level of the row's instrument, '—' when not set. */
export const levelColumn = <T extends WithSymbol>(key: FieldOf<T, number>, title: string) =>
  field<T, number>(key, title, (v, row) => <LevelCell symbol={row.symbol} value={v} />, 'right');

/** A figure computed from the whole row (live market price, live P&L). */
export const rowColumn = <T,>(
  key: FieldOf<T, number>,
  title: string,
  cell: (row: T) => ReactNode,
): Column<T> => field<T, number>(key, title, (_v, row) => cell(row), 'right');

/** The same columns with those of `keys` first, in that order (a phone's narrow screen). */
export function withFirst<T>(columns: TableColumnsType<T>, keys: string[]): TableColumnsType<T> {
  const rank = (key: unknown) => {
    const index = keys.indexOf(String(key));
    return index === -1 ? keys.length : index;
  };
  return [...columns].sort((x, y) => rank(x.key) - rank(y.key));
}

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
