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

const handlers = new Map<string, Set<FrameMessageHandler>>();
let installed: ((event: MessageEvent) => void) | null = null;

/**
 * Registers a handler of one message type; several features may handle the same type
 * (each checks the message's own `action` or `key`). The shared-state issue registers
 * state update, state request, action, ack, error and sync handlers here; the live data
 * registers its `live/*` actions (see realtime/frameLive.ts).
 */
export function registerFrameHandler(type: string, handler: FrameMessageHandler): () => void {
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  set.add(handler);
  return () => {
    set.delete(handler);
    if (set.size === 0 && handlers.get(type) === set) handlers.delete(type);
  };
}

/** Installs the one window `message` listener of the bridge (idempotent). */
export function installFrameBridge(): () => void {
  if (!installed) {
    installed = (event: MessageEvent) => {
      if (!isFrameMessage(event.data)) return;
      for (const handler of handlers.get(event.data.type) ?? []) handler(event.data, event);
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
