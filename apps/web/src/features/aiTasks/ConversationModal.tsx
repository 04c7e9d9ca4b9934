import { isAiTaskActive, type AiStepType } from '@ct/domain';
import { Empty, Modal, Select, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';
import { closeConversation } from './actions';
import type { AiConversationMessage } from './api';
import { taskTime } from './logic';
import { useConversation, useTask } from './queries';
import { useAiTasksUi } from './store';

const m = messages.aiTasks;

/** AI Task Conversation History (50vw) of the chosen task. */
export function ConversationModal() {
  const id = useAiTasksUi((s) => s.conversationId);
  return id === null ? null : <Conversation id={id} />;
}

/** A step's name as shown; an unknown step type as it came. */
export function stepLabel(step: string): string {
  return step in m.steps ? m.steps[step as AiStepType] : step;
}

/** The timeline colour of a step: failures red, passed checks green, prompts blue. */
function stepColor(message: AiConversationMessage): string {
  if (message.step_type === 'error') return 'red';
  if (message.step_type === 'validation' || message.step_type === 'backtest') return 'green';
  if (message.role === 'user') return 'blue';
  return 'gray';
}

function Conversation({ id }: { id: number }) {
  const [retry, setRetry] = useState<number | null>(null);
  const task = useTask(id).data;
  const active = task ? isAiTaskActive(task.status) : false;
  const query = useConversation(id, retry, active);
  const data = query.data;
  const attempts = data?.retry_numbers ?? [];

  return (
    <Modal
      open
      title={m.conversationTitle(id)}
      width="50vw"
      className="ai-task-modal ai-task-conversation"
      onCancel={closeConversation}
      footer={null}
    >
      <div className="ai-task-toolbar">
        <Typography.Text strong data-testid="ai-total-messages">
          {m.totalMessages(data?.total_messages ?? 0)}
        </Typography.Text>
        {attempts.length > 1 && (
          <Space>
            <Typography.Text type="secondary">{m.attempt}</Typography.Text>
            <Select<number | 'all'>
              aria-label={m.attempt}
              size="small"
              style={{ minWidth: 140 }}
              value={retry ?? 'all'}
              onChange={(value) => setRetry(value === 'all' ? null : value)}
              options={[
                { value: 'all', label: m.allAttempts },
                ...attempts.map((n) => ({ value: n, label: m.attemptLabel(n) })),
              ]}
            />
          </Space>
        )}
      </div>
      {query.isLoading ? (
        <div className="ai-task-loading">
          <Spin />
        </div>
      ) : !data || data.conversations.length === 0 ? (
        <Empty description={m.noMessages} />
      ) : (
        <Timeline
          className="ai-task-timeline"
          items={data.conversations.map((message) => ({
            key: message.id,
            color: stepColor(message),
            content: <MessageItem message={message} />,
          }))}
        />
      )}
    </Modal>
  );
}

function MessageItem({ message }: { message: AiConversationMessage }) {
  return (
    <div className="ai-task-message" data-step={message.step_type}>
      <Space size={4} wrap>
        <Tag>{stepLabel(message.step_type)}</Tag>
        <Typography.Text type="secondary">{m.roles[message.role]}</Typography.Text>
        {message.retry_number > 0 && (
          <Tag color="orange">{m.attemptLabel(message.retry_number)}</Tag>
        )}
        <Typography.Text type="secondary" className="ai-task-num">
          {taskTime(message.created_at)}
        </Typography.Text>
      </Space>
      <pre className="ai-task-pre ai-task-message-content">{message.content}</pre>
    </div>
  );
}
