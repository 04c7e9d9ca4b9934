import { isValidElement, type ReactNode } from 'react';
import { registerNotifier } from '../shared/notify';

export type RecordedToast = { type: string; text: string };

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return '';
}

/**
 * Records the toasts `notify` shows (their kind and visible text) instead of drawing them:
 * for store tests with no document to draw in. Returns the list and the unregister.
 */
export function recordToasts(): { toasts: RecordedToast[]; unregister: () => void } {
  const toasts: RecordedToast[] = [];
  const unregister = registerNotifier({
    open: (config: { type?: string; content?: ReactNode }) => {
      toasts.push({ type: config.type ?? 'info', text: textOf(config.content) });
    },
    destroy: () => undefined,
  } as unknown as Parameters<typeof registerNotifier>[0]);
  return { toasts, unregister };
}
