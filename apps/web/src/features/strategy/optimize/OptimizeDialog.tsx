import { ExperimentOutlined } from '@ant-design/icons';
import { Modal, Space, Tabs } from 'antd';
import { optimize as messages } from '../../../i18n/defaults/optimize';
import { DEFAULT_STRATEGY } from '../logic';
import { useEditorStore, useWorkbenchStore } from '../store';
import { PastTab } from './PastTab';
import { CurrentTab } from './Results';
import { SetupTab } from './SetupForm';
import { closeOptimize, setOptimizeTab, useOptimizeStore, type OptimizeTab } from './store';
import './optimize.css';

const m = messages.optimize;

/**
 * The optimise dialog (loaded when Optimize is first clicked): a new optimisation's
 * parameters and options with the trial count, the one shown (progress with ETA and
 * Cancel, then the verdict, trials, heatmap and walk-forward), and the strategy's past ones.
 */
export default function OptimizeDialog() {
  const open = useOptimizeStore((s) => s.open);
  const tab = useOptimizeStore((s) => s.tab);
  const editorOpen = useWorkbenchStore((s) => s.open);
  const strategy = useEditorStore((s) => s.selected) ?? DEFAULT_STRATEGY;
  return (
    <Modal
      open={open && editorOpen}
      title={
        <Space>
          <ExperimentOutlined />
          {m.title(strategy)}
        </Space>
      }
      width="min(1200px, 92vw)"
      className="opt-dialog"
      onCancel={closeOptimize}
      footer={null}
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setOptimizeTab(key as OptimizeTab)}
        items={[
          { key: 'setup', label: m.tabs.setup, children: <SetupTab /> },
          { key: 'current', label: m.tabs.current, children: <CurrentTab /> },
          { key: 'past', label: m.tabs.past, children: <PastTab /> },
        ]}
      />
    </Modal>
  );
}
