import type * as MonacoReact from '@monaco-editor/react';
import type { editor as MonacoEditor } from 'monaco-editor';
import { assistant as messages } from '../../i18n/defaults/assistant';
import {
  type CodeEditorRequest,
  readEditorCode,
  useCodeEditorHook,
  useWorkbenchStore,
  cachedTemplate,
} from '../strategy';
import { loadStrategyActions } from '../strategy/lazy';
import { closeAssistant } from './store';

// Monaco's loader loads with Apply (or the editor), not with the page.

/** How long Apply waits for the Python Code Editor to open and load. */
const EDITOR_WAIT_MS = 30_000;

/** The chart the editor opens for when it never was opened; set by the page. */
let targetSource: (() => CodeEditorRequest | null) | null = null;

export function registerEditorTarget(source: () => CodeEditorRequest | null): () => void {
  targetSource = source;
  return () => {
    if (targetSource === source) targetSource = null;
  };
}

type Loader = typeof MonacoReact.loader;

/** The Monaco editor of the Python Code Editor modal, once it is mounted with its model. */
function workbenchEditor(loader: Loader): MonacoEditor.ICodeEditor | null {
  const monaco = loader.__getMonacoInstance();
  if (!monaco) return null;
  for (const editor of monaco.editor.getEditors()) {
    const node = editor.getContainerDomNode();
    if (editor.getModel() && node.closest('[data-testid="strategy-editor"]')) return editor;
  }
  return null;
}

/** The code in the Python Code Editor, or null when it was never opened. */
export function editorCode(): string | null {
  return readEditorCode();
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

async function waitForEditor(loader: Loader): Promise<MonacoEditor.ICodeEditor> {
  const deadline = Date.now() + EDITOR_WAIT_MS;
  for (;;) {
    const editor = workbenchEditor(loader);
    // The Default strategy shows the template once it arrives: apply after that, not before.
    if (editor && cachedTemplate() !== null) {
      await nextFrame();
      await nextFrame();
      return workbenchEditor(loader) ?? editor;
    }
    if (Date.now() > deadline) throw new Error(messages.assistant.editorUnavailable);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Apply: offers `code` for the Python Code Editor, opening it first when closed (a trader
 * expects to see the change where the code lives). The editor shows the change as a diff
 * with Accept and Reject; nothing is edited or saved before Accept. Accepting makes it an
 * ordinary edit of the selected strategy (one undo step; a saved strategy auto-saves it, the
 * read-only Default strategy keeps it as an unsaved copy). The chat makes way for the diff.
 * Resolves false when the editor already holds this code.
 */
export async function applyCode(code: string): Promise<boolean> {
  const open = useCodeEditorHook.getState().open;
  if (!open) throw new Error(messages.assistant.editorUnavailable);
  const [{ loader }, { proposeCode }] = await Promise.all([
    import('@monaco-editor/react'),
    loadStrategyActions(),
  ]);
  const workbench = useWorkbenchStore.getState();
  if (!workbench.open) {
    const request = workbench.request ?? targetSource?.() ?? null;
    if (!request) throw new Error(messages.assistant.editorUnavailable);
    open(request);
  }
  await waitForEditor(loader);
  const offered = proposeCode(code, 'ai-assistant-apply');
  if (offered) closeAssistant();
  return offered;
}

/** Apply, where the Python Code Editor exists (it is not offered on phones); else null. */
export function useApplyCode(): ((code: string) => Promise<boolean>) | null {
  const available = useCodeEditorHook((s) => s.open !== null);
  return available ? applyCode : null;
}
