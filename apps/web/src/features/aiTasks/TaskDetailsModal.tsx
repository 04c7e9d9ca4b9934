import { CheckCircleOutlined, WarningOutlined } from '@ant-design/icons';
import type { AiBacktestResult, Performance } from '@ct/domain';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Space,
  Spin,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { aiTasks } from '../../i18n/defaults/aiTasks';
import { strategy } from '../../i18n/defaults/strategy';
import { EquityChart, metricRows, ResultsModal } from '../strategy';
import {
  closeCreateStrategy,
  closeDetails,
  closeResults,
  createStrategyFromTask,
  openConversation,
  openCreateStrategy,
  openResults,
} from './actions';
import type { AiTask } from './api';
import { autoStrategyName, canCreateStrategy, taskTime } from './logic';
import { useTask } from './queries';
import { useAiTasksUi } from './store';
import { StatusTag } from './TaskListModal';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...aiTasks, ...strategy };

const m = messages.aiTasks;

/** AI Task Details (800 px) of the chosen task, with its nested dialogs. */
export function TaskDetailsModal() {
  const id = useAiTasksUi((s) => s.detailsId);
  return id === null ? null : <TaskDetails id={id} />;
}

function TaskDetails({ id }: { id: number }) {
  const { data: task, isLoading } = useTask(id);
  const strategyFrom = useAiTasksUi((s) => s.strategyFromId);
  const resultsOf = useAiTasksUi((s) => s.resultsId);
  const creatable = task ? canCreateStrategy(task) : false;
  return (
    <>
      <Modal
        open
        title={m.detailsTitle(id)}
        width={800}
        className="ai-task-modal"
        onCancel={closeDetails}
        footer={[
          <Button key="close" onClick={closeDetails}>
            {m.close}
          </Button>,
          <Button key="conversation" onClick={() => openConversation(id)}>
            {m.conversation}
          </Button>,
          creatable && (
            <Button key="create" type="primary" onClick={() => openCreateStrategy(id)}>
              {m.createAsStrategy}
            </Button>
          ),
        ]}
      >
        {isLoading || !task ? (
          <div className="ai-task-loading">
            <Spin />
          </div>
        ) : (
          <TaskBody task={task} />
        )}
      </Modal>
      {task && strategyFrom === id && <CreateStrategyDialog task={task} />}
      {task?.backtest_result && resultsOf === id && (
        <ResultsModal
          open
          view={{
            deals: task.backtest_result.deals,
            performance: task.backtest_result.performance,
            error: null,
            symbol: task.symbol_id,
          }}
          onClose={closeResults}
          saveDisabled
        />
      )}
    </>
  );
}

function TaskBody({ task }: { task: AiTask }) {
  return (
    <div className="ai-task-details" data-testid="ai-task-details">
      <Typography.Title level={5}>{m.basicInfo}</Typography.Title>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2 }}
        items={[
          { key: 'id', label: m.id, children: task.id },
          { key: 'status', label: m.status, children: <StatusTag status={task.status} /> },
          {
            key: 'retry',
            label: m.retryCount,
            children: `${task.retry_count} / ${task.max_retries}`,
          },
          { key: 'chart', label: m.chart, children: `${task.symbol_id} · ${task.period}` },
          { key: 'model', label: m.model, children: `${task.provider} · ${task.model}` },
          { key: 'created', label: m.createdTime, children: taskTime(task.created_at) },
          { key: 'started', label: m.startedTime, children: taskTime(task.started_at) },
          { key: 'finished', label: m.finishedTime, children: taskTime(task.finished_at) },
        ]}
      />
      {task.error_message && (
        <>
          <Typography.Title level={5}>{m.errorMessage}</Typography.Title>
          <Alert
            type="error"
            showIcon
            title={<pre className="ai-task-pre-plain">{task.error_message}</pre>}
          />
        </>
      )}
      <Typography.Title level={5}>{m.promptLabel}</Typography.Title>
      <Typography.Paragraph className="ai-task-prompt">{task.prompt}</Typography.Paragraph>
      <TaskCode task={task} />
      <Typography.Title level={5}>{m.backtest}</Typography.Title>
      {task.backtest_result ? (
        <BacktestSummary taskId={task.id} result={task.backtest_result} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={m.noBacktest} />
      )}
    </div>
  );
}

