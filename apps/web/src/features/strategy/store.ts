import { DEFAULT_LOADED_BARS, type Deal, type Performance, type Period } from '@ct/domain';
import { create } from 'zustand';
import type { CodeEditorRequest } from './codeEditorHook';
import { DEFAULT_STRATEGY, newClientId, type SaveIndicator } from './logic';

type WorkbenchState = {
  /** The chart the editor was opened for; null until first opened. */
  request: CodeEditorRequest | null;
  open: boolean;
};

export const useWorkbenchStore = create<WorkbenchState>(() => ({
  request: null,
  open: false,
}));

export function openWorkbench(request: CodeEditorRequest): void {
  useWorkbenchStore.setState({ request, open: true });
}

export function closeWorkbench(): void {
  useWorkbenchStore.setState({ open: false });
}

/** The workbench's last Run Code, as readers outside it see it (the AI assistant's context). */
export type LastBacktest = {
  strategyName: string | null;
  symbol: string | null;
  performance: Performance | null;
  error: string | null;
};

export const useLastBacktest = create<{ last: LastBacktest | null }>(() => ({ last: null }));

/** Records the outcome of a Run Code (its metrics, or its error). */
export function recordBacktest(last: LastBacktest): void {
  useLastBacktest.setState({ last });
}

/** What the results modal shows: a fresh run (not saved yet) or a saved result. */
export type ShownResult = {
  deals: readonly Deal[];
  performance: Performance | null;
  error: string | null;
  runId: string | null;
  symbol: string | null;
  saved: boolean;
  /** A run on several feeds: each instrument's figures (`performance` is the portfolio's). */
  perSymbol?: Record<string, Performance>;
  /** A run on several feeds: the feeds, the chart's first. */
  feeds?: readonly FeedChoice[];
};

/** A feed of a run: an instrument and a period. */
export type FeedChoice = { symbol: string; period: Period };

/**
 * A change offered for the editor's code (the assistant's Apply, a task's code that could not
 * be saved as a strategy): shown as a diff until the user accepts or rejects it; nothing of it
 * reaches the editor, and so the server, before Accept.
 */
export type CodeProposal = {
  /** The code offered. */
  code: string;
  /** The editor's code it was compared with when offered. */
  original: string;
  /** The edit's source, as Monaco records it (e.g. 'ai-assistant-apply'). */
  source: string;
};

/**
 * The editor's UI state (server state is in the query cache, see `queries.ts`): the
 * selection, the editor's text as last loaded or edited (the Monaco model owns the text; this
 * copy is what the actions read), the save indicator, the run and which panels are open.
 */
export type EditorState = {
  /** The log socket's client id, sent with each run. */
  clientId: string;
  selected: string | null;
  code: string;
  /** Default is selected but its template was not known yet: load it when it arrives. */
  templatePending: boolean;
  indicator: SaveIndicator;
  running: boolean;
  results: ShownResult | null;
  savingResults: boolean;
  saveAsOpen: boolean;
  logsOpen: boolean;
  versionsOpen: boolean;
  historyOpen: boolean;
  /** A change waiting for Accept or Reject (shown as a diff over the editor). */
  proposal: CodeProposal | null;
  /** Feeds the runs take besides the chart's own (the feeds picker). */
  extraFeeds: FeedChoice[];
  /** How many of the chart's newest bars a run takes (the Bars field; null while empty). */
  bars: number | null;
};

function initialEditorState(): EditorState {
  return {
    clientId: newClientId(),
    selected: DEFAULT_STRATEGY,
    code: '',
    templatePending: true,
    indicator: 'idle',
    running: false,
    results: null,
    savingResults: false,
    saveAsOpen: false,
    logsOpen: false,
    versionsOpen: false,
    historyOpen: false,
    proposal: null,
    extraFeeds: [],
    bars: DEFAULT_LOADED_BARS,
  };
}

export const useEditorStore = create<EditorState>(initialEditorState);

/** Test helper: the editor as first opened. */
export function resetEditorStore(): void {
  useEditorStore.setState(initialEditorState());
}

type Panel = 'saveAsOpen' | 'logsOpen' | 'versionsOpen' | 'historyOpen';

/** Opens or closes one of the editor's sub-modals. */
export function setPanel(panel: Panel, open: boolean): void {
  const patch: Partial<Pick<EditorState, Panel>> = {};
  patch[panel] = open;
  useEditorStore.setState(patch);
}
