import { BarChartOutlined, CheckOutlined, StopOutlined } from '@ant-design/icons';
import {
  formatMoney,
  formatPercent,
  type OptimizationDetail,
  type OptimizationObjective,
  type OptimizationTrial,
  type ParamValues,
} from '@ct/domain';
import {
  Alert,
  Button,
  Empty,
  Progress,
  Skeleton,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useMemo, useState } from 'react';
import { optimize as messages } from '../../../i18n/defaults/optimize';
import { cancelRunning, openTrialResult, showTrialOnChart, applyTrialParameters } from './actions';
import { Folds } from './Folds';
import { Heatmap } from './Heatmap';
import { etaText } from './logic';
import { paramsText } from './paramsText';
import { isRunning, useDetail, useProgress } from './queries';
import { useOptimizeStore } from './store';
import { VerdictCard } from './VerdictCard';

const m = messages.optimize;

const num = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? '-' : value.toFixed(digits);
const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? '-' : formatPercent(value, 'fraction');

/** null after every number (either order), as the server sorts undefined values last. */
function byNumber(get: (t: OptimizationTrial) => number | null | undefined) {
  return (a: OptimizationTrial, b: OptimizationTrial) => {
    const x = get(a);
    const y = get(b);
    if (x === null || x === undefined) return y === null || y === undefined ? 0 : -1;
    if (y === null || y === undefined) return 1;
    return x - y;
  };
}

/** The buttons of one set of values: its full result, Show on Chart, Use these parameters. */
function TrialActions({
  optimization,
  params,
}: {
  optimization: OptimizationDetail;
  params: ParamValues;
}) {
  const [busy, setBusy] = useState<'result' | 'chart' | null>(null);
  const text = paramsText(params);
  const run = (which: 'result' | 'chart') => {
    setBusy(which);
    const action = which === 'result' ? openTrialResult : showTrialOnChart;
    void action(optimization, params).finally(() => setBusy(null));
  };
  return (
    <Space size={4} wrap>
      <Button
        size="small"
        icon={<BarChartOutlined />}
        aria-label={m.resultNamed(text)}
        loading={busy === 'result'}
        onClick={() => run('result')}
      >
        {m.result}
      </Button>
      <Button
        size="small"
        aria-label={m.showOnChartNamed(text)}
        loading={busy === 'chart'}
        onClick={() => run('chart')}
      >
        {m.showOnChart}
      </Button>
      <Button
        size="small"
        type="primary"
        ghost
        icon={<CheckOutlined />}
        aria-label={m.useParamsNamed(text)}
        onClick={() => applyTrialParameters(params)}
      >
        {m.useParams}
      </Button>
    </Space>
  );
}

/** Every trial, sortable by each parameter and figure (best objective first). */
export function TrialsTable({ optimization }: { optimization: OptimizationDetail }) {
  const names = useMemo(
    () => Object.keys(optimization.trials[0]?.params ?? optimization.best?.params ?? {}),
    [optimization],
  );
  const perf = (key: keyof NonNullable<OptimizationTrial['performance']>) =>
    byNumber((t) => t.performance?.[key]);
  // the objective's column says so and sorts best first (lowest drawdown first)
  const metric = (
    key: (keyof typeof m.columns & OptimizationObjective) | 'trade_count' | 'profit_factor',
  ) => ({
    key,
    title: key === optimization.objective ? m.objectiveColumn(m.columns[key]) : m.columns[key],
    align: 'right' as const,
    sorter: perf(key),
    ...(key === optimization.objective
      ? { defaultSortOrder: key === 'max_drawdown' ? ('ascend' as const) : ('descend' as const) }
      : {}),
  });
  const columns: TableColumnsType<OptimizationTrial> = [
    ...names.map((name) => ({
      title: name,
      key: `param:${name}`,
      align: 'right' as const,
      render: (_: unknown, t: OptimizationTrial) => (
        <span className="num">{String(t.params[name] ?? '-')}</span>
      ),
      sorter: (a: OptimizationTrial, b: OptimizationTrial) => {
        const x = a.params[name];
        const y = b.params[name];
        return typeof x === 'number' && typeof y === 'number'
          ? x - y
          : String(x).localeCompare(String(y));
      },
    })),
    {
      ...metric('net_profit'),
      render: (_, t) => {
        const v = t.performance?.net_profit;
        if (t.status === 'failed')
          return (
            <Tag color="error" title={t.error}>
              {m.trialFailed}
            </Tag>
          );
        return (
          <span
            className="num"
            style={v === undefined ? undefined : { color: v >= 0 ? '#389e0d' : '#cf1322' }}
          >
            {v === undefined ? '-' : formatMoney(v)}
          </span>
        );
      },
    },
    {
      ...metric('trade_count'),
      render: (_, t) => <span className="num">{t.performance?.trade_count ?? '-'}</span>,
    },
    {
      ...metric('win_rate'),
      render: (_, t) => <span className="num">{pct(t.performance?.win_rate)}</span>,
    },
    {
      ...metric('sharpe'),
      render: (_, t) => <span className="num">{num(t.performance?.sharpe, 4)}</span>,
    },
    {
      ...metric('max_drawdown'),
      render: (_, t) => <span className="num">{pct(t.performance?.max_drawdown)}</span>,
    },
    {
      ...metric('profit_factor'),
      render: (_, t) => <span className="num">{num(t.performance?.profit_factor, 4)}</span>,
    },
    {
      ...metric('sqn'),
      render: (_, t) => <span className="num">{num(t.performance?.sqn, 4)}</span>,
    },
    {
      title: m.columns.actions,
      key: 'actions',
      render: (_, t) =>
        t.status === 'done' ? <TrialActions optimization={optimization} params={t.params} /> : null,
    },
  ];
  return (
    <Table<OptimizationTrial>
      size="small"
      rowKey="index"
      aria-label={m.trials}
      dataSource={optimization.trials}
      columns={columns}
      sticky
      scroll={{ x: 'max-content' }}
      pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
      showSorterTooltip={false}
    />
  );
}

