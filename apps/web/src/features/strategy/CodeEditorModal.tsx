import { CodeOutlined } from '@ant-design/icons';
import { Modal, Space } from 'antd';
import { useEffect } from 'react';
import { strategy as messages } from '../../i18n/defaults/strategy';
import { useAppApi } from '../../shared/appApi';
import { useChartGridStore } from '../../shared/chartGrid';
import { useWorkbenchAddons } from './addons';
import { closeEditor, disposeAutoSave, refreshWorkbench, showArrivedTemplate } from './actions';
import { registerModalApi } from './confirm';
import { EditorPane } from './editor/EditorPane';
import { LogsModal } from './editor/LogsModal';
import { ResultsPane, RunHistoryPanel, VersionsPanel } from './editor/ResultPanels';
import { SaveAsModal } from './editor/SaveAsModal';
import { StrategyToolbar } from './editor/StrategyToolbar';
import { OptimizeHost } from './optimize/OptimizeHost';
import { useTemplateCode } from './queries';
import { useEditorStore, useWorkbenchStore } from './store';

const m = messages.strategy;

/** The symbol of the chart the editor works for (the chart's current one). */
function EditorTitle() {
  const request = useWorkbenchStore((s) => s.request);
  const symbol = useChartGridStore(
    (s) => s.charts.find((c) => c.id === request?.chartId)?.symbol ?? request?.symbol,
  );
  return (
    <Space>
      <CodeOutlined />
      {m.editorTitle}
      {request && <span style={{ fontWeight: 'normal' }}>· {symbol}</span>}
    </Space>
  );
}

/**
 * The Python Code Editor modal with its sub-modals (spec section 2). The parts read the
 * editor store and the query cache and call the actions; this composes them and ties the
 * workbench to its opening.
 */
export default function CodeEditorModal() {
  const { modal } = useAppApi();
  const open = useWorkbenchStore((s) => s.open);
  const template = useTemplateCode();
  const selected = useEditorStore((s) => s.selected);
  const addonPanels = useWorkbenchAddons((s) => s.panels);

  useEffect(() => registerModalApi(modal), [modal]);
  useEffect(() => () => disposeAutoSave(), []);
  // Each opening: the template (once) and the saved strategies.
  useEffect(() => {
    if (open) void refreshWorkbench();
  }, [open]);
  // Default shows the template's code as soon as it is known.
  useEffect(() => {
    if (template !== null) showArrivedTemplate(template);
  }, [template, selected]);

  return (
    <>
      <Modal
        open={open}
        title={<EditorTitle />}
        width="80vw"
        onCancel={closeEditor}
        footer={null}
        styles={{ body: { height: '70vh', display: 'flex', flexDirection: 'column', gap: 8 } }}
      >
        <StrategyToolbar />
        <EditorPane />
      </Modal>
      <SaveAsModal />
      <LogsModal />
      <VersionsPanel />
      <RunHistoryPanel />
      <ResultsPane />
      {addonPanels}
      <OptimizeHost />
    </>
  );
}
