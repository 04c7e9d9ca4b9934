import {
  SHARED_ACTIONS,
  parsePeriod,
  sharedActionResultSchemas,
  wouldBlankSavedCode,
  type Deal,
  type Performance,
  type RunFeeds,
  type StrategyVersion,
} from '@ct/domain';
import { strategy as messages } from '../../i18n/defaults/strategy';
import { isChildFrame } from '../../realtime/connection';
import { requestSharedAction } from '../../realtime/frameActions';
import {
  CHART_LAYOUTS,
  setChartLayout,
  setChartPeriod,
  setChartSymbol,
  useChartGridStore,
} from '../../shared/chartGrid';
import { setChartMarkers } from '../../shared/chartMarkers';
import { notify } from '../../shared/notify';
import { QUIET, done, failed, refused, type Outcome } from '../../shared/outcome';
import { queryClient } from '../../shared/queryClient';
import {
  deleteStrategy,
  failureDetail,
  runBacktest,
  saveResult,
  saveStrategy,
  type BacktestAnswer,
  type RunAnswer,
  type RunRequest,
  type StrategyResult,
} from './api';
import { askUser, type Ask } from './confirm';
import { currentCode, loadCode, replaceAsEdit } from './editorBridge';
import {
  AutoSaver,
  barsProblem,
  isDefaultStrategy,
  markersFromDeals,
  newStrategyNameProblem,
  versionTime,
  type SaveIndicator,
  dealCode,
} from './logic';
import {
  cachedCode,
  cachedTemplate,
  forgetStrategy,
  putSavedResult,
  putSavedStrategy,
  refetchStrategies,
  refreshResults,
  strategyKeys,
  strategyListKnown,
} from './queries';
import {
  closeWorkbench,
  recordBacktest,
  setPanel,
  useEditorStore,
  useWorkbenchStore,
  type FeedChoice,
  type ShownResult,
} from './store';
import { loadStrategyTemplate } from './strategyTemplate';

/*
 * The workbench's user operations, one plain function each: toolbar buttons, menus, the
 * results and history modals and tests call them the same way. Each shows the spec's message
 * and resolves with its outcome instead of throwing. Server state goes through the query
 * cache (`queries.ts`): a save's answer is put into the strategy list, which is also what
 * the auto-save guard reads. Confirmations are asked through `ask` (the antd dialog unless a
 * caller passes its own).
 */

const m = messages.strategy;

const editor = () => useEditorStore.getState();

// ---- Auto-save ----

/** The strategy whose next auto-save keeps the code it replaces as a version (an Accept). */
let keepVersionOf: string | null = null;

const saver = new AutoSaver(
  async (name, code) => {
    const keepVersion = keepVersionOf === name;
    keepVersionOf = null;
    putSavedStrategy(await saveStrategy(name, code, keepVersion ? { keepVersion: true } : {}));
  },
  (state, name) => {
    useEditorStore.setState({ indicator: state });
    if (state === 'skipped') notify.warning(m.autoSaveSkipped(name));
  },
  cachedCode,
);

/** An edit of the editor's code (typing, Apply, a restore): auto-saved after the debounce. */
export function editCode(code: string): void {
  useEditorStore.setState({ code });
  saver.edited(editor().selected, code);
}

/** Saves a pending auto-save now; its outcome, or null when none was pending. */
export function flushAutoSave(): Promise<SaveIndicator | null> {
  return saver.flush();
}

/**
 * Auto-saves `code` as `name`'s code now, as the debounce would: never Default, never blank
 * code over the non-blank code the server holds ('skipped', indicator and notice).
 */
export function autoSave(name: string, code: string): Promise<SaveIndicator | null> {
  saver.edited(name, code);
  return saver.flush();
}

/** Drops a pending auto-save and the indicator's timer (the workbench unmounts). */
export function disposeAutoSave(): void {
  saver.dispose();
}

// ---- Opening and selection ----

