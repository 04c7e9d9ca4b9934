import { PlusOutlined, RobotOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Drawer, Modal, Tooltip } from 'antd';
import { useBreakpoint, usesNarrowLayout } from '../../shared/breakpoints';
import { assistant as messages } from '../../i18n/defaults/assistant';
import { useWorkbenchStore } from '../strategy';
import { useApplyCode } from './apply';
import { ChatInput } from './ChatInput';
import { Conversation } from './Conversation';
import { SettingsModal } from './SettingsModal';
import { openSettingsModal } from './settingsStore';
import {
  closeAssistant,
  newConversation,
  sendMessage,
  setDraft,
  stopAnswer,
  useChatStore,
} from './store';
import './assistant.css';

const a = messages.assistant;

/** Below the workspace's modals, so a modal opened while chatting shows above the chat. */
const DRAWER_Z_INDEX = 999;
/** Above the Python Code Editor (z-index 1000) when opened over it; Apply then closes it. */
const OVER_EDITOR_Z_INDEX = 1010;

function send(text: string) {
  void sendMessage(text);
}

function Actions({ compact = false }: { compact?: boolean }) {
  const empty = useChatStore((s) => s.messages.length === 0);
  return (
    <div className="assistant-actions">
      <Tooltip title={a.newChat}>
        <Button
          type="text"
          icon={<PlusOutlined aria-hidden />}
          aria-label={a.newChat}
          disabled={empty}
          onClick={newConversation}
        />
      </Tooltip>
      {compact ? (
        <Tooltip title={a.apiSettings}>
          <Button
            type="text"
            icon={<SettingOutlined aria-hidden />}
            aria-label={a.apiSettings}
            onClick={openSettingsModal}
          />
        </Tooltip>
      ) : (
        <Button type="text" icon={<SettingOutlined aria-hidden />} onClick={openSettingsModal}>
          {a.apiSettings}
        </Button>
      )}
    </div>
  );
}

function Title() {
  return (
    <span className="assistant-title">
      <RobotOutlined aria-hidden="true" />
      {a.title}
    </span>
  );
}

function Chat({ phone }: { phone: boolean }) {
  const list = useChatStore((s) => s.messages);
  const streaming = useChatStore((s) => s.streaming);
  const draft = useChatStore((s) => s.draft);
  const errorDetail = useChatStore((s) => s.errorDetail);
  const apply = useApplyCode();
  return (
    <div className="assistant-chat">
      <Conversation
        messages={list}
        errorDetail={errorDetail}
        onSuggestion={send}
        onApply={apply ?? undefined}
      />
      <ChatInput
        value={draft}
        onChange={setDraft}
        onSend={() => send(draft)}
        onStop={stopAnswer}
        streaming={streaming}
        autoFocus={!phone}
      />
    </div>
  );
}

/**
 * The AI Trading Assistant: a 600 px drawer on the right that leaves the workspace usable,
 * a full-screen modal on phones. Closing it keeps the conversation.
 */
export default function AssistantPanel() {
  const open = useChatStore((s) => s.open);
  const overEditor = useWorkbenchStore((s) => s.open);
  const phone = usesNarrowLayout(useBreakpoint());

  const content = (
    <>
      <Chat phone={phone} />
      <SettingsModal />
    </>
  );

  if (phone) {
    return (
      <Modal
        open={open}
        title={<Title />}
        width="100%"
        centered={false}
        footer={null}
        onCancel={closeAssistant}
        className="assistant-fullscreen"
        rootClassName="assistant-fullscreen-root"
      >
        {/* Beside the title, outside it: the dialog is named by its title alone. */}
        <div className="assistant-phone-actions">
          <Actions compact />
        </div>
        {content}
      </Modal>
    );
  }

  return (
    <Drawer
      open={open}
      title={<Title />}
      extra={<Actions />}
      placement="right"
      size={600}
      mask={false}
      zIndex={overEditor ? OVER_EDITOR_Z_INDEX : DRAWER_Z_INDEX}
      // over the editor, whose dialog holds the focus: the chat takes it while open
      focusable={overEditor ? { trap: true } : undefined}
      onClose={closeAssistant}
      className="assistant-drawer"
      styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column' } }}
    >
      {content}
    </Drawer>
  );
}
