import { formatEpochSeconds } from '@ct/domain';
import { Alert, Button, Descriptions, Skeleton, Table, Tag, Typography } from 'antd';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { useSymbolInfo } from '../../market/instruments';
import type { ComparedTradeView, LiveRunView, PnlCauses } from './api';
import { CompareChart } from './CompareChart';
import { Pnl, price, quantity, Side } from './cells';
import { comparisonRows, pnlGap, type ComparisonRow } from './logic';
import { useComparison } from './queries';

const m = messages.liveRuns;
const c = m.comparison;
const CAUSES: (keyof PnlCauses)[] = ['spread', 'commission', 'slippage', 'missed_bars', 'other'];

// Texts read when drawn (getters), so in the language chosen.
const KIND = {
  matched: {
    get text() {
      return c.matched;
    },
    color: 'green',
  },
  only_backtest: {
    get text() {
      return c.onlyBacktest;
    },
    color: 'orange',
  },
  only_forward: {
    get text() {
      return c.onlyForward;
    },
    color: 'purple',
  },
} as const;

function OpenAt({ trade, tick }: { trade: ComparedTradeView | null; tick?: number }) {
  if (!trade) return <span className="live-run-muted">{m.none}</span>;
  return (
    <span className="num">
      {c.at(formatEpochSeconds(trade.open_time), price(trade.open_price, tick))}
    </span>
  );
}

function Profit({ trade }: { trade: ComparedTradeView | null }) {
  if (!trade) return <span className="live-run-muted">{m.none}</span>;
  return (
    <span>
      <Pnl value={trade.profit} />
      {trade.close_time === null && <span className="live-run-muted"> ({c.open})</span>}
    </span>
  );
}

/**
 * Backtest vs forward of one run (GET …/comparison): the P&L of both, the gap split into its
 * causes, both cumulative P&L curves on one chart, and every trade — matched pairs with their
 * price and timing differences, and those found on one side only.
 */
export function ComparisonView({ run }: { run: LiveRunView }) {
  const query = useComparison(run.id, true);
  const tick = useSymbolInfo(run.symbol_id)?.min_price_tick;
  const comparison = query.data;
  if (!comparison) {
    return query.isError ? (
      <Alert type="error" showIcon message={m.comparisonFailed} />
    ) : (
      <Skeleton active paragraph={{ rows: 4 }} />
    );
  }
  const rows = comparisonRows(comparison);
  const gap = pnlGap(comparison);
  return (
    <div className="live-run-comparison">
      <div className="live-run-toolbar">
        <Typography.Text type="secondary">
          {comparison.from !== null && comparison.to !== null
            ? c.stretch(
                formatEpochSeconds(comparison.from),
                formatEpochSeconds(comparison.to),
                comparison.bars,
              )
            : c.noBars}
        </Typography.Text>
        <Button size="small" loading={query.isFetching} onClick={() => void query.refetch()}>
          {m.refresh}
        </Button>
      </div>
      {comparison.backtest_error && (
        <Alert
          type="warning"
          showIcon
          message={c.backtestError}
          description={<pre className="live-run-printed">{comparison.backtest_error}</pre>}
        />
      )}
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 3 }}
        className="live-run-summary"
        items={[
          { key: 'bt', label: c.pnlBacktest, children: <Pnl value={comparison.pnl_backtest} /> },
          { key: 'fw', label: c.pnlForward, children: <Pnl value={comparison.pnl_forward} /> },
          { key: 'gap', label: c.gap, children: <Pnl value={gap} /> },
        ]}
      />
      <Descriptions
        size="small"
        title={c.causes}
        column={{ xs: 2, sm: 5 }}
        className="live-run-causes"
        items={CAUSES.map((cause) => ({
          key: cause,
          label: c.cause[cause],
          children: <Pnl value={comparison.causes[cause]} />,
        }))}
      />
      <CompareChart comparison={comparison} />
      <Typography.Title level={5}>{c.trades}</Typography.Title>
      <Typography.Paragraph type="secondary">
        {c.counts(
          comparison.matched.length,
          comparison.only_backtest.length,
          comparison.only_forward.length,
        )}
      </Typography.Paragraph>
      <Table<ComparisonRow>
        size="small"
        aria-label={c.trades}
        rowKey="key"
        dataSource={rows}
        scroll={{ x: 1000 }}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: c.empty }}
        columns={[
          {
            key: 'kind',
            title: c.kind,
            width: 120,
            render: (_, row) => <Tag color={KIND[row.kind].color}>{KIND[row.kind].text}</Tag>,
          },
          {
            key: 'side',
            title: c.side,
            width: 64,
            render: (_, row) => <Side cmd={(row.backtest ?? row.forward)!.cmd} />,
          },
          {
            key: 'volume',
            title: c.volume,
            width: 72,
            align: 'right',
            render: (_, row) => (
              <span className="num">{quantity((row.forward ?? row.backtest)!.volume)}</span>
            ),
          },
          {
            key: 'backtestOpen',
            title: c.backtestOpen,
            width: 210,
            render: (_, row) => <OpenAt trade={row.backtest} tick={tick} />,
          },
          {
            key: 'forwardOpen',
            title: c.forwardOpen,
            width: 210,
            render: (_, row) => <OpenAt trade={row.forward} tick={tick} />,
          },
          {
            key: 'openDiff',
            title: c.openDiff,
            width: 110,
            align: 'right',
            render: (_, row) =>
              row.openPriceDiff === null ? null : (
                <span className="num">{price(row.openPriceDiff, tick)}</span>
              ),
          },
          {
            key: 'delay',
            title: c.delay,
            width: 90,
            align: 'right',
            render: (_, row) =>
              row.openDelay === null ? null : (
                <span className="num">
                  {row.openDelay === 0 ? c.sameBar : c.seconds(row.openDelay)}
                </span>
              ),
          },
          {
            key: 'backtestProfit',
            title: c.backtestProfit,
            width: 120,
            align: 'right',
            render: (_, row) => <Profit trade={row.backtest} />,
          },
          {
            key: 'forwardProfit',
            title: c.forwardProfit,
            width: 120,
            align: 'right',
            render: (_, row) => <Profit trade={row.forward} />,
          },
          {
            key: 'profitDiff',
            title: c.profitDiff,
            width: 100,
            align: 'right',
            render: (_, row) => (row.profitDiff === null ? null : <Pnl value={row.profitDiff} />),
          },
        ]}
      />
    </div>
  );
}
