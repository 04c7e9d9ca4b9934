import { formatPrice, type AlertFrequency } from '@ct/domain';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { messages } from '../../i18n/messages';
import { closeAddAlert, useAlertDialog, type AlertDraft } from './dialogStore';
import { addAlert } from './queries';

const a = messages.alerts;

type Values = {
  condition: 'crossing' | 'crossing_up' | 'crossing_down';
  level: number;
  frequency: AlertFrequency;
  message?: string;
  webhook_url?: string;
};

function AlertForm({ draft }: { draft: AlertDraft }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    const saved = await addAlert(
      {
        symbol_id: draft.symbol,
        kind: 'price',
        condition: values.condition,
        level: values.level,
        frequency: values.frequency,
        ...(values.message ? { message: values.message } : {}),
        ...(values.webhook_url ? { webhook_url: values.webhook_url } : {}),
      },
      draft.tick,
    );
    setSaving(false);
    if (saved) closeAddAlert();
  };
  return (
    <Modal
      open
      title={a.dialogTitle(draft.symbol)}
      okText={a.create}
      cancelText={a.cancel}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={closeAddAlert}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ condition: 'crossing', level: draft.price, frequency: 'once' }}
        onFinish={() => void submit()}
      >
        <Form.Item name="condition" label={a.condition}>
          <Select
            options={(['crossing', 'crossing_up', 'crossing_down'] as const).map((c) => ({
              value: c,
              label: a.conditions[c],
            }))}
          />
        </Form.Item>
        <Form.Item name="level" label={a.level} rules={[{ required: true }]}>
          <InputNumber
            style={{ width: '100%' }}
            step={draft.tick}
            formatter={(v) => (v === undefined || v === null ? '' : String(v))}
            aria-label={a.level}
            placeholder={formatPrice(draft.price, draft.tick)}
          />
        </Form.Item>
        <Form.Item name="frequency" label={a.frequency}>
          <Select
            options={(['once', 'once_per_bar', 'every_time'] as const).map((f) => ({
              value: f,
              label: a.frequencies[f],
            }))}
          />
        </Form.Item>
        <Form.Item name="message" label={a.message} extra={a.messageHint}>
          <Input maxLength={1000} />
        </Form.Item>
        <Form.Item name="webhook_url" label={a.webhook}>
          <Input type="url" maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The "Add alert" dialog while one is asked for (loaded with the first request). */
export default function AddAlertDialog() {
  const draft = useAlertDialog((s) => s.draft);
  if (!draft) return null;
  return <AlertForm key={`${draft.symbol}:${draft.price}`} draft={draft} />;
}
