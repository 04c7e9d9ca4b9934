import { Button, Empty, Table, Typography } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { messages } from '../../../i18n/firstScreen';
import { tableScrollWidth } from './columns';
import type { TableData, TablePaging } from './data';
import { useRowMenu, type RowAction } from './rowMenu';

const b = messages.bottomPanel;

// The small pager's height (trade.css: 24 px items, 4 px padding, a 1 px border).
const PAGER_STICKY = { offsetScroll: 33 };

/** How a table is shown: `active` while its tab is visible, `narrow` in the phone layout. */
export type TradeTableProps = { active?: boolean; narrow?: boolean };

/**
 * One table of the Trade tab. A paged list shows one page at a time with a pager on a
 * desktop, and its pages one under the other with 'Load more' (also on scrolling to it) on a
 * phone. In the narrow layout each row is a two-line card (`card`) instead of columns, and
 * rows with actions open them on a double-click.
 */
export function TradeTable<T extends object>({
  label,
  columns,
  data,
  rowKey,
  emptyText,
  narrow = false,
  rowActions,
  totals,
  header,
  card,
}: {
  label: string;
  columns: TableColumnsType<T>;
  data: TableData<T>;
  rowKey: (row: T) => string;
  emptyText: string;
  narrow?: boolean;
  rowActions?: (row: T) => RowAction[];
  /** A totals row under the rows (while there are rows): its cells by column key. */
  totals?: TotalCells;
  /** Shown above the table (e.g. the account's figures over the phone's positions). */
  header?: ReactNode;
  /** A row as a card, shown instead of the columns in the narrow layout. */
  card: (row: T) => ReactNode;
}) {
  const menu = useRowMenu(rowKey, rowActions ?? (() => []));
  const withMenu = narrow && rowActions !== undefined;
  const top = useRef<HTMLSpanElement>(null);
  const { paging } = data;
  const view = paging
    ? pageView(data.rows, paging, narrow)
    : { rows: data.rows, expected: 1, page: 1 };

  const pagerShown = paging !== undefined && !narrow && paging.total > paging.pageSize;
  const shownColumns = narrow ? cardColumns(card) : columns;
  let className = 'trade-table';
  if (narrow) className += ' trade-table-cards';
  if (withMenu) className += ' trade-table-narrow';
  let pagination: TableProps<T>['pagination'] = false;
  if (paging && !narrow) {
    pagination = {
      current: view.page,
      pageSize: paging.pageSize,
      total: paging.total,
      size: 'small',
      showSizeChanger: false,
      hideOnSinglePage: true,
      showTotal: (total, [from, to]) => b.pageRange(from, to, total),
      onChange: (page) => {
        paging.setPage(page);
        // the new page starts at its top, like a page of a book
        top.current?.scrollIntoView?.({ block: 'nearest' });
      },
    };
  }

  return (
    <div className="trade-table-wrap">
      <span ref={top} className="trade-table-top" aria-hidden="true" />
      {header}
      {withMenu && data.rows.length > 0 && (
        <Typography.Text type="secondary" className="row-hint">
          {b.rowHint}
        </Typography.Text>
      )}
      <Table<T>
        aria-label={label}
        className={className}
        size="small"
        showHeader={!narrow}
        // the horizontal scroll bar sticks above the pager, which sticks to the bottom
        sticky={narrow ? false : pagerShown ? PAGER_STICKY : true}
        columns={shownColumns}
        dataSource={view.rows}
        // a spinner only where rows are missing: a live refresh keeps the rows on screen
        loading={data.loading && view.rows.length < view.expected}
        rowKey={rowKey}
        pagination={pagination}
        // the columns' widths add up to the scroll width (see columns.tsx); cards fit the screen
        scroll={narrow ? undefined : { x: tableScrollWidth(columns) }}
        onRow={withMenu ? menu.onRow : undefined}
        summary={
          totals && view.rows.length > 0
            ? () =>
                narrow ? (
                  <CardTotalsRow totals={totals} />
                ) : (
                  <TotalsRow columns={columns} totals={totals} />
                )
            : undefined
        }
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />,
        }}
      />
      {paging && narrow && view.rows.length < paging.total && (
        <LoadMore
          shown={view.rows.length}
          total={paging.total}
          loading={data.loading}
          onLoad={() => paging.setPage(view.page + 1)}
        />
      )}
      {withMenu && menu.element}
    </div>
  );
}

/** The one column of the narrow layout: each row's card. */
function cardColumns<T>(card: (row: T) => ReactNode): TableColumnsType<T> {
  return [{ key: 'card', render: (_value: unknown, row: T) => card(row) }];
}

/** The cells of a totals row by column key; `span` covers that many columns from it. */
export type TotalCells = Partial<Record<string, { content: ReactNode; span?: number }>>;

/** One cell per column, so each total sits under its column (and pinned ones stay pinned). */
function TotalsRow<T>({ columns, totals }: { columns: TableColumnsType<T>; totals: TotalCells }) {
  const cells: ReactNode[] = [];
  for (let index = 0; index < columns.length; index += 1) {
    const column = columns[index]!;
    const key = String(column.key ?? index);
    const total = totals[key];
    const span = Math.max(1, Math.min(total?.span ?? 1, columns.length - index));
    cells.push(
      <Table.Summary.Cell key={key} index={index} colSpan={span} align={column.align}>
        {total?.content ?? null}
      </Table.Summary.Cell>,
    );
    index += span - 1;
  }
  return (
    <Table.Summary fixed="bottom">
      <Table.Summary.Row className="trade-totals">{cells}</Table.Summary.Row>
    </Table.Summary>
  );
}

/** The totals under the cards of the narrow layout: one line, in the columns' order. */
function CardTotalsRow({ totals }: { totals: TotalCells }) {
  return (
    <Table.Summary fixed="bottom">
      <Table.Summary.Row className="trade-totals">
        <Table.Summary.Cell index={0}>
          <div className="trade-totals-card">
            {Object.entries(totals).map(([key, total]) =>
              total?.content ? <span key={key}>{total.content}</span> : null,
            )}
          </div>
        </Table.Summary.Cell>
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/**
 * The rows of a paged list on screen: page `page` on a desktop, pages 1 to `page` on a
 * phone; `expected` is how many there should be once loaded.
 */
function pageView<T>(rows: T[], paging: TablePaging, narrow: boolean) {
  const { pageSize, total } = paging;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(paging.page, pages);
  const start = narrow ? 0 : (page - 1) * pageSize;
  const end = page * pageSize;
  return {
    page,
    rows: rows.slice(start, end),
    // a phone keeps its rows on screen while the next page loads under them
    expected: narrow ? 1 : Math.max(1, Math.min(end, total) - start),
  };
}

/** The end of a phone's list: how many rows are shown, and a button for the next page. */
function LoadMore({
  shown,
  total,
  loading,
  onLoad,
}: {
  shown: number;
  total: number;
  loading: boolean;
  onLoad: () => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const load = useRef(onLoad);
  useEffect(() => {
    load.current = onLoad;
  });
  // Scrolling to the end loads the next page by itself.
  useEffect(() => {
    const target = button.current;
    if (!target || loading || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) load.current();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [loading, shown]);
  return (
    <div className="trade-table-more">
      <Typography.Text type="secondary" className="num">
        {b.shownOf(shown, total)}
      </Typography.Text>
      <Button ref={button} loading={loading} onClick={onLoad}>
        {b.loadMore}
      </Button>
    </div>
  );
}
