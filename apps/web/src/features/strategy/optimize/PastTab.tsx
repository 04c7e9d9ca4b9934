import { DeleteOutlined, FolderOpenOutlined } from '@ant-design/icons';
import type { OptimizationSummary } from '@ct/domain';
import { Alert, Button, Empty, Space, Table, Tag } from 'antd';
import { optimize as messages } from '../../../i18n/defaults/optimize';
import { openOptimization, optimizedStrategy, removeOptimization } from './actions';
import { useOptimizationList } from './queries';

const m = messages.optimize;

const when = (seconds: number) => {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

/** The strategy's past optimisations, newest first: open one, or delete it. */
export function PastTab() {
  const list = useOptimizationList(optimizedStrategy());
  if (list.isError) return <Alert type="error" showIcon title={m.pastFailed} />;
  return (
    <Table<OptimizationSummary>
      size="small"
      rowKey="id"
      aria-label={m.tabs.past}
      loading={list.isPending}
      dataSource={list.data ?? []}
      scroll={{ x: 'max-content' }}
      pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
      locale={{ emptyText: <Empty description={m.pastEmpty} /> }}
      columns={[
        {
          title: m.pastColumns.created,
          render: (_, r) => <span className="num">{when(r.created_at)}</span>,
        },
        { title: m.pastColumns.instrument, render: (_, r) => `${r.symbol_id} · ${r.period}` },
        { title: m.pastColumns.objective, render: (_, r) => m.objectives[r.objective] },
        { title: m.pastColumns.status, render: (_, r) => <Tag>{m.status[r.status]}</Tag> },
        {
          title: m.pastColumns.trials,
          align: 'right',
          render: (_, r) => <span className="num">{`${r.trials_done} / ${r.trials_total}`}</span>,
        },
        {
          title: m.pastColumns.actions,
          render: (_, r) => (
            <Space size={4}>
              <Button
                size="small"
                icon={<FolderOpenOutlined />}
                aria-label={m.openNamed(when(r.created_at))}
                onClick={() => openOptimization(r.id)}
              >
                {m.open}
              </Button>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={m.deleteNamed(when(r.created_at))}
                onClick={() => void removeOptimization(r.id)}
              >
                {m.delete}
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );
}
