import { CheckOutlined, CloseOutlined, DiffOutlined } from '@ant-design/icons';
import { DiffEditor } from '@monaco-editor/react';
import { Button, Space, Spin, Typography } from 'antd';
import type { editor as MonacoEditor } from 'monaco-editor';
import { useEffect, useRef } from 'react';
import { strategy as messages } from '../../../i18n/defaults/strategy';
import { acceptProposal, rejectProposal } from '../actions';
import { DEFAULT_STRATEGY, isDefaultStrategy } from '../logic';
import '../monacoSetup';
import type { CodeProposal } from '../store';
import { useEditorStore } from '../store';

const m = messages.strategy;

/**
 * An offered change as Monaco's diff (the editor's code left, the offer right, read-only)
 * over the editor, with Accept and Reject. The editor stays mounted below it, so Accept is
 * an edit of its model with the undo history intact.
 */
export function ProposalDiff({ proposal, dark }: { proposal: CodeProposal; dark: boolean }) {
  const selected = useEditorStore((s) => s.selected);
  const diff = useRef<MonacoEditor.IStandaloneDiffEditor | null>(null);
  // The diff's models outlive its widget (disposing them first makes Monaco throw): they
  // are disposed once the widget is gone.
  useEffect(
    () => () => {
      const models = diff.current?.getModel();
      diff.current = null;
      queueMicrotask(() => {
        models?.original.dispose();
        models?.modified.dispose();
      });
    },
    [],
  );
  const target = selected === null || isDefaultStrategy(selected) ? DEFAULT_STRATEGY : selected;
  return (
    <section className="strategy-proposal" aria-label={m.proposal.title}>
      <header className="strategy-proposal-bar">
        <Space size={8} className="strategy-proposal-actions">
          <Button type="primary" icon={<CheckOutlined />} onClick={acceptProposal}>
            {m.proposal.accept}
          </Button>
          <Button icon={<CloseOutlined />} onClick={rejectProposal}>
            {m.proposal.reject}
          </Button>
        </Space>
        <span className="strategy-proposal-text">
          <Typography.Text strong>
            <DiffOutlined /> {m.proposal.title}
          </Typography.Text>
          <Typography.Text type="secondary">{m.proposal.hint(target)}</Typography.Text>
        </span>
      </header>
      {/* Colours, not sides: narrow editors show the diff inline. */}
      <div className="strategy-proposal-legend">
        <span>
          <i className="strategy-proposal-swatch strategy-proposal-removed" aria-hidden="true" />
          {m.proposal.current}
        </span>
        <span>
          <i className="strategy-proposal-swatch strategy-proposal-added" aria-hidden="true" />
          {m.proposal.proposed}
        </span>
      </div>
      <div className="strategy-proposal-diff" data-testid="strategy-diff">
        <DiffEditor
          language="python"
          theme={dark ? 'vs-dark' : 'light'}
          original={proposal.original}
          modified={proposal.code}
          keepCurrentOriginalModel
          keepCurrentModifiedModel
          onMount={(editor) => {
            diff.current = editor;
          }}
          loading={<Spin tip={m.editorLoading} />}
          options={{
            readOnly: true,
            originalEditable: false,
            renderSideBySide: true,
            fontSize: 14,
            minimap: { enabled: false },
            automaticLayout: true,
            scrollBeyondLastLine: false,
          }}
        />
      </div>
    </section>
  );
}
