import { CloseOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { appApi, useAppApiStore, type AppApi } from './appApi';
import { messages } from '../i18n/firstScreen';

type MessageInstance = AppApi['message'];
type Kind = 'success' | 'error' | 'warning' | 'info';

let instance: MessageInstance | null = null;
let counter = 0;
/** antd's static message, once a toast was shown with no App mounted. */
let staticMessage: MessageInstance | null = null;
/** Toasts waiting for antd's static message to load. */
const waiting = new Set<Promise<void>>();

function whenLoaded(load: Promise<MessageInstance>, run: (api: MessageInstance) => void): void {
  const shown = load.then((api) => run(instance ?? api));
  waiting.add(shown);
  void shown.finally(() => waiting.delete(shown));
}

/** The antd `App` registers its themed message API here (app/AppApiHost.tsx). */
export function registerNotifier(api: MessageInstance): () => void {
  instance = api;
  return () => {
    if (instance === api) instance = null;
  };
}

/** Runs with the message API: at once, or when the App (loaded on demand) is there. */
function withApi(run: (api: MessageInstance) => void): void {
  if (instance) run(instance);
  else if (useAppApiStore.getState().hosts > 0)
    void appApi().then((app) => run(instance ?? app.message));
  // no providers (a component drawn alone): antd's static message, as without the App
  else
    whenLoaded(
      import('./antd/message').then((m) => (staticMessage = m.message)),
      run,
    );
}

/**
 * Shows what is on its way and then takes every toast down: a test's cleanup, so that no
 * toast's timer or late render outlives the test's document.
 */
export async function clearToasts(): Promise<void> {
  while (waiting.size > 0) await Promise.allSettled([...waiting]);
  instance?.destroy();
  staticMessage?.destroy();
}

/**
 * How long each kind of toast stays, in seconds: a success or a note goes by itself after a
 * glance; a warning or an error stays longer so it can be read, and has a close button.
 */
export const TOAST_SECONDS: Record<Kind, number> = {
  success: 3,
  info: 3,
  warning: 6,
  error: 8,
};

function show(kind: Kind, text: string): void {
  const key = `toast-${(counter += 1)}`;
  const close = () => withApi((api) => api.destroy(key));
  const lasting = kind === 'error' || kind === 'warning';
  withApi((api) => {
    void api.open({
      key,
      type: kind,
      duration: TOAST_SECONDS[kind],
      // a short toast keeps going under the pointer: it must not stay because the mouse rests there
      pauseOnHover: lasting,
      className: lasting ? 'toast toast-closable' : 'toast',
      content: lasting ? (
        <span className="toast-content">
          {text}
          <Button
            type="text"
            size="small"
            className="toast-close"
            aria-label={messages.app.closeNotification}
            icon={<CloseOutlined />}
            onClick={close}
          />
        </span>
      ) : (
        text
      ),
      onClick: lasting ? undefined : close,
    });
  });
}

/** Toasts for plain actions that run outside React components. */
export const notify = {
  success: (text: string) => show('success', text),
  error: (text: string) => show('error', text),
  warning: (text: string) => show('warning', text),
  info: (text: string) => show('info', text),
};
