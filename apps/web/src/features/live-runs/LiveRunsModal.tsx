import { Button, Card, Modal, Space, Table, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { useAccounts } from '../accounts';
import { closeLiveRuns, stopRun } from './actions';
import type { LiveRunView } from './api';
import { Pnl, quantity, RunStatus, Time } from './cells';
import { ComparisonView } from './ComparisonView';
import { EvaluationsTable } from './EvaluationsTable';
import { useLiveRunEvents, useLiveRuns } from './queries';
import { selectRun, useLiveRunsUi } from './store';

const m = messages.liveRuns;
const col = m.columns;
const NO_RUNS: LiveRunView[] = [];

function StopButton({ run }: { run: LiveRunView }) {
  const [busy, setBusy] = useState(false);
  if (run.status !== 'running') return null;
  return (
    <Button
      size="small"
      danger
      loading={busy}
      aria-label={m.stopNamed(run.strategy_name, run.symbol_id)}
      onClick={(event) => {
        event.stopPropagation();
        setBusy(true);
        void stopRun(run).finally(() => setBusy(false));
      }}
    >
      {m.stop}
    </Button>
  );
}

/** The run shown below the list: what it runs, then its evaluations or its comparison. */
function RunDetails({ run }: { run: LiveRunView }) {
  const tab = useLiveRunsUi((s) => s.tab);
  return (
    <Card
      size="small"
      className="live-run-details"
      title={m.runTitle(run.strategy_name, run.symbol_id, m.periodLabels[run.period])}
      extra={
        <Typography.Text type="secondary" className="num">
          {m.runMeta(quantity(run.lots), run.max_positions)}
        </Typography.Text>
      }
    >
      {run.error && (
        <Typography.Paragraph type="danger" className="live-run-error-line">
          {`${col.error}: ${run.error}`}
        </Typography.Paragraph>
      )}
      <Tabs
        activeKey={tab}
        onChange={(key) => useLiveRunsUi.setState({ tab: key as 'evaluations' | 'comparison' })}
        destroyOnHidden
        items={[
          {
            key: 'evaluations',
            label: m.tabs.evaluations,
            children: <EvaluationsTable run={run} />,
          },
          {
            key: 'comparison',
            label: m.tabs.comparison,
            children: <ComparisonView run={run} />,
          },
        ]}
      />
    </Card>
  );
}

/**
 * Live Runs: the user's forward tests on paper with their status, P&L, open positions, last
 * evaluation and error, and Stop; the list is polled while one of them runs. A row opens its
 * evaluations and its comparison with the backtest below the list.
 */
export function LiveRunsModal() {
  const open = useLiveRunsUi((s) => s.panelOpen);
  const selectedId = useLiveRunsUi((s) => s.selectedId);
  const { traders } = useAccounts();
  const query = useLiveRuns(open);
  useLiveRunEvents(open);
  const runs = query.data?.runs ?? NO_RUNS;
  const selected = runs.find((r) => r.id === selectedId) ?? null;

  // The newest run is shown until the user picks another.
  useEffect(() => {
    if (open && !selected && runs.length > 0) selectRun(runs[0]!.id);
  }, [open, selected, runs]);

  const accountName = (uuid: string) => traders.find((t) => t.uuid === uuid)?.name ?? uuid;

  return (
    <Modal
      open={open}
      title={m.panel}
      width="80vw"
      className="live-runs-modal"
      onCancel={closeLiveRuns}
      footer={null}
      destroyOnHidden
    >
      <div className="live-run-toolbar">
        <Typography.Text type="secondary">{m.panelHint}</Typography.Text>
        <Button size="small" loading={query.isFetching} onClick={() => void query.refetch()}>
          {m.refresh}
        </Button>
      </div>
      <Table<LiveRunView>
        size="small"
        aria-label={m.panel}
        rowKey="id"
        loading={query.isPending && open}
        dataSource={runs}
        scroll={{ x: 1180 }}
        pagination={{ pageSize: 5, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: m.empty }}
        rowClassName={(run) => (run.id === selected?.id ? 'live-run-selected' : '')}
        onRow={(run) => ({ onClick: () => selectRun(run.id) })}
        columns={[
          {
            key: 'strategy',
            title: col.strategy,
            width: 160,
            fixed: 'left',
            ellipsis: true,
            render: (_, run) => run.strategy_name,
          },
          {
            key: 'instrument',
            title: col.instrument,
            width: 120,
            render: (_, run) => `${run.symbol_id} · ${m.periodLabels[run.period]}`,
          },
          {
            key: 'status',
            title: col.status,
            width: 170,
            render: (_, run) => <RunStatus run={run} />,
          },
          {
            key: 'pnl',
            title: col.pnl,
            width: 100,
            align: 'right',
            render: (_, run) => <Pnl value={run.net_profit} />,
          },
          {
            key: 'open',
            title: col.openPositions,
            width: 120,
            align: 'right',
            render: (_, run) => <span className="num">{run.open_positions}</span>,
          },
          {
            key: 'last',
            title: col.lastEvaluation,
            width: 170,
            render: (_, run) => <Time value={run.last_evaluation_at} />,
          },
          {
            key: 'evaluations',
            title: col.evaluations,
            width: 96,
            align: 'right',
            render: (_, run) => <span className="num">{run.evaluations}</span>,
          },
          {
            key: 'orders',
            title: col.orders,
            width: 72,
            align: 'right',
            render: (_, run) => <span className="num">{run.orders}</span>,
          },
          {
            key: 'error',
            title: col.error,
            width: 200,
            ellipsis: true,
            render: (_, run) =>
              run.error ? (
                <span className="pnl-down" title={run.error}>
                  {run.error}
                </span>
              ) : null,
          },
          {
            key: 'account',
            title: col.account,
            width: 120,
            ellipsis: true,
            render: (_, run) => accountName(run.uuid),
          },
          {
            key: 'actions',
            title: col.actions,
            width: 130,
            fixed: 'right',
            render: (_, run) => (
              <Space size={4}>
                <Button
                  size="small"
                  type={run.id === selected?.id ? 'primary' : 'default'}
                  aria-label={m.showNamed(run.strategy_name, run.symbol_id)}
                  onClick={(event) => {
                    event.stopPropagation();
                    selectRun(run.id);
                  }}
                >
                  {m.show}
                </Button>
                <StopButton run={run} />
              </Space>
            ),
          },
        ]}
      />
      {selected && <RunDetails run={selected} />}
    </Modal>
  );
}
