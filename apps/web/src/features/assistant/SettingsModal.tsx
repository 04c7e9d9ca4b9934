import { Alert, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { notify } from '../../shared/notify';
import { assistant as messages } from '../../i18n/defaults/assistant';
import { failureReason } from '../../api/client';
import {
  EndpointItem,
  ModelItem,
  ProviderItem,
  providerDefaults,
  useProviderChoice,
} from './ProviderFields';
import {
  closeSettingsModal,
  loadAssistantSettings,
  saveAssistantSettings,
  useAssistantSettings,
} from './settingsStore';

const s = messages.assistant.settings;

type Values = { apiKey: string; provider: string; baseURL: string; model: string };

/**
 * API Settings (600 px): OpenAI API Key (password field), Service Provider, API Endpoint
 * (read-only, the provider's) and Model (the provider's models). The saved key comes back
 * masked; saving it unchanged keeps it, clearing the field removes it.
 */
export function SettingsModal() {
  const open = useAssistantSettings((state) => state.modalOpen);
  const providers = useAssistantSettings((state) => state.providers);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  // Each opening starts from the settings in use.
  useEffect(() => {
    if (!open) return;
    const fill = () => {
      const state = useAssistantSettings.getState();
      const defaults = providerDefaults(state.providers ?? [], state.provider);
      form.setFieldsValue({
        apiKey: state.apiKey,
        provider: state.provider,
        baseURL: state.baseURL || defaults?.baseURL || '',
        model: state.model,
      });
    };
    fill();
    loadAssistantSettings()
      .then(fill)
      .catch(() => notify.error(s.providersFailed));
  }, [open, form]);

  const savedKey = useAssistantSettings((state) => state.apiKey);
  const { chosen, needsKey, onProviderChange } = useProviderChoice(form, providers);
  const keyHint = !needsKey ? s.apiKeyNotNeeded : savedKey ? s.apiKeyKept : undefined;

  const close = () => {
    setProblem(null);
    closeSettingsModal();
  };

  const save = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setProblem(null);
    try {
      await saveAssistantSettings({
        apiKey: (values.apiKey ?? '').trim(),
        provider: values.provider,
        baseURL: values.baseURL,
        model: values.model,
      });
      notify.success(s.saved);
      close();
    } catch (error) {
      notify.error(s.saveFailed);
      setProblem(failureReason(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={s.title}
      width={600}
      okText={s.save}
      cancelText={s.cancel}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={close}
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark onFinish={() => void save()}>
        <Form.Item name="apiKey" label={s.apiKey} extra={keyHint}>
          <Input.Password placeholder={s.apiKeyPlaceholder} autoComplete="off" />
        </Form.Item>
        <ProviderItem
          text={{ label: s.provider, required: s.providerRequired }}
          providers={providers}
          onChange={onProviderChange}
        />
        <EndpointItem text={{ label: s.endpoint, required: s.endpointRequired }} />
        <ModelItem text={{ label: s.model, required: s.modelRequired }} provider={chosen} />
        {problem && <Alert type="error" showIcon title={problem} />}
      </Form>
    </Modal>
  );
}
