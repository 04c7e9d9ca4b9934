import {
  CodeOutlined,
  DeleteOutlined,
  DownOutlined,
  FileTextOutlined,
  HistoryOutlined,
  PlayCircleOutlined,
  RobotOutlined,
  RollbackOutlined,
  SaveOutlined,
} from '@ant-design/icons';
import { wouldBlankSavedCode, type StrategyVersion, type StrategyVersionSummary } from '@ct/domain';
import Editor from '@monaco-editor/react';
import type { editor as MonacoEditor } from 'monaco-editor';
import { App, Button, Dropdown, Form, Input, Modal, Select, Space, Spin, Tooltip } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { notify } from '../../shared/notify';
import { useThemeStore } from '../../shared/theme';
import { messages } from '../../i18n/messages';
import { setChartMarkers } from '../../shared/chartMarkers';
import { loadStrategyTemplate, useStrategyTemplateStore } from './strategyTemplate';
import { useChartGridStore } from '../../shared/chartGrid';
import {
  deleteStrategy,
  failureDetail,
  fetchStrategies,
  fetchVersions,
  runBacktest,
  saveResult,
  saveStrategy,
  type BacktestAnswer,
  type SavedStrategy,
  type StrategyResult,
} from './api';
import { LogCard, useLogSocket } from './LogCard';
import {
  AutoSaver,
  DEFAULT_STRATEGY,
  isDefaultStrategy,
  markersFromDeals,
  newClientId,
  type SaveIndicator,
} from './logic';
import './monacoSetup';
import { ResultsModal, type ResultView } from './ResultsModal';
import { RunHistoryModal } from './RunHistoryModal';
import { closeWorkbench, recordBacktest, useWorkbenchStore } from './store';
import { VersionsModal, versionTime } from './VersionsModal';

const m = messages.strategy;

type Shown = ResultView & { runId: string | null; symbol: string | null; saved: boolean };

