/** Messages between the main window and child frames carry types with this prefix. */
export const FRAME_MESSAGE_PREFIX = 'cw_';

export type FrameMessage = { type: string; [key: string]: unknown };

/** True for a `cw_`-typed message; anything else on the window is not ours. */
export function isFrameMessage(data: unknown): data is FrameMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { type?: unknown }).type === 'string' &&
    (data as { type: string }).type.startsWith(FRAME_MESSAGE_PREFIX)
  );
}

export type FrameMessageHandler = (message: FrameMessage, event: MessageEvent) => void;

const handlers = new Map<string, FrameMessageHandler>();
let installed: ((event: MessageEvent) => void) | null = null;

/**
 * Registers the handler of one message type. The shared-state issue registers state
 * update, state request, action, ack, error and sync handlers here; until then no type is
 * handled and frame messages are ignored.
 */
export function registerFrameHandler(type: string, handler: FrameMessageHandler): () => void {
  handlers.set(type, handler);
  return () => {
    if (handlers.get(type) === handler) handlers.delete(type);
  };
}

/** Installs the one window `message` listener of the bridge (idempotent). */
export function installFrameBridge(): () => void {
  if (!installed) {
    installed = (event: MessageEvent) => {
      if (!isFrameMessage(event.data)) return;
      handlers.get(event.data.type)?.(event.data, event);
    };
    window.addEventListener('message', installed);
  }
  return uninstallFrameBridge;
}

export function uninstallFrameBridge(): void {
  if (installed) window.removeEventListener('message', installed);
  installed = null;
}

export function isFrameBridgeInstalled(): boolean {
  return installed !== null;
}
