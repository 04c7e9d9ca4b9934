import { formatMoney } from '@ct/domain';
import { Button, Modal, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { strategy as messages } from '../../i18n/defaults/strategy';
import type { StrategyResultSummary, StrategyResultSummaryPage } from './api';
import { RUN_HISTORY_PAGE_SIZE } from './logic';
import { winRate } from './ResultsModal';
import { useResultsPage } from './queries';

const m = messages.strategy;
const NO_RESULTS: StrategyResultSummaryPage = { results: [], total: 0 };

/**
 * Strategy Run History: the results of a strategy, 10 per page, newest first: those saved
 * with Save Results and the runs kept by themselves, each marked Saved or Auto.
 */
export function RunHistoryModal({
  strategy,
  onClose,
  onViewDetails,
  onShowOnChart,
}: {
  strategy: string;
  onClose: () => void;
  /** Both load the result's deals first (the listing has none): the row's button spins. */
  onViewDetails: (result: StrategyResultSummary) => Promise<void>;
  onShowOnChart: (result: StrategyResultSummary) => Promise<void>;
}) {
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<{ id: number; action: 'details' | 'chart' } | null>(null);
  const act = (action: 'details' | 'chart', r: StrategyResultSummary) => {
    if (busy) return;
    setBusy({ id: r.id, action });
    const run = action === 'details' ? onViewDetails : onShowOnChart;
    void run(r).finally(() => setBusy(null));
  };
  // While another page is on its way, the rows shown stay; a failure says so and keeps them.
  const query = useResultsPage(strategy, {
    skip: (page - 1) * RUN_HISTORY_PAGE_SIZE,
    limit: RUN_HISTORY_PAGE_SIZE,
  });
  const data = query.data ?? NO_RESULTS;
  const loading = query.isFetching;

  return (
    <Modal
      open
      title={`${m.historyTitle} · ${strategy}`}
      width="80vw"
      onCancel={onClose}
      footer={null}
    >
      <Table<StrategyResultSummary>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={data.results}
        aria-label={m.historyTitle}
        pagination={{
          current: page,
          pageSize: RUN_HISTORY_PAGE_SIZE,
          total: data.total,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          {
            title: m.runTime,
            dataIndex: 'created_at',
            render: (t: number, r) => (
              <Space size={6}>
                <span className="num">{dayjs(t * 1000).format('YYYY-MM-DD HH:mm:ss')}</span>
                {r.automatic ? (
                  <Tag bordered={false} title={m.historyAutoTitle}>
                    {m.historyAuto}
                  </Tag>
                ) : (
                  <Tag bordered={false} color="blue" title={m.historySavedTitle}>
                    {m.historySaved}
                  </Tag>
                )}
              </Space>
            ),
          },
          { title: m.symbol, dataIndex: 'symbol_id' },
          {
            title: m.totalProfit,
            render: (_, r) => {
              const net = r.performance?.净利润;
              if (net === undefined || net === null) return '-';
              return (
                <span style={{ color: net >= 0 ? '#389e0d' : '#cf1322' }}>{formatMoney(net)}</span>
              );
            },
          },
          { title: m.winRate, render: (_, r) => winRate(r.performance?.胜率) },
          { title: m.tradeCount, render: (_, r) => r.performance?.交易次数 ?? r.deal_count },
          {
            title: m.actions,
            render: (_, r) => (
              <Space>
                <Button
                  size="small"
                  loading={busy?.id === r.id && busy.action === 'details'}
                  onClick={() => act('details', r)}
                >
                  {m.viewDetails}
                </Button>
                <Button
                  size="small"
                  loading={busy?.id === r.id && busy.action === 'chart'}
                  onClick={() => act('chart', r)}
                >
                  {m.showOnChart}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </Modal>
  );
}
