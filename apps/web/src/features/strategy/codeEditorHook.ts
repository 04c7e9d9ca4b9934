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

let codeReader: (() => string) | null = null;

/** The mounted workbench editor offers its text to readers outside it; returns the detach. */
export function registerEditorCodeReader(read: () => string): () => void {
  codeReader = read;
  return () => {
    if (codeReader === read) codeReader = null;
  };
}

/** The code in the Python Code Editor, or null when it is not mounted (never opened). */
export function readEditorCode(): string | null {
  return codeReader ? codeReader() : null;
}
