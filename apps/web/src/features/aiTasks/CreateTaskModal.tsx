import { AI_TASK_FORM_MESSAGES, MAX_AI_TASK_PROMPT_CHARS } from '@ct/domain';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';
import { notify } from '../../shared/notify';
import {
  EndpointItem,
  ModelItem,
  ProviderItem,
  providerDefaults,
  useProviderChoice,
  loadAssistantSettings,
  useAssistantSettings,
} from '../assistant';
import { workbenchTarget, useWorkbenchStore } from '../strategy';
import { closeCreateTask, submitTask, type TaskFormValues } from './actions';
import { useAiTasksUi } from './store';

const m = messages.aiTasks;
const f = m.form;
const rules = AI_TASK_FORM_MESSAGES;

/** The chart a new task is backtested on, as the form shows it. */
function ActiveChart() {
  // re-read when the workbench's chart changes
  useWorkbenchStore((s) => s.request);
  const chart = workbenchTarget();
  if (!chart?.symbol) return <Alert type="warning" showIcon title={m.noActiveChart} />;
  return (
    <Typography.Text type="secondary" data-testid="ai-task-chart">
      {f.chart(chart.symbol, chart.period)}
    </Typography.Text>
  );
}

/** Create AI Strategy Task (600 px), while open. */
export function CreateTaskModal() {
  const open = useAiTasksUi((s) => s.createOpen);
  return open ? <CreateTaskForm /> : null;
}

/**
 * The description (at most 1000 characters, with a counter) and the model: provider, model
 * and API base URL as in the API Settings (the provider fills its endpoint and first model),
 * the key optional when one is saved.
 */
function CreateTaskForm() {
  const [form] = Form.useForm<TaskFormValues>();
  const providers = useAssistantSettings((s) => s.providers);
  const savedKey = useAssistantSettings((s) => s.apiKey);
  const [submitting, setSubmitting] = useState(false);

  // Starts from the settings in use (the stored ones until the server's arrive).
  useEffect(() => {
    const fill = () => {
      const state = useAssistantSettings.getState();
      const defaults = providerDefaults(state.providers ?? [], state.provider);
      form.setFieldsValue({
        provider: state.provider,
        model: state.model || defaults?.model || '',
        baseURL: state.baseURL || defaults?.baseURL || '',
      });
    };
    fill();
    loadAssistantSettings()
      .then(fill)
      .catch(() => notify.error(m.providersFailed));
  }, [form]);

  const { chosen, needsKey, onProviderChange } = useProviderChoice(form, providers);
  const keyHint = !needsKey ? f.apiKeyNotNeeded : savedKey ? f.apiKeySaved : undefined;

  const submit = async () => {
    let values: TaskFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSubmitting(true);
    try {
      await submitTask(values);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open
      title={f.title}
      width={600}
      className="ai-task-modal"
      okText={f.submit}
      cancelText={m.cancel}
      confirmLoading={submitting}
      onOk={() => void submit()}
      onCancel={closeCreateTask}
    >
      <Form
        form={form}
        name="aiTaskForm"
        layout="vertical"
        requiredMark
        onFinish={() => void submit()}
      >
        <Form.Item
          name="prompt"
          label={f.description}
          rules={[
            { required: true, whitespace: true, message: rules.promptRequired },
            { max: MAX_AI_TASK_PROMPT_CHARS, message: rules.promptTooLong },
          ]}
        >
          <Input.TextArea
            rows={6}
            placeholder={f.descriptionPlaceholder}
            count={{ show: true, max: MAX_AI_TASK_PROMPT_CHARS }}
          />
        </Form.Item>
        <ProviderItem
          text={{ label: f.provider, required: rules.providerRequired }}
          providers={providers}
          onChange={onProviderChange}
        />
        <ModelItem text={{ label: f.model, required: rules.modelRequired }} provider={chosen} />
        <EndpointItem text={{ label: f.baseUrl, required: rules.baseUrlRequired }} />
        <Form.Item name="apiKey" label={f.apiKey} extra={keyHint}>
          <Input.Password placeholder={f.apiKeyPlaceholder} autoComplete="off" />
        </Form.Item>
        <ActiveChart />
      </Form>
    </Modal>
  );
}
