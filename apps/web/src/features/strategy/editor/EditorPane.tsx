import Editor from '@monaco-editor/react';
import { Spin } from 'antd';
import type { editor as MonacoEditor } from 'monaco-editor';
import { useEffect, useRef, useState } from 'react';
import { strategy as messages } from '../../../i18n/defaults/strategy';
import { useThemeStore } from '../../../shared/theme';
import { editCode } from '../actions';
import { attachEditor } from '../editorBridge';
import '../monacoSetup';
import { useEditorStore } from '../store';
import { ProposalDiff } from './ProposalDiff';
import './proposal.css';

const m = messages.strategy;

/**
 * The Monaco editor (Python, tab size 4, font size 14, minimap). Uncontrolled: loads reach
 * it through `loadCode` (the model's setValue), edits leave it through `editCode`. An offered
 * change shows as a diff over it until accepted or rejected.
 */
export function EditorPane() {
  const dark = useThemeStore((s) => s.mode === 'dark');
  // the code loaded before the editor existed; later loads go through the model
  const [initial] = useState(() => useEditorStore.getState().code);
  const detach = useRef<(() => void) | null>(null);
  const proposal = useEditorStore((s) => s.proposal);
  useEffect(() => () => detach.current?.(), []);

  const onEdit = (value: string | undefined, event: MonacoEditor.IModelContentChangedEvent) => {
    if (event.isFlush) return; // a load (setValue), not an edit
    editCode(value ?? '');
  };

  return (
    <div className="strategy-editor-area">
      <div
        className="strategy-editor-code"
        data-testid="strategy-editor"
        // hidden, not unmounted, while a diff shows: its model and undo history stay
        style={{ visibility: proposal ? 'hidden' : undefined }}
        aria-hidden={proposal ? true : undefined}
      >
        <Editor
          language="python"
          theme={dark ? 'vs-dark' : 'light'}
          defaultValue={initial}
          onMount={(editor) => {
            detach.current?.();
            detach.current = attachEditor(editor);
          }}
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
      {proposal && <ProposalDiff proposal={proposal} dark={dark} />}
    </div>
  );
}
