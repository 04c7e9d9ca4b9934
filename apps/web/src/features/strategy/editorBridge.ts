import type { IRange } from 'monaco-editor';
import { registerEditorCodeReader } from './codeEditorHook';
import { useEditorStore } from './store';

/*
 * The workbench's Monaco editor, for the actions. The editor is uncontrolled: a load (a
 * selection, Default's template, a deletion) goes through the model's setValue, which also
 * clears the undo history, so loading never becomes an undoable edit; a restored version is
 * an edit (executeEdits), so Ctrl+Z returns to the code it replaced.
 */

/** The part of a Monaco model the workbench uses. */
export type EditorModel = {
  getValue(): string;
  setValue(text: string): void;
  getFullModelRange(): IRange;
};

/** The part of a Monaco code editor the workbench uses (tests pass a small fake). */
export type WorkbenchEditor = {
  getModel(): EditorModel | null;
  pushUndoStop(): unknown;
  executeEdits(
    source: string,
    edits: { range: IRange; text: string; forceMoveMarkers?: boolean }[],
  ): unknown;
  focus?(): void;
};

let current: WorkbenchEditor | null = null;

/** The mounted editor takes the code loaded before it existed; returns the detach. */
export function attachEditor(editor: WorkbenchEditor): () => void {
  current = editor;
  const model = editor.getModel();
  const code = useEditorStore.getState().code;
  if (model && model.getValue() !== code) model.setValue(code);
  // the assistant reads the editor's code for its context
  const detachReader = registerEditorCodeReader(
    () => editor.getModel()?.getValue() ?? useEditorStore.getState().code,
  );
  return () => {
    detachReader();
    if (current === editor) current = null;
  };
}

/** The editor's code as the user sees it (the store's copy when no editor is mounted). */
export function currentCode(): string {
  return current?.getModel()?.getValue() ?? useEditorStore.getState().code;
}

/** Shows `text` as the loaded code of the selection (not an edit: no undo step). */
export function loadCode(text: string): void {
  useEditorStore.setState({ code: text });
  current?.getModel()?.setValue(text);
}

/**
 * Replaces the whole text as one undoable edit; false when no editor is mounted. The edit
 * reaches the editor's change handler like typing does.
 */
export function replaceAsEdit(source: string, text: string): boolean {
  const model = current?.getModel();
  if (!current || !model) return false;
  current.pushUndoStop();
  current.executeEdits(source, [
    { range: model.getFullModelRange(), text, forceMoveMarkers: true },
  ]);
  current.pushUndoStop();
  current.focus?.();
  return true;
}
