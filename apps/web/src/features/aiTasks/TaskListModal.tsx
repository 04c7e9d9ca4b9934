import {
  DeleteOutlined,
  MessageOutlined,
  PlusOutlined,
  ProfileOutlined,
  ReloadOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { aiTaskStatusView, isAiTaskActive } from '@ct/domain';
import { Button, Empty, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';
import {
  closeTaskList,
  openConversation,
  openCreateTask,
  openDetails,
  refreshTaskList,
  removeTask,
  setTaskPage,
} from './actions';
import type { AiTask } from './api';
import { pollWhileActive, statusColor, statusLabel, taskTime, TASK_PAGE_SIZES } from './logic';
import { useTaskPage } from './queries';
import { useAiTasksUi } from './store';

const m = messages.aiTasks;

/** A task's status as a tag: PENDING reads 'Waiting'; a running one spins. */
export function StatusTag({ status }: { status: string }) {
  const view = aiTaskStatusView(status);
  return (
    <Tag
      color={statusColor(view)}
      icon={view === 'processing' ? <SyncOutlined spin /> : undefined}
      data-status={view}
    >
      {statusLabel(status)}
    </Tag>
  );
}

/** AI Strategy Task List (80vw), while open. */
export function TaskListModal() {
  const open = useAiTasksUi((s) => s.listOpen);
  return open ? <TaskList /> : null;
}

function TaskList() {
  const page = useAiTasksUi((s) => s.page);
  const query = useTaskPage(page);
  const tasks = query.data?.tasks ?? [];
  const total = query.data?.total ?? 0;
  const polling = pollWhileActive(tasks) !== false;

  // A page left empty by a deletion shows the one before it.
  useEffect(() => {
    if (query.data && query.data.tasks.length === 0 && page.skip > 0 && !query.isPlaceholderData) {
      setTaskPage(Math.max(1, Math.ceil(query.data.total / page.limit)), page.limit);
    }
  }, [query.data, query.isPlaceholderData, page]);

  return (
    <Modal
      open
      title={m.listTitle}
      width="80vw"
      className="ai-task-modal"
      onCancel={closeTaskList}
      footer={null}
    >
      <div className="ai-task-toolbar">
        <Space wrap>
          <Button type="primary" icon={<PlusOutlined />} onClick={openCreateTask}>
            {m.create}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            loading={query.isFetching}
            onClick={() => void refreshTaskList()}
          >
            {m.refresh}
          </Button>
        </Space>
        {polling && (
          <Typography.Text type="secondary" className="ai-task-polling" data-testid="ai-polling">
            <SyncOutlined spin /> {m.polling}
          </Typography.Text>
        )}
      </div>
      <Table<AiTask>
        size="small"
        rowKey="id"
        aria-label={m.listTitle}
        loading={query.isLoading}
        dataSource={tasks}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={m.empty} /> }}
        pagination={{
          current: Math.floor(page.skip / page.limit) + 1,
          pageSize: page.limit,
          total,
          showSizeChanger: true,
          pageSizeOptions: TASK_PAGE_SIZES,
          showTotal: m.total,
          onChange: setTaskPage,
        }}
        columns={[
          {
            title: m.id,
            dataIndex: 'id',
            align: 'right',
            render: (id: number) => <span className="ai-task-num">{id}</span>,
          },
          {
            title: m.status,
            dataIndex: 'status',
            render: (status: string) => <StatusTag status={status} />,
          },
          {
            title: m.retryCount,
            dataIndex: 'retry_count',
            align: 'right',
            render: (n: number) => <span className="ai-task-num">{n}</span>,
          },
          {
            title: m.createdTime,
            dataIndex: 'created_at',
            render: (t: number) => <span className="ai-task-num">{taskTime(t)}</span>,
          },
          {
            title: m.actions,
            key: 'actions',
            render: (_, task) => <TaskActions task={task} />,
          },
        ]}
      />
    </Modal>
  );
}

function TaskActions({ task }: { task: AiTask }) {
  return (
    <Space size={0} wrap>
      <Button
        type="link"
        size="small"
        icon={<MessageOutlined />}
        onClick={() => openConversation(task.id)}
      >
        {m.conversation}
      </Button>
      <Button
        type="link"
        size="small"
        icon={<ProfileOutlined />}
        onClick={() => openDetails(task.id)}
      >
        {m.details}
      </Button>
      <Popconfirm
        title={
          isAiTaskActive(task.status) ? m.deleteActiveConfirm(task.id) : m.deleteConfirm(task.id)
        }
        okText={m.ok}
        cancelText={m.cancel}
        okButtonProps={{ danger: true }}
        onConfirm={() => removeTask(task.id)}
      >
        <Button type="link" size="small" danger icon={<DeleteOutlined />}>
          {m.delete}
        </Button>
      </Popconfirm>
    </Space>
  );
}