/** The Python Code Editor modal with its sub-modals (spec section 2). */
export default function CodeEditorModal() {
  const { modal } = App.useApp();
  const open = useWorkbenchStore((s) => s.open);
  const request = useWorkbenchStore((s) => s.request);
  const dark = useThemeStore((s) => s.mode === 'dark');
  const template = useStrategyTemplateStore((s) => s.code);
  const [clientId] = useState(newClientId);
  const log = useLogSocket(clientId);

  const [strategies, setStrategies] = useState<SavedStrategy[]>([]);
  const [selected, setSelected] = useState<string | null>(DEFAULT_STRATEGY);
  const [code, setCode] = useState('');
  const [indicator, setIndicator] = useState<SaveIndicator>('idle');
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<Shown | null>(null);
  const [savingResults, setSavingResults] = useState(false);
  const [history, setHistory] = useState(false);
  const [logsOpen, setLogsOpen] = useState(false);
  const [nameOpen, setNameOpen] = useState(false);
  const [newName, setNewName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  /** Counts saves, so the versions list is fetched again after each. */
  const [saves, setSaves] = useState(0);
  const [versionsAnswer, setVersionsAnswer] = useState<{
    key: string;
    name: string;
    list: StrategyVersionSummary[];
  } | null>(null);

  const editorRef = useRef<MonacoEditor.IStandaloneCodeEditor | null>(null);
  /** The editor's text, also between renders. */
  const codeRef = useRef('');

  const saver = useMemo(
    () =>
      new AutoSaver(
        (name, text) => saveStrategy(name, text),
        (state, name) => {
          setIndicator(state);
          if (state === 'skipped') notify.warning(m.autoSaveSkipped(name));
          if (state === 'success') setSaves((n) => n + 1);
        },
      ),
    [],
  );
  useEffect(() => () => saver.dispose(), [saver]);

  const applyList = useCallback(
    (list: SavedStrategy[]) => {
      saver.setSavedList(list);
      setStrategies(list);
    },
    [saver],
  );

  const markSaved = (name: string, text: string) => {
    saver.setSaved(name, text);
    setStrategies((list) => list.map((s) => (s.name === name ? { ...s, code: text } : s)));
    setSaves((n) => n + 1);
  };

  /**
   * Shows `text` as the loaded code of the selection. The model's setValue replaces the text
   * and clears the undo history, so Ctrl+Z never goes back past a loaded strategy (into the
   * previous one, or into an empty editor that auto-save would then store).
   */
  const load = useCallback((text: string) => {
    codeRef.current = text;
    setCode(text);
    editorRef.current?.getModel()?.setValue(text);
  }, []);

  const onMount = (editor: MonacoEditor.IStandaloneCodeEditor) => {
    editorRef.current = editor;
    const model = editor.getModel();
    if (model && model.getValue() !== codeRef.current) model.setValue(codeRef.current);
  };

  const loadList = useCallback(async () => {
    try {
      applyList(await fetchStrategies());
    } catch {
      notify.error(m.loadListFailed);
    }
  }, [applyList]);

  // Each opening: the template (once) and the saved strategies.
  useEffect(() => {
    if (!open) return;
    loadStrategyTemplate().catch((error: unknown) =>
      console.warn('The strategy template could not be loaded', error),
    );
    fetchStrategies()
      .then(applyList)
      .catch(() => notify.error(m.loadListFailed));
  }, [open, applyList]);

  // Default shows the template's code as soon as it is known.
  const defaultSelected = selected !== null && isDefaultStrategy(selected);
  const templatePending = useRef(true);
  useEffect(() => {
    if (defaultSelected && template !== null && templatePending.current) {
      templatePending.current = false;
      load(template);
    }
  }, [defaultSelected, template, load]);

  // The selected saved strategy's kept versions, fetched again after each save.
  const savedSelected =
    selected !== null &&
    !isDefaultStrategy(selected) &&
    strategies.some((s) => s.name === selected);
  const versionsKey = open && savedSelected ? `${selected}\u0000${saves}` : null;
  useEffect(() => {
    if (versionsKey === null || selected === null) return;
    let live = true;
    fetchVersions(selected)
      .then((list) => live && setVersionsAnswer({ key: versionsKey, name: selected, list }))
      .catch(() => live && setVersionsAnswer({ key: versionsKey, name: selected, list: [] }));
    return () => {
      live = false;
    };
  }, [versionsKey, selected]);
  // While a new answer is on its way, the last one of the same strategy stands.
  const versions = savedSelected && versionsAnswer?.name === selected ? versionsAnswer.list : [];
  const versionsLoading = versionsKey !== null && versionsAnswer?.key !== versionsKey;

  /** Selecting (or re-selecting) a strategy loads its code; Default loads the template again. */
  const select = (name: string) => {
    if (name === selected && !isDefaultStrategy(name)) return; // its code is in the editor
    void saver.flush(); // a pending auto-save of the previous selection
    setSelected(name);
    if (isDefaultStrategy(name)) {
      templatePending.current = template === null;
      load(template ?? '');
    } else {
      load(saver.savedCode(name) ?? '');
    }
  };

  const onEdit = (value: string | undefined, event: MonacoEditor.IModelContentChangedEvent) => {
    if (event.isFlush) return; // a load (setValue), not an edit
    const text = value ?? '';
    codeRef.current = text;
    setCode(text);
    saver.edited(selected, text);
  };

  const writeCode = async (name: string, text: string, allowEmpty: boolean, success: string) => {
    saver.cancel();
    try {
      // an explicit save: the code it replaces is kept as a version whatever its age
      await saveStrategy(name, text, { allowEmpty, keepVersion: true });
      markSaved(name, text);
      notify.success(success);
    } catch {
      notify.error(m.saveFailed);
    }
  };

  /** Save Current Strategy; replacing saved code with empty code asks first. */
  const saveCurrent = (text = codeRef.current, success: string = m.saved) => {
    if (!selected) return notify.warning(m.selectFirst);
    if (isDefaultStrategy(selected)) return notify.warning(m.defaultReadOnly);
    const name = selected;
    const saved = saver.savedCode(name);
    if (saved !== undefined && wouldBlankSavedCode(saved, text)) {
      modal.confirm({
        title: m.emptySaveTitle,
        content: m.emptySaveConfirm(name, saved.length),
        okText: m.emptySaveOk,
        cancelText: m.cancel,
        okButtonProps: { danger: true },
        onOk: () => writeCode(name, text, true, success),
      });
      return;
    }
    void writeCode(name, text, false, success);
  };

  /**
   * Puts a kept version back: an edit of the editor (Ctrl+Z returns to the code it replaced),
   * saved at once, so the replaced code becomes a version in turn.
   */
  const restore = (version: StrategyVersion) => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    editor.pushUndoStop();
    editor.executeEdits('restore-version', [
      { range: model.getFullModelRange(), text: version.code, forceMoveMarkers: true },
    ]);
    editor.pushUndoStop();
    setVersionsOpen(false);
    saveCurrent(version.code, m.restored(versionTime(version.created_at)));
  };

  const createNew = async () => {
    const name = newName.trim();
    if (!name) return setNameError(m.namePlaceholder);
    if (isDefaultStrategy(name)) return setNameError(m.defaultReadOnly);
    try {
      await saveStrategy(name, codeRef.current, { create: true });
      notify.success(m.created);
      setNameOpen(false);
      setNewName('');
      setNameError(null);
      await loadList();
      saver.cancel();
      setSelected(name);
    } catch (error) {
      const detail = failureDetail(error);
      notify.error(detail ? m.createFailedDetail(detail) : m.createFailed);
    }
  };

  const remove = () => {
    if (!selected) return notify.warning(m.selectFirst);
    if (isDefaultStrategy(selected)) return notify.warning(m.defaultReadOnly);
    const name = selected;
    modal.confirm({
      title: m.deleteStrategy,
      content: m.deleteConfirm(name),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await deleteStrategy(name);
          notify.success(m.deleted);
          saver.cancel();
          setSelected(null);
          load('');
          saver.setSaved(name, null);
          setStrategies((list) => list.filter((s) => s.name !== name));
        } catch {
          notify.error(m.deleteFailed);
        }
      },
    });
  };

  /** The chart the editor works for, with its current symbol and period. */
  const target = () => {
    if (!request) return null;
    const cell = useChartGridStore.getState().charts.find((c) => c.id === request.chartId);
    return {
      chartId: request.chartId,
      symbol: cell?.symbol ?? request.symbol,
      period: cell?.period ?? request.period,
    };
  };

  const runCode = async () => {
    const chart = target();
    if (!chart?.symbol) return notify.warning(m.symbolMissing);
    setRunning(true);
    let answer: BacktestAnswer | null = null;
    let failure: string | null = null;
    try {
      const run = await runBacktest({
        clientId,
        code,
        symbol: chart.symbol,
        period: chart.period,
        ...(selected && !isDefaultStrategy(selected) ? { strategy_name: selected } : {}),
      });
      answer = run.data;
      if (!run.success) failure = run.reason ?? m.unknownError;
      else if (run.data?.error) failure = run.data.error;
    } catch (error) {
      failure = failureDetail(error) ?? m.unknownError;
    } finally {
      setRunning(false);
    }
    if (failure) notify.error(failure.split('\n').filter(Boolean).slice(-1)[0] ?? failure);
    // the assistant answers about this run ("why does this fail?")
    recordBacktest({
      strategyName: selected,
      symbol: chart.symbol,
      performance: answer?.performance ?? null,
      error: failure,
    });
    setResults({
      deals: answer?.deals ?? [],
      performance: answer?.performance ?? null,
      error: failure,
      runId: answer?.run_id ?? null,
      symbol: chart.symbol,
      saved: false,
    });
  };

  const saveResults = async () => {
    if (!results) return;
    if (!selected) return notify.warning(m.selectFirst);
    if (!results.symbol) return notify.warning(m.symbolMissing);
    setSavingResults(true);
    try {
      await saveResult({
        strategy_name: selected,
        symbol_id: results.symbol,
        ...(results.runId
          ? { run_id: results.runId }
          : { deals: [...results.deals], performance: results.performance, error: results.error }),
      });
      notify.success(m.resultsSaved);
      setResults({ ...results, saved: true });
    } catch {
      notify.error(m.resultsSaveFailed);
    } finally {
      setSavingResults(false);
    }
  };

  const showOnChart = (deals: ResultView['deals'], symbol: string | null) => {
    try {
      const chart = target();
      if (!chart || !symbol) return notify.warning(m.showOnChartFailed);
      if (deals.length === 0) return notify.warning(m.noDeals);
      if (chart.symbol !== symbol) {
        return notify.warning(`${m.showOnChartFailed}: ${chart.symbol ?? '-'} ≠ ${symbol}`);
      }
      setChartMarkers(chart.chartId, symbol, markersFromDeals(deals));
      notify.success(m.shownOnChart);
      setHistory(false);
      setResults(null);
      closeWorkbench();
    } catch {
      notify.error(m.showOnChartError);
    }
  };

  const openHistory = () => {
    if (!selected) return notify.warning(m.selectFirst);
    setHistory(true);
  };

  const viewDetails = (result: StrategyResult) =>
    setResults({
      deals: result.deals,
      performance: result.performance,
      error: result.error,
      runId: result.run_id,
      symbol: result.symbol_id,
      saved: true,
    });

  const indicatorLabel = m.indicator[indicator];
  const saveResultsDisabled =
    !results?.performance || !selected || isDefaultStrategy(selected) || results.saved;

  return (
    <>
      <Modal
        open={open}
        title={
          <Space>
            <CodeOutlined />
            {m.editorTitle}
            {request && <span style={{ fontWeight: 'normal' }}>· {target()?.symbol}</span>}
          </Space>
        }
        width="80vw"
        onCancel={() => {
          void saver.flush();
          closeWorkbench();
        }}
        footer={null}
        styles={{ body: { height: '70vh', display: 'flex', flexDirection: 'column', gap: 8 } }}
      >
        <Space wrap data-testid="strategy-toolbar">
          <Select
            aria-label={m.selectPlaceholder}
            style={{ minWidth: 220 }}
            placeholder={m.selectPlaceholder}
            value={selected ?? undefined}
            onSelect={select}
            options={[
              { value: DEFAULT_STRATEGY, label: `${DEFAULT_STRATEGY} (${m.readOnly})` },
              ...strategies.map((s) => ({ value: s.name, label: s.name })),
            ]}
          />
          <Space.Compact>
            <Button icon={<SaveOutlined />} onClick={() => saveCurrent()}>
              <span data-testid="save-indicator" data-state={indicator}>
                {indicatorLabel}
              </span>
            </Button>
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'current', label: m.saveCurrent, icon: <SaveOutlined /> },
                  { key: 'new', label: m.saveAsNew, icon: <SaveOutlined /> },
                  {
                    key: 'versions',
                    label: m.restoreVersion,
                    icon: <RollbackOutlined />,
                    disabled: !savedSelected || versions.length === 0,
                  },
                  { type: 'divider' },
                  {
                    key: 'delete',
                    label: m.deleteStrategy,
                    icon: <DeleteOutlined />,
                    danger: true,
                  },
                ],
                onClick: ({ key }) => {
                  if (key === 'current') saveCurrent();
                  else if (key === 'new') setNameOpen(true);
                  else if (key === 'versions') setVersionsOpen(true);
                  else remove();
                },
              }}
            >
              <Button aria-label={m.save} icon={<DownOutlined />} />
            </Dropdown>
          </Space.Compact>
          <Button icon={<HistoryOutlined />} onClick={openHistory}>
            {m.runHistory}
          </Button>
          <Tooltip title={m.aiTaskListSoon}>
            <Button icon={<RobotOutlined />} disabled>
              {m.aiTaskList}
            </Button>
          </Tooltip>
          <Tooltip title={m.generatePromptSoon}>
            <Button icon={<RobotOutlined />} disabled>
              {m.generatePrompt}
            </Button>
          </Tooltip>
          <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)}>
            {m.runLogs}
          </Button>
          <Button
            type="primary"
            icon={<PlayCircleOutlined />}
            loading={running}
            disabled={!code.trim()}
            onClick={() => void runCode()}
          >
            {m.runCode}
          </Button>
        </Space>
        <div style={{ flex: 1, minHeight: 0 }} data-testid="strategy-editor">
          <Editor
            language="python"
            theme={dark ? 'vs-dark' : 'light'}
            defaultValue={code}
            onMount={onMount}
            onChange={onEdit}
            loading={<Spin tip={m.editorLoading} />}
            options={{
              tabSize: 4,
              insertSpaces: true,
              fontSize: 14,
              minimap: { enabled: true },
              automaticLayout: true,
              scrollBeyondLastLine: false,
            }}
          />
        </div>
      </Modal>

      <Modal
        open={nameOpen}
        title={m.nameModalTitle}
        okText={m.ok}
        cancelText={m.cancel}
        onOk={() => void createNew()}
        onCancel={() => {
          setNameOpen(false);
          setNameError(null);
        }}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item
            label={m.nameLabel}
            validateStatus={nameError ? 'error' : undefined}
            help={nameError ?? undefined}
          >
            <Input
              autoFocus
              value={newName}
              maxLength={100}
              placeholder={m.namePlaceholder}
              onChange={(e) => {
                setNewName(e.target.value);
                setNameError(null);
              }}
              onPressEnter={() => void createNew()}
            />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={logsOpen}
        title={m.logTitle}
        width={700}
        footer={null}
        onCancel={() => setLogsOpen(false)}
      >
        <LogCard
          title={m.backtestLog}
          lines={log.lines}
          state={log.state}
          onClear={log.clear}
          height={400}
        />
      </Modal>

      {versionsOpen && selected && (
        <VersionsModal
          strategy={selected}
          versions={versions}
          loading={versionsLoading}
          onRestore={restore}
          onClose={() => setVersionsOpen(false)}
        />
      )}

      {history && selected && (
        <RunHistoryModal
          strategy={selected}
          onClose={() => setHistory(false)}
          onViewDetails={viewDetails}
          onShowOnChart={(r) => showOnChart(r.deals, r.symbol_id)}
        />
      )}

      <ResultsModal
        open={results !== null}
        view={results}
        onClose={() => setResults(null)}
        onSave={() => void saveResults()}
        saveDisabled={saveResultsDisabled}
        saving={savingResults}
        onShowOnChart={
          results && results.deals.length > 0
            ? () => showOnChart(results.deals, results.symbol)
            : undefined
        }
      />
    </>
  );
}
