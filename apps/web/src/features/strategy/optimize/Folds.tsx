import { formatMoney, type TrialPerformance, type WalkForwardAnswer } from '@ct/domain';
import { Empty, Table, Typography } from 'antd';
import { optimize as messages } from '../../../i18n/defaults/optimize';
import { EquityChart } from '../EquityChart';
import { paramsText } from './paramsText';

const m = messages.optimize;

const money = (performance: TrialPerformance | null) =>
  performance ? formatMoney(performance.net_profit) : '-';

const profitCell = (performance: TrialPerformance | null) => (
  <span
    className="num"
    style={performance ? { color: performance.net_profit >= 0 ? '#389e0d' : '#cf1322' } : undefined}
  >
    {money(performance)}
  </span>
);

/**
 * The walk-forward folds (dates, chosen parameters, in- and out-of-sample profit) and the
 * stitched out-of-sample equity next to the in-sample one over the same dates.
 */
export function Folds({ walkForward }: { walkForward: WalkForwardAnswer | undefined }) {
  if (!walkForward) return <Empty description={m.noWalkForward} />;
  // both curves start from the capital on the first out-of-sample bar
  const initialCapital =
    walkForward.in_sample?.equity[0]?.[1] ?? walkForward.stitched.equity[0]?.[1] ?? 0;
  const rows = walkForward.folds.map((fold, i) => ({ key: i, n: i + 1, ...fold }));
  const stitched = walkForward.stitched;
  return (
    <div className="opt-folds">
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        aria-label={m.folds_}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: m.fold, dataIndex: 'n', align: 'right' },
          {
            title: m.inSample,
            render: (_, r) => `${r.in_sample.from} → ${r.in_sample.to}`,
          },
          {
            title: m.outOfSample,
            render: (_, r) => `${r.out_of_sample.from} → ${r.out_of_sample.to}`,
          },
          { title: m.chosen, render: (_, r) => (r.params ? paramsText(r.params) : '-') },
          {
            title: m.isProfit,
            align: 'right',
            render: (_, r) => profitCell(r.in_sample.performance),
          },
          {
            title: m.oosProfit,
            align: 'right',
            render: (_, r) => (r.error ? r.error : profitCell(r.out_of_sample.performance)),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" className="num">
        {m.stitchedSummary(
          formatMoney(stitched.performance.net_profit),
          stitched.performance.trade_count,
        )}
      </Typography.Paragraph>
      <div className="opt-equity-pair">
        <figure>
          <figcaption>{m.stitched}</figcaption>
          <EquityChart curve={stitched.equity} initialCapital={initialCapital} label={m.stitched} />
        </figure>
        {walkForward.in_sample && (
          <figure>
            <figcaption>
              {m.inSampleEquity}
              {walkForward.in_sample.params && ` · ${paramsText(walkForward.in_sample.params)}`}
            </figcaption>
            <EquityChart
              curve={walkForward.in_sample.equity}
              initialCapital={initialCapital}
              label={m.inSampleEquity}
            />
          </figure>
        )}
      </div>
    </div>
  );
}
