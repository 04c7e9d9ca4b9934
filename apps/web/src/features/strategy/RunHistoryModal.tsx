import { Button, Modal, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { notify } from '../../shared/notify';
import { messages } from '../../i18n/messages';
import { fetchResults, type StrategyResult } from './api';
import { formatWinRate, RUN_HISTORY_PAGE_SIZE } from './logic';

const m = messages.strategy;

/** Strategy Run History: the saved results of a strategy, 10 per page, newest first. */
export function RunHistoryModal({
  strategy,
  onClose,
  onViewDetails,
  onShowOnChart,
}: {
  strategy: string;
  onClose: () => void;
  onViewDetails: (result: StrategyResult) => void;
  onShowOnChart: (result: StrategyResult) => void;
}) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ results: StrategyResult[]; total: number }>({
    results: [],
    total: 0,
  });
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let live = true;
    fetchResults(strategy, {
      skip: (page - 1) * RUN_HISTORY_PAGE_SIZE,
      limit: RUN_HISTORY_PAGE_SIZE,
    })
      .then((answer) => live && setData(answer))
      .catch(() => live && notify.error(m.historyFailed))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [strategy, page]);

  return (
    <Modal
      open
      title={`${m.historyTitle} · ${strategy}`}
      width="80vw"
      onCancel={onClose}
      footer={null}
    >
      <Table<StrategyResult>
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
          onChange: (next) => {
            setLoading(true);
            setPage(next);
          },
        }}
        columns={[
          {
            title: m.runTime,
            dataIndex: 'created_at',
            render: (t: number) => dayjs(t * 1000).format('YYYY-MM-DD HH:mm:ss'),
          },
          { title: m.symbol, dataIndex: 'symbol_id' },
          {
            title: m.totalProfit,
            render: (_, r) => {
              const net = r.performance?.净利润;
              if (net === undefined || net === null) return '-';
              return (
                <span style={{ color: net >= 0 ? '#389e0d' : '#cf1322' }}>{net.toFixed(2)}</span>
              );
            },
          },
          { title: m.winRate, render: (_, r) => formatWinRate(r.performance?.胜率) },
          { title: m.tradeCount, render: (_, r) => r.performance?.交易次数 ?? r.deals.length },
          {
            title: m.actions,
            render: (_, r) => (
              <Space>
                <Button size="small" onClick={() => onViewDetails(r)}>
                  {m.viewDetails}
                </Button>
                <Button size="small" onClick={() => onShowOnChart(r)}>
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
