import { Modal } from 'antd';
import { strategy as messages } from '../../../i18n/defaults/strategy';
import { LogCard } from '../LogCard';
import { useLogLines } from '../logSocket';
import { setPanel, useEditorStore } from '../store';

const m = messages.strategy;

/**
 * The Execution Log (700 px, a 'Backtest Log' card of height 400). Its socket is open while
 * the workbench is mounted, so a run's lines are there when the log is opened; in a child
 * frame the main window holds the socket and forwards the lines (strategy/logRelay.ts).
 */
export function LogsModal() {
  const open = useEditorStore((s) => s.logsOpen);
  const clientId = useEditorStore((s) => s.clientId);
  const log = useLogLines(clientId);
  return (
    <Modal
      open={open}
      title={m.logTitle}
      width={700}
      footer={null}
      onCancel={() => setPanel('logsOpen', false)}
    >
      <LogCard
        title={m.backtestLog}
        lines={log.lines}
        state={log.state}
        onClear={log.clear}
        height={400}
      />
    </Modal>
  );
}