/** The generated code: its first lines, or all of it (the Show Preview / Show Full Code toggle). */
function TaskCode({ task }: { task: AiTask }) {
  const [full, setFull] = useState(false);
  const whole = task.full_code ?? task.code;
  const preview = task.code_preview ?? whole;
  const differs = whole !== null && preview !== null && whole !== preview;
  const shown = full ? whole : preview;
  return (
    <>
      <div className="ai-task-heading">
        <Typography.Title level={5}>{m.code}</Typography.Title>
        {differs && (
          <Button size="small" onClick={() => setFull((f) => !f)}>
            {full ? m.showPreview : m.showFullCode}
          </Button>
        )}
      </div>
      {shown ? (
        <pre className="ai-task-pre ai-task-code" data-testid="ai-task-code" data-full={full}>
          {shown}
        </pre>
      ) : (
        <Typography.Text type="secondary">{m.noCode}</Typography.Text>
      )}
    </>
  );
}

/** The rows compared across the whole period and its two parts. */
const COMPARED = new Set([
  '开始时间 (Start)',
  '结束时间 (End)',
  'Bars',
  '交易次数 (Trades)',
  '胜率 (Win rate)',
  '净利润 (Net profit)',
  'Profit rate',
  'Profit factor',
  'Max drawdown',
  'Sharpe ratio',
  'Expectancy',
]);

type ComparedRow = { key: string; label: string; whole: string; inSample: string; oos: string };

/** Whole period, in-sample and out-of-sample side by side (the results view's metric rows). */
export function comparedRows(result: AiBacktestResult): ComparedRow[] {
  const values = (p: Performance | null) =>
    new Map((p ? metricRows(p) : []).map((row) => [row.key, row.value]));
  const whole = values(result.performance);
  const inSample = values(result.in_sample.performance);
  const oos = values(result.out_of_sample.performance);
  return metricRows(result.performance)
    .filter((row) => COMPARED.has(row.key))
    .map((row) => ({
      key: row.key,
      label: row.label,
      whole: whole.get(row.key) ?? '-',
      inSample: inSample.get(row.key) ?? '-',
      oos: oos.get(row.key) ?? '-',
    }));
}

function BacktestSummary({ taskId, result }: { taskId: number; result: AiBacktestResult }) {
  const inPct = Math.round(result.in_sample_fraction * 100);
  const { lookahead, performance } = result;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Alert
        type={lookahead.passed ? 'success' : 'warning'}
        showIcon
        icon={lookahead.passed ? <CheckCircleOutlined /> : <WarningOutlined />}
        title={lookahead.passed ? m.lookaheadPassed : m.lookaheadFailed}
        description={lookahead.detail}
        data-testid="ai-lookahead"
      />
      <Table<ComparedRow>
        size="small"
        rowKey="key"
        pagination={false}
        scroll={{ x: 'max-content' }}
        aria-label={m.backtest}
        dataSource={comparedRows(result)}
        columns={[
          { title: messages.strategy.metric, dataIndex: 'label' },
          { title: m.wholePeriod, dataIndex: 'whole', align: 'right', className: 'ai-task-num' },
          {
            title: m.inSample(inPct),
            dataIndex: 'inSample',
            align: 'right',
            className: 'ai-task-num',
          },
          {
            title: m.outOfSample(100 - inPct),
            dataIndex: 'oos',
            align: 'right',
            className: 'ai-task-num',
          },
        ]}
      />
      <Typography.Text type="secondary">{m.oosExplained}</Typography.Text>
      {(performance.equity_curve?.length ?? 0) > 0 && (
        <EquityChart
          curve={performance.equity_curve}
          initialCapital={performance.initial_capital}
          label={messages.strategy.equityCurve}
        />
      )}
      <Button onClick={() => openResults(taskId)}>{m.fullResults}</Button>
    </Space>
  );
}

/** The nested 'Create Strategy' name dialog: the task's code saved as a new strategy. */
function CreateStrategyDialog({ task }: { task: AiTask }) {
  const [name, setName] = useState(() => autoStrategyName(new Date()));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    setSaving(true);
    try {
      const outcome = await createStrategyFromTask(task.id, name);
      setProblem(outcome.inline ? outcome.message : null);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={m.createStrategyTitle}
      className="ai-task-modal"
      okText={m.ok}
      cancelText={m.cancel}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={closeCreateStrategy}
    >
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item
          label={m.strategyName}
          htmlFor="ai-strategy-name"
          validateStatus={problem ? 'error' : undefined}
          help={problem ?? undefined}
        >
          <Input
            id="ai-strategy-name"
            autoFocus
            value={name}
            placeholder={m.strategyNamePlaceholder}
            onChange={(event) => {
              setName(event.target.value);
              setProblem(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
