import {
  BulbOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  HistoryOutlined,
  PlayCircleOutlined,
  RadarChartOutlined,
  RobotOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { Button, Select, Space, Tooltip } from 'antd';
import { liveRuns } from '../../../i18n/defaults/liveRuns';
import { optimize } from '../../../i18n/defaults/optimize';
import { strategy } from '../../../i18n/defaults/strategy';
import { openRunHistory, runCode, selectStrategy } from '../actions';
import { useWorkbenchAddons } from '../addons';
import { DEFAULT_STRATEGY } from '../logic';
import { useStrategies } from '../queries';
import { useRunState } from '../runQueue';
import { setPanel, useEditorStore } from '../store';
import { openOptimize } from '../optimize/store';
import { BarsField } from './BarsField';
import { FeedsPicker } from './FeedsPicker';
import { SaveMenu } from './SaveMenu';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...liveRuns, ...optimize, ...strategy };

const m = messages.strategy;
const live = messages.liveRuns;

/** The saved-strategy dropdown, always with the read-only Default strategy first. */
export function StrategySelect() {
  const selected = useEditorStore((s) => s.selected);
  const strategies = useStrategies();
  return (
    <Select
      aria-label={m.selectPlaceholder}
      style={{ minWidth: 220 }}
      placeholder={m.selectPlaceholder}
      value={selected ?? undefined}
      onSelect={selectStrategy}
      options={[
        { value: DEFAULT_STRATEGY, label: `${DEFAULT_STRATEGY} (${m.readOnly})` },
        ...strategies.map((s) => ({ value: s.name, label: s.name })),
      ]}
    />
  );
}

/**
 * The editor's toolbar: strategy, save menu, Run History, the AI buttons, Run Logs, Live Runs,
 * Run live on paper, Optimize, the feeds, Bars, Run Code.
 */
export function StrategyToolbar() {
  const running = useEditorStore((s) => s.running);
  // the run's place while it waits for a backtest slot (the server's queue, via its log),
  // then how far it is through its bars
  const { position: queued, progress } = useRunState(useEditorStore((s) => s.clientId));
  const hasCode = useEditorStore((s) => s.code.trim() !== '');
  const openTaskList = useWorkbenchAddons((s) => s.openTaskList);
  const openPrompt = useWorkbenchAddons((s) => s.openPrompt);
  const openLiveRun = useWorkbenchAddons((s) => s.openLiveRun);
  const openLiveRuns = useWorkbenchAddons((s) => s.openLiveRuns);
  const hasSelection = useEditorStore((s) => s.selected !== null);
  return (
    <Space wrap data-testid="strategy-toolbar">
      <StrategySelect />
      <SaveMenu />
      <Button icon={<HistoryOutlined />} onClick={() => openRunHistory()}>
        {m.runHistory}
      </Button>
      <Tooltip title={m.aiTaskListHint}>
        <Button icon={<RobotOutlined />} disabled={!openTaskList} onClick={() => openTaskList?.()}>
          {m.aiTaskList}
        </Button>
      </Tooltip>
      <Tooltip title={m.generatePromptHint}>
        <Button icon={<BulbOutlined />} disabled={!openPrompt} onClick={() => openPrompt?.()}>
          {m.generatePrompt}
        </Button>
      </Tooltip>
      <Button icon={<FileTextOutlined />} onClick={() => setPanel('logsOpen', true)}>
        {m.runLogs}
      </Button>
      <Tooltip title={live.panelHint}>
        <Button
          icon={<RadarChartOutlined />}
          disabled={!openLiveRuns}
          onClick={() => openLiveRuns?.()}
        >
          {live.panel}
        </Button>
      </Tooltip>
      <Tooltip title={live.runLiveHint}>
        <Button
          icon={<ThunderboltOutlined />}
          disabled={!openLiveRun || !hasSelection}
          onClick={() => openLiveRun?.()}
        >
          {live.runLive}
        </Button>
      </Tooltip>
      <Tooltip title={messages.optimize.buttonHint}>
        <Button icon={<ExperimentOutlined />} disabled={!hasCode} onClick={openOptimize}>
          {messages.optimize.button}
        </Button>
      </Tooltip>
      <FeedsPicker />
      <BarsField />
      <Button
        type="primary"
        icon={<PlayCircleOutlined />}
        loading={running}
        disabled={!hasCode}
        onClick={() => void runCode()}
      >
        {running && queued !== null
          ? messages.backtestLimits.queued(queued)
          : running && progress !== null
            ? messages.backtestLimits.progress(progress)
            : m.runCode}
      </Button>
    </Space>
  );
}
