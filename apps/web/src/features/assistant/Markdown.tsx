import { memo, useMemo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import remend from 'remend';
import { CodeBlock } from './CodeBlock';

type HastNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
};

/** The plain text of a hast node (the code block before highlighting split it in spans). */
function textOf(node: HastNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

function languageOf(code: HastNode | undefined): string | null {
  const classes = code?.properties?.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    const text = String(name);
    if (text.startsWith('language-')) return text.slice('language-'.length) || null;
  }
  return null;
}

const REMARK = [remarkGfm];
// Unknown fence languages stay plain; no guessing, so prose in a bare fence is not coloured.
const REHYPE = [[rehypeHighlight, { detect: false }] as [typeof rehypeHighlight, object]];

type Props = {
  text: string;
  /** True while the text is still arriving: unfinished markup is closed before rendering. */
  streaming?: boolean;
  onApply?: ((code: string) => Promise<unknown> | unknown) | undefined;
};

/**
 * An answer as markdown (GitHub flavour: tables, task lists, strikethrough) with highlighted
 * code blocks that carry Copy and Apply. Images are shown as links: an answer never makes
 * the page load anything from outside the product.
 */
export const Markdown = memo(function Markdown({ text, streaming = false, onApply }: Props) {
  const components = useMemo<Components>(
    () => ({
      pre: ({ node, children }) => {
        const code = (node as HastNode | undefined)?.children?.find(
          (child) => child.type === 'element' && child.tagName === 'code',
        );
        return (
          <CodeBlock
            language={languageOf(code)}
            // the fence's own line end is not part of the code
            code={textOf(code).replace(/\n$/, '')}
            onApply={onApply}
          >
            {children}
          </CodeBlock>
        );
      },
      table: ({ node: _node, ...props }) => (
        <div className="assistant-table">
          <table {...props} />
        </div>
      ),
      a: ({ node: _node, href, children, ...props }) => (
        <a {...props} href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      ),
      img: ({ alt, src }) =>
        src ? (
          <a href={String(src)} target="_blank" rel="noopener noreferrer">
            {alt || String(src)}
          </a>
        ) : (
          <span>{alt}</span>
        ),
    }),
    [onApply],
  );
  const source = streaming ? remend(text, { linkMode: 'text-only' }) : text;
  return (
    <div className="assistant-markdown">
      <ReactMarkdown remarkPlugins={REMARK} rehypePlugins={REHYPE} components={components}>
        {source}
      </ReactMarkdown>
    </div>
  );
});