/** Each opening: the template (once) and the saved strategies, fetched afresh. */
export async function refreshWorkbench(): Promise<void> {
  loadStrategyTemplate().catch((error: unknown) =>
    console.warn('The strategy template could not be loaded', error),
  );
  void queryClient.invalidateQueries({ queryKey: strategyKeys.allVersions });
  try {
    await refetchStrategies();
  } catch {
    notify.error(m.loadListFailed);
  }
}

/** Selecting (or re-selecting) a strategy loads its code; Default loads the template again. */
export function selectStrategy(name: string): void {
  if (name === editor().selected && !isDefaultStrategy(name)) return; // its code is shown
  void saver.flush(); // a pending auto-save of the previous selection
  // an offered change was compared with the previous selection's code: it lapses
  useEditorStore.setState({ proposal: null });
  if (isDefaultStrategy(name)) {
    const template = cachedTemplate();
    useEditorStore.setState({ selected: name, templatePending: template === null });
    loadCode(template ?? '');
  } else {
    useEditorStore.setState({ selected: name });
    loadCode(cachedCode(name) ?? '');
  }
}

/** Default shows the template as soon as it is known (when it was not at its selection). */
export function showArrivedTemplate(template: string): void {
  const { selected, templatePending } = editor();
  if (!templatePending || !isDefaultStrategy(selected)) return;
  useEditorStore.setState({ templatePending: false });
  loadCode(template);
}

/** Closing the editor saves a pending auto-save first. */
export function closeEditor(): void {
  void saver.flush();
  closeWorkbench();
}

// ---- Offered changes (the assistant's Apply) ----

/**
 * Offers `code` for the editor: a diff of the editor's code and `code` with Accept and
 * Reject. Nothing changes (and nothing is saved) until Accept. False when the editor already
 * holds exactly this code (said as an info toast).
 */
export function proposeCode(code: string, source: string): boolean {
  const original = currentCode();
  if (original === code) {
    notify.info(m.proposal.unchanged);
    useEditorStore.setState({ proposal: null });
    return false;
  }
  useEditorStore.setState({ proposal: { code, original, source } });
  return true;
}

/**
 * Accept: the offered code becomes an ordinary edit of the editor (one undo step, Ctrl+Z
 * returns to the code it replaced), auto-saved like typing for a saved strategy; that save
 * keeps the replaced code as a version whatever its age (Restore previous version finds it).
 */
export function acceptProposal(): void {
  const { proposal, selected } = editor();
  if (!proposal) return;
  useEditorStore.setState({ proposal: null });
  keepVersionOf = selected;
  // a mounted editor reports the edit to `editCode` itself, as it does typing
  if (!replaceAsEdit(proposal.source, proposal.code)) editCode(proposal.code);
}

/** Reject: the offered code is dropped; the editor and the server keep what they hold. */
export function rejectProposal(): void {
  useEditorStore.setState({ proposal: null });
}

// ---- Saving ----

async function writeCode(
  name: string,
  text: string,
  allowEmpty: boolean,
  success: string,
): Promise<Outcome> {
  saver.cancel();
  try {
    // an explicit save: the code it replaces is kept as a version whatever its age
    putSavedStrategy(await saveStrategy(name, text, { allowEmpty, keepVersion: true }));
    return done(success);
  } catch {
    return failed(m.saveFailed);
  }
}

/**
 * Save Current Strategy (the editor's code, or `code`); replacing saved code with empty
 * code asks first.
 */
export async function saveCurrentStrategy(
  options: { code?: string; success?: string; ask?: Ask } = {},
): Promise<Outcome> {
  const { selected, code } = editor();
  const text = options.code ?? code;
  const success = options.success ?? m.saved;
  if (!selected) return refused(m.selectFirst);
  if (isDefaultStrategy(selected)) return refused(m.defaultReadOnly);
  const name = selected;
  const saved = cachedCode(name);
  if (saved !== undefined && wouldBlankSavedCode(saved, text)) {
    let outcome = QUIET;
    await (options.ask ?? askUser)(
      {
        title: m.emptySaveTitle,
        content: m.emptySaveConfirm(name, saved.length),
        okText: m.emptySaveOk,
        cancelText: m.cancel,
        okButtonProps: { danger: true },
      },
      async () => {
        outcome = await writeCode(name, text, true, success);
      },
    );
    return outcome;
  }
  return writeCode(name, text, false, success);
}

