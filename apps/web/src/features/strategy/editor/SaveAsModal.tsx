import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { strategy as messages } from '../../../i18n/defaults/strategy';
import { saveAsNewStrategy } from '../actions';
import { setPanel, useEditorStore } from '../store';

const m = messages.strategy;

/** Save as New Strategy: a name for the editor's code; a refused name shows beside the field. */
export function SaveAsModal() {
  const open = useEditorStore((s) => s.saveAsOpen);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const outcome = await saveAsNewStrategy(name);
    if (outcome.success) {
      setName('');
      setError(null);
    } else if (outcome.inline) {
      setError(outcome.message);
    }
  };

  return (
    <Modal
      open={open}
      title={m.nameModalTitle}
      okText={m.ok}
      cancelText={m.cancel}
      onOk={() => void submit()}
      onCancel={() => {
        setPanel('saveAsOpen', false);
        setError(null);
      }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={m.nameLabel}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <Input
            autoFocus
            value={name}
            maxLength={100}
            placeholder={m.namePlaceholder}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
            onPressEnter={() => void submit()}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