/** A finished optimisation: the verdict on top, then trials, heatmap and walk-forward. */
function Finished({ optimization }: { optimization: OptimizationDetail }) {
  const varied = useMemo(() => {
    const names = Object.keys(optimization.trials[0]?.params ?? {});
    return names.filter(
      (name) => new Set(optimization.trials.map((t) => String(t.params[name]))).size > 1,
    );
  }, [optimization]);
  const best = optimization.best;
  const bestLine = best ? (
    <div className="opt-best">
      <Typography.Text>
        {m.best}: <Typography.Text strong>{paramsText(best.params)}</Typography.Text>
      </Typography.Text>
      <TrialActions optimization={optimization} params={best.params} />
    </div>
  ) : (
    <Typography.Text type="secondary">{m.bestNone}</Typography.Text>
  );
  // every trial failed: most likely one error for all of them, said once
  const failure = optimization.trials.every((t) => t.status === 'failed')
    ? optimization.trials[0]?.error
    : undefined;
  return (
    <div className="opt-results">
      {failure && <Alert type="error" showIcon title={m.allFailed(failure)} />}
      {optimization.overfitting ? (
        <VerdictCard
          overfitting={optimization.overfitting}
          walkForward={optimization.walk_forward}
          extra={bestLine}
        />
      ) : (
        bestLine
      )}
      <Tabs
        size="small"
        items={[
          { key: 'trials', label: m.trials, children: <TrialsTable optimization={optimization} /> },
          {
            key: 'heatmap',
            label: m.heatmap,
            children: (
              <Heatmap
                trials={optimization.trials}
                names={varied}
                objective={optimization.objective}
              />
            ),
          },
          {
            key: 'folds',
            label: m.folds_,
            children: <Folds walkForward={optimization.walk_forward} />,
          },
        ]}
      />
    </div>
  );
}

const STATUS_COLORS = {
  PENDING: 'default',
  PROCESSING: 'processing',
  COMPLETED: 'success',
  FAILED: 'error',
  CANCELLED: 'warning',
} as const;

/** The Result tab: the progress of the optimisation shown, then its results. */
export function CurrentTab() {
  const id = useOptimizeStore((s) => s.current);
  const progress = useProgress(id);
  const status = progress.data?.status;
  const ended = progress.data !== undefined && !isRunning(status);
  const detail = useDetail(id, ended);
  if (id === null) return <Empty description={m.noCurrent} />;
  if (progress.isError) return <Alert type="error" showIcon title={m.loadFailed} />;
  const data = progress.data;
  if (!data) return <Skeleton active />;
  const { done, total, eta_s } = data.progress;
  const header = (
    <Space wrap className="opt-header">
      <Tag color={STATUS_COLORS[data.status]}>{m.status[data.status]}</Tag>
      <Typography.Text>
        {data.symbol_id} · {data.period} · {m.objectives[data.objective]} · {m.methods[data.method]}
      </Typography.Text>
    </Space>
  );
  if (!ended) {
    return (
      <div className="opt-running">
        {header}
        <Progress
          percent={total > 0 ? Math.floor((done / total) * 100) : 0}
          status="active"
          aria-label={m.progress(done, total)}
        />
        <Space wrap className="opt-progress-line">
          <Typography.Text className="num" data-testid="optimize-progress">
            {m.progress(done, total)}
          </Typography.Text>
          <Typography.Text type="secondary">{etaText(eta_s) ?? m.etaUnknown}</Typography.Text>
          <Button danger icon={<StopOutlined />} onClick={() => void cancelRunning(id)}>
            {m.cancel}
          </Button>
        </Space>
      </div>
    );
  }
  return (
    <div className="opt-ended">
      {header}
      {data.error && <Alert type="error" showIcon title={m.failed(data.error)} />}
      {detail.data ? (
        <Finished optimization={detail.data} />
      ) : detail.isError ? (
        <Alert type="error" showIcon title={m.loadFailed} />
      ) : (
        <Skeleton active />
      )}
    </div>
  );
}