/**
 * Save as New Strategy: the editor's code under `name`, which becomes the selection. A name
 * the rules refuse comes back `inline` (shown beside the name field, no toast).
 */
export async function saveAsNewStrategy(rawName: string): Promise<Outcome & { inline?: boolean }> {
  const problem = newStrategyNameProblem(rawName);
  if (problem) return { success: false, message: problem, inline: true };
  const name = rawName.trim();
  try {
    const answer = await saveStrategy(name, editor().code, { create: true });
    const outcome = done(m.created);
    setPanel('saveAsOpen', false);
    if (strategyListKnown()) putSavedStrategy(answer);
    else await refreshStrategyList();
    saver.cancel();
    useEditorStore.setState({ selected: name });
    return outcome;
  } catch (error) {
    const detail = failureDetail(error);
    return failed(detail ? m.createFailedDetail(detail) : m.createFailed);
  }
}

async function refreshStrategyList(): Promise<void> {
  try {
    await refetchStrategies();
  } catch {
    notify.error(m.loadListFailed);
  }
}

/**
 * Puts a kept version back: an edit of the editor (Ctrl+Z returns to the code it replaced),
 * saved at once, so the replaced code becomes a version in turn.
 */
export async function restoreVersion(
  version: StrategyVersion,
  options: { ask?: Ask } = {},
): Promise<Outcome> {
  if (!replaceAsEdit('restore-version', version.code)) return QUIET;
  useEditorStore.setState({ code: version.code, versionsOpen: false });
  return saveCurrentStrategy({
    code: version.code,
    success: m.restored(versionTime(version.created_at)),
    ...(options.ask ? { ask: options.ask } : {}),
  });
}

/** Delete Strategy, after the user confirms; the editor is then empty with no selection. */
export async function deleteCurrentStrategy(options: { ask?: Ask } = {}): Promise<Outcome> {
  const { selected } = editor();
  if (!selected) return refused(m.selectFirst);
  if (isDefaultStrategy(selected)) return refused(m.defaultReadOnly);
  const name = selected;
  let outcome = QUIET;
  await (options.ask ?? askUser)(
    { title: m.deleteStrategy, content: m.deleteConfirm(name), okButtonProps: { danger: true } },
    async () => {
      try {
        await deleteStrategy(name);
        outcome = done(m.deleted);
        saver.cancel();
        useEditorStore.setState({ selected: null, proposal: null });
        loadCode('');
        forgetStrategy(name);
      } catch {
        outcome = failed(m.deleteFailed);
      }
    },
  );
  return outcome;
}

// ---- Running and results ----

/** The chart the editor works for, with its current symbol and period. */
export function workbenchTarget() {
  const request = useWorkbenchStore.getState().request;
  if (!request) return null;
  const cell = useChartGridStore.getState().charts.find((c) => c.id === request.chartId);
  return {
    chartId: request.chartId,
    symbol: cell?.symbol ?? request.symbol,
    period: cell?.period ?? request.period,
  };
}

/**
 * A backtest run where it belongs: the main window calls the server; a child frame asks
 * the main window (`chartActions/runCode`, with the chart's client id), which also puts
 * the run's trades on this chart through `chartActions/setEvents`.
 */
