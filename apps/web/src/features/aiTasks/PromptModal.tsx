import { buildStrategyPrompt, MAX_AI_TASK_PROMPT_CHARS } from '@ct/domain';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';
import { loadAssistantSettings, useAssistantSettings } from '../assistant';
import { closePrompt, sendPrompt } from './actions';
import { useAiTasksUi } from './store';

const m = messages.aiTasks;
const p = m.prompt;

/** Strategy Generation Prompt, while open. */
export function PromptModal() {
  const open = useAiTasksUi((s) => s.promptOpen);
  return open ? <PromptForm /> : null;
}

/**
 * The desired logic and, live, the prompt the server will send for it (the same text:
 * `buildStrategyPrompt`). Send Prompt, disabled while the logic is empty, creates a task
 * for the active chart with the model of the API Settings.
 */
export function PromptForm() {
  const [logic, setLogic] = useState('');
  const [sending, setSending] = useState(false);
  const provider = useAssistantSettings((s) => s.provider);
  const model = useAssistantSettings((s) => s.model);
  const blank = logic.trim() === '';
  const tooLong = logic.trim().length > MAX_AI_TASK_PROMPT_CHARS;

  // the model named below is the saved one (Send Prompt loads it again, reporting failures)
  useEffect(() => {
    loadAssistantSettings().catch(() => {});
  }, []);

  const send = async () => {
    setSending(true);
    try {
      await sendPrompt(logic);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={p.title}
      width={800}
      className="ai-task-modal"
      onCancel={closePrompt}
      footer={[
        <Button key="cancel" onClick={closePrompt}>
          {m.cancel}
        </Button>,
        <Button
          key="send"
          type="primary"
          disabled={blank || tooLong}
          loading={sending}
          onClick={() => void send()}
        >
          {p.send}
        </Button>,
      ]}
    >
      <Form layout="vertical">
        <Form.Item label={p.logic} htmlFor="ai-prompt-logic">
          <Input.TextArea
            id="ai-prompt-logic"
            rows={4}
            value={logic}
            onChange={(event) => setLogic(event.target.value)}
            placeholder={p.logicPlaceholder}
            count={{ show: true, max: MAX_AI_TASK_PROMPT_CHARS }}
          />
        </Form.Item>
      </Form>
      <Typography.Title level={5}>{p.preview}</Typography.Title>
      <pre className="ai-task-pre ai-task-prompt-preview" data-testid="ai-prompt-preview">
        {buildStrategyPrompt(logic)}
      </pre>
      <Typography.Text type="secondary">{p.model(provider, model)}</Typography.Text>
    </Modal>
  );
}
