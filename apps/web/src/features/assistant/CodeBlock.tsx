import { CheckOutlined, CopyOutlined, ImportOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { notify } from '../../shared/notify';
import { assistant as messages } from '../../i18n/defaults/assistant';
import { copyText } from './clipboard';
import { useFlash } from './useFlash';

const a = messages.assistant;

type Props = {
  /** The fence's language, e.g. python; null when none was given. */
  language: string | null;
  /** The block's plain text, as copied and applied. */
  code: string;
  /** Offers the code to the Python Code Editor (as a diff); no Apply button without it. */
  onApply?: ((code: string) => Promise<unknown> | unknown) | undefined;
  /** The highlighted code to show. */
  children: ReactNode;
};

/** A code block of an answer with Copy and Apply ('Copied' / 'Applied' for 1.5 s). */
export function CodeBlock({ language, code, onApply, children }: Props) {
  const [copied, flashCopied] = useFlash();
  const [applied, flashApplied] = useFlash();
  // closed on Apply: the chat closes for the diff, and a hover tooltip would stay behind
  const [applyTip, setApplyTip] = useState(false);

  const copy = async () => {
    try {
      await copyText(code);
      flashCopied();
    } catch {
      notify.error(a.copyFailed);
    }
  };

  const apply = async () => {
    if (!onApply) return;
    setApplyTip(false);
    try {
      await onApply(code);
      flashApplied();
    } catch (error) {
      notify.error(error instanceof Error && error.message ? error.message : a.errorToast);
    }
  };

  return (
    <figure className="assistant-code" aria-label={a.codeLanguage(language ?? 'text')}>
      <figcaption className="assistant-code-header">
        <span className="assistant-code-language">{language ?? 'text'}</span>
        <span className="assistant-code-actions">
          <Button
            size="small"
            type="text"
            icon={copied ? <CheckOutlined aria-hidden /> : <CopyOutlined aria-hidden />}
            onClick={() => void copy()}
          >
            {copied ? a.copied : a.copy}
          </Button>
          {onApply && (
            <Tooltip title={a.applyTitle} open={applyTip} onOpenChange={setApplyTip}>
              <Button
                size="small"
                type="text"
                icon={applied ? <CheckOutlined aria-hidden /> : <ImportOutlined aria-hidden />}
                onClick={() => void apply()}
              >
                {applied ? a.applied : a.apply}
              </Button>
            </Tooltip>
          )}
        </span>
      </figcaption>
      <pre className="assistant-code-body">{children}</pre>
    </figure>
  );
}