async function requestRun(request: RunRequest & { clientId: string }): Promise<RunAnswer> {
  if (!isChildFrame()) return runBacktest(request);
  const result = await requestSharedAction(SHARED_ACTIONS.runCode, {
    clientId: request.clientId,
    code: request.code,
    symbolId: request.symbol,
    period: request.period,
    ...(request.limit === undefined ? {} : { limit: Number(request.limit) }),
    ...(request.strategy_name ? { strategyName: request.strategy_name } : {}),
  });
  return sharedActionResultSchemas[SHARED_ACTIONS.runCode].parse(result);
}

/**
 * Run Code: backtests the editor's code on the chart's symbol and period (its newest `bars`,
 * the Bars field) and shows the results (or the error, whose last line is also a toast).
 */
export async function runCode(): Promise<Outcome> {
  const chart = workbenchTarget();
  if (!chart?.symbol) return refused(m.symbolMissing);
  const { clientId, code, selected, extraFeeds, bars } = editor();
  const barsRefused = barsProblem(bars);
  if (barsRefused !== null || bars === null) return refused(barsRefused ?? m.barsRequired);
  // the chart's feed first, then the picker's others (a child frame runs on the chart's only)
  const feeds = isChildFrame()
    ? []
    : extraFeeds.filter((f) => f.symbol !== chart.symbol || f.period !== chart.period);
  useEditorStore.setState({ running: true });
  let answer: BacktestAnswer | null = null;
  let failure: string | null = null;
  try {
    const run = await requestRun({
      clientId,
      code,
      symbol: chart.symbol,
      period: chart.period,
      limit: bars,
      ...(selected && !isDefaultStrategy(selected) ? { strategy_name: selected } : {}),
      ...(feeds.length > 0
        ? {
            feeds: [
              { symbol_id: chart.symbol, period: chart.period },
              ...feeds.map((f) => ({ symbol_id: f.symbol, period: f.period })),
            ],
          }
        : {}),
    });
    answer = run.data;
    if (!run.success) failure = run.reason ?? m.unknownError;
    else if (run.data?.error) failure = run.data.error;
  } catch (error) {
    failure = failureDetail(error) ?? m.unknownError;
  } finally {
    useEditorStore.setState({ running: false });
  }
  if (failure) notify.error(failure.split('\n').filter(Boolean).slice(-1)[0] ?? failure);
  // a kept run of a saved strategy joins its run history
  if (answer?.run_id && selected && !isDefaultStrategy(selected)) refreshResults(selected);
  // the assistant answers about this run ("why does this fail?")
  recordBacktest({
    strategyName: selected,
    symbol: chart.symbol,
    performance: answer?.performance ?? null,
    error: failure,
  });
  useEditorStore.setState({
    results: {
      deals: answer?.deals ?? [],
      performance: answer?.performance ?? null,
      error: failure,
      runId: answer?.run_id ?? null,
      symbol: chart.symbol,
      saved: false,
      ...portfolioOf(answer?.per_symbol, answer?.feeds),
    },
  });
  return { success: failure === null, message: failure };
}

/**
 * The portfolio part of a shown result: each instrument's figures and the feeds, when the run
 * (or the saved result) was on several feeds.
 */
function portfolioOf(
  perSymbol: Record<string, Performance> | undefined,
  feeds: RunFeeds | undefined,
): Pick<ShownResult, 'perSymbol' | 'feeds'> {
  if (!perSymbol || !feeds || feeds.length < 2) return {};
  return {
    perSymbol,
    feeds: feeds.flatMap((f) => {
      const period = parsePeriod(f.period);
      return period ? [{ symbol: f.symbol_id, period }] : [];
    }),
  };
}

