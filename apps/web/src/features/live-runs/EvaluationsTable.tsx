import { Table, Typography } from 'antd';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { useSymbolInfo } from '../../market/instruments';
import type { LiveRunEvaluationView, LiveRunView } from './api';
import { price, quantity, Side, Time } from './cells';
import { EVALUATIONS_PAGE_SIZE } from './logic';
import { useEvaluations } from './queries';
import { useLiveRunsUi } from './store';

const m = messages.liveRuns;
const e = m.evaluation;

function Wanted({ evaluation, tick }: { evaluation: LiveRunEvaluationView; tick?: number }) {
  if (evaluation.wanted.length === 0)
    return <span className="live-run-muted">{e.nothingWanted}</span>;
  return (
    <ul className="live-run-list">
      {evaluation.wanted.map((w, i) => (
        <li key={i} className="num">
          <Side cmd={w.lots > 0 ? 1 : 2} />{' '}
          {e.wantedPosition(quantity(Math.abs(w.lots)), price(w.open_price, tick))}
        </li>
      ))}
    </ul>
  );
}

function Orders({ evaluation, tick }: { evaluation: LiveRunEvaluationView; tick?: number }) {
  if (evaluation.orders.length === 0) return <span className="live-run-muted">{e.noOrders}</span>;
  return (
    <ul className="live-run-list">
      {evaluation.orders.map((o) => (
        <li key={o.client_order_id} className="num">
          {o.action === 'open' ? e.open : e.close} <Side cmd={o.cmd} /> {quantity(o.volume)}{' '}
          {o.status === 'filled' && o.price !== null ? (
            <span>{e.filledAt(price(o.price, tick))}</span>
          ) : (
            <span className="pnl-down">{e.rejected(o.message)}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * A run's kept evaluations, newest first, a page at a time (the server pages them): when it
 * ran, the bars the strategy saw, the positions it wanted, the orders sent and their fills,
 * the error; a row with printed lines expands to show them.
 */
export function EvaluationsTable({ run }: { run: LiveRunView }) {
  const page = useLiveRunsUi((s) => s.evaluationPage);
  const tick = useSymbolInfo(run.symbol_id)?.min_price_tick;
  const query = useEvaluations(run.id, {
    skip: (page - 1) * EVALUATIONS_PAGE_SIZE,
    limit: EVALUATIONS_PAGE_SIZE,
  });
  const data = query.data;
  return (
    <Table<LiveRunEvaluationView>
      size="small"
      aria-label={m.tabs.evaluations}
      rowKey="at"
      loading={query.isFetching && !data}
      dataSource={data?.evaluations ?? []}
      scroll={{ x: 760 }}
      locale={{ emptyText: e.empty }}
      pagination={{
        current: page,
        pageSize: EVALUATIONS_PAGE_SIZE,
        total: data?.total ?? 0,
        showSizeChanger: false,
        hideOnSinglePage: true,
        onChange: (next) => useLiveRunsUi.setState({ evaluationPage: next }),
      }}
      expandable={{
        rowExpandable: (row) => row.printed.length > 0,
        expandedRowRender: (row) => (
          <div>
            <Typography.Text type="secondary">{e.printed}</Typography.Text>
            <pre className="live-run-printed">{row.printed.join('\n')}</pre>
          </div>
        ),
      }}
      columns={[
        { key: 'at', title: e.at, width: 170, render: (_, row) => <Time value={row.at} /> },
        { key: 'bars', title: e.bars, dataIndex: 'bars', width: 72, align: 'right' },
        {
          key: 'wanted',
          title: e.wanted,
          width: 180,
          render: (_, row) => <Wanted evaluation={row} tick={tick} />,
        },
        {
          key: 'orders',
          title: e.orders,
          width: 240,
          render: (_, row) => <Orders evaluation={row} tick={tick} />,
        },
        {
          key: 'error',
          title: e.error,
          width: 220,
          render: (_, row) =>
            row.error ? (
              <span className="pnl-down live-run-error" title={row.error}>
                {row.error}
              </span>
            ) : null,
        },
        {
          key: 'duration',
          title: e.duration,
          width: 80,
          align: 'right',
          render: (_, row) => <span className="num">{e.ms(row.duration_ms)}</span>,
        },
      ]}
    />
  );
}
