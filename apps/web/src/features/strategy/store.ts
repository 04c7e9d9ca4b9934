import { create } from 'zustand';
import type { CodeEditorRequest } from '../chart/codeEditorHook';

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
