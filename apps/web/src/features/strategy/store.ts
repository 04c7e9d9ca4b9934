import type { Performance } from '@ct/domain';
import { create } from 'zustand';
import type { CodeEditorRequest } from './codeEditorHook';

type WorkbenchState = {
  /** The chart the editor was opened for; null until first opened. */
  request: CodeEditorRequest | null;
  open: boolean;
  /** Mounted hosts; the first renders the workbench. */
  hosts: string[];
};

export const useWorkbenchStore = create<WorkbenchState>(() => ({
  request: null,
  open: false,
  hosts: [],
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
