import type { Period } from '@ct/domain';
import { create } from 'zustand';

/** The chart a code editor opens for. */
export type CodeEditorRequest = { chartId: string; symbol: string; period: Period };

/**
 * The chart toolbar's code editor button: disabled until the strategy workbench registers
 * its opener here with `registerCodeEditorOpener`, then enabled and calling it.
 */
export const useCodeEditorHook = create<{ open: ((request: CodeEditorRequest) => void) | null }>(
  () => ({ open: null }),
);

/** Registers the function that opens the Python code editor; returns the unregister. */
export function registerCodeEditorOpener(open: (request: CodeEditorRequest) => void): () => void {
  useCodeEditorHook.setState({ open });
  return () => {
    if (useCodeEditorHook.getState().open === open) useCodeEditorHook.setState({ open: null });
  };
}