/** Save Results of the run shown (by its run id when the server kept the run). */
export async function saveRunResults(): Promise<Outcome> {
  const { results, selected } = editor();
  if (!results) return QUIET;
  if (!selected) return refused(m.selectFirst);
  if (!results.symbol) return refused(m.symbolMissing);
  useEditorStore.setState({ savingResults: true });
  try {
    const saved = await saveResult({
      strategy_name: selected,
      symbol_id: results.symbol,
      ...(results.runId
        ? { run_id: results.runId }
        : {
            deals: [...results.deals],
            performance: results.performance,
            error: results.error,
            ...(results.perSymbol && results.feeds
              ? {
                  per_symbol: results.perSymbol,
                  feeds: results.feeds.map((f) => ({ symbol_id: f.symbol, period: f.period })),
                }
              : {}),
          }),
    });
    putSavedResult(saved);
    const outcome = done(m.resultsSaved);
    useEditorStore.setState({ results: { ...results, saved: true } });
    return outcome;
  } catch {
    return failed(m.resultsSaveFailed);
  } finally {
    useEditorStore.setState({ savingResults: false });
  }
}

/**
 * Show on Chart of a run on several instruments: the grid shows one chart per instrument
 * (at its feed's period), each with its own trades as markers; then the editor closes.
 */
export function showFeedsOnChart(deals: readonly Deal[], feeds: readonly FeedChoice[]): Outcome {
  try {
    const instruments: FeedChoice[] = [];
    for (const feed of feeds) {
      if (!instruments.some((known) => known.symbol === feed.symbol)) instruments.push(feed);
    }
    const first = instruments[0];
    if (!first) return refused(m.showOnChartFailed);
    if (deals.length === 0) return refused(m.noDeals);
    const shown = instruments.slice(0, CHART_LAYOUTS.at(-1));
    const layout = CHART_LAYOUTS.find((n) => n >= shown.length) ?? CHART_LAYOUTS.at(-1) ?? 1;
    setChartLayout(layout);
    const cells = useChartGridStore.getState().charts;
    shown.forEach((feed, i) => {
      const cell = cells[i];
      if (!cell) return;
      setChartSymbol(cell.id, feed.symbol);
      setChartPeriod(cell.id, feed.period);
      const own = deals.filter((deal) => (dealCode(deal) ?? first.symbol) === feed.symbol);
      setChartMarkers(cell.id, feed.symbol, markersFromDeals(own));
    });
    const outcome = done(m.shownOnChart);
    useEditorStore.setState({ historyOpen: false, results: null });
    closeWorkbench();
    return outcome;
  } catch {
    return failed(m.showOnChartError);
  }
}

/** Show on Chart: the trades as markers on the editor's chart, then the editor closes. */
export function showOnChart(deals: readonly Deal[], symbol: string | null): Outcome {
  try {
    const chart = workbenchTarget();
    if (!chart || !symbol) return refused(m.showOnChartFailed);
    if (deals.length === 0) return refused(m.noDeals);
    if (chart.symbol !== symbol) {
      return refused(`${m.showOnChartFailed}: ${chart.symbol ?? '-'} ≠ ${symbol}`);
    }
    setChartMarkers(chart.chartId, symbol, markersFromDeals(deals));
    const outcome = done(m.shownOnChart);
    useEditorStore.setState({ historyOpen: false, results: null });
    closeWorkbench();
    return outcome;
  } catch {
    return failed(m.showOnChartError);
  }
}

/** Run History of the selected strategy. */
export function openRunHistory(): Outcome {
  if (!editor().selected) return refused(m.selectFirst);
  setPanel('historyOpen', true);
  return { success: true, message: null };
}

/** View Details of a saved result: the results modal shows it (already saved). */
export function viewResultDetails(result: StrategyResult): void {
  useEditorStore.setState({
    results: {
      deals: result.deals,
      performance: result.performance,
      error: result.error,
      runId: result.run_id,
      symbol: result.symbol_id,
      saved: true,
      ...portfolioOf(result.per_symbol, result.feeds),
    },
  });
}

/**
 * Show on Chart of a saved result: one chart per instrument for a run on several feeds, else
 * the trades on the editor's chart.
 */
export function showSavedResultOnChart(result: StrategyResult): Outcome {
  const { feeds } = portfolioOf(result.per_symbol, result.feeds);
  return feeds
    ? showFeedsOnChart(result.deals, feeds)
    : showOnChart(result.deals, result.symbol_id);
}
