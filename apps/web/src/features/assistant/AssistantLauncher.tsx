import { RobotOutlined } from '@ant-design/icons';
import type { Period } from '@ct/domain';
import { Button, Tooltip } from 'antd';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { assistant as messages } from '../../i18n/defaults/assistant';
import { useLastBacktest, useWorkbenchStore } from '../strategy';
import { useChartGridStore } from '../../shared/chartGrid';
import { editorCode, registerEditorTarget } from './apply';
import { buildChatContext } from './context';
import { openAssistant, registerChatContext, useChatStore } from './store';
import './assistant.css';

// Markdown, highlighting and the chat load the first time the assistant opens.
const AssistantPanel = lazy(() => import('./AssistantPanel'));

/** A chart the chat talks about: the chart page's own, else the workspace's active chart. */
export type AssistantChart = { id: string; symbol: string | null; period: Period };

function activeWorkspaceChart(): AssistantChart | null {
  const { charts, activeChartId } = useChartGridStore.getState();
  const cell = charts.find((c) => c.id === activeChartId);
  return cell ? { id: cell.id, symbol: cell.symbol, period: cell.period } : null;
}

/**
 * Where the round button sits, always on a spot that holds no control: over a full-page
 * chart's price scale (above the time axis, so it covers no bars), at the foot of the
 * workspace's side-button strip (below its buttons), or above the phone layout's bottom bar
 * (never over it). While the Python Code Editor is open it stays there above the editor's
 * mask, beside the editor: the assistant stays reachable.
 */
export type LauncherPlacement = 'price-scale' | 'side-strip' | 'above-bottom-bar';

type Props = {
  /** The chart page's chart; the workspace's active chart when absent. */
  chart?: AssistantChart;
  placement?: LauncherPlacement;
};

/** The floating round button of the AI Trading Assistant and, once opened, its drawer. */
export function AssistantLauncher({ chart, placement = 'price-scale' }: Props) {
  const open = useChatStore((s) => s.open);
  const used = useChatStore((s) => s.opened);
  const overEditor = useWorkbenchStore((s) => s.open);
  const chartRef = useRef(chart);
  useEffect(() => {
    chartRef.current = chart;
  }, [chart]);

  useEffect(() => {
    const current = () => (chartRef.current ?? activeWorkspaceChart()) || null;
    const offContext = registerChatContext(() =>
      buildChatContext({
        chart: current(),
        code: editorCode(),
        lastBacktest: useLastBacktest.getState().last,
      }),
    );
    const offTarget = registerEditorTarget(() => {
      const target = current();
      return target?.symbol
        ? { chartId: target.id, symbol: target.symbol, period: target.period }
        : null;
    });
    return () => {
      offContext();
      offTarget();
    };
  }, []);

  return (
    <>
      {!open && (
        <Tooltip title={messages.assistant.open} placement="left">
          <Button
            type="primary"
            shape="circle"
            className={`assistant-launcher assistant-launcher-${placement}${
              overEditor ? ' assistant-launcher-over-editor' : ''
            }`}
            icon={<RobotOutlined />}
            aria-label={messages.assistant.open}
            onClick={openAssistant}
          />
        </Tooltip>
      )}
      {used && (
        <Suspense fallback={null}>
          <AssistantPanel />
        </Suspense>
      )}
    </>
  );
}
