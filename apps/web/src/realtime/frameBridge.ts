import {
  FRAME_MESSAGE_PREFIX,
  readFrameMessage,
  type FrameMessage,
  type FrameMessageType,
  type PriceUpdateMessage,
} from '@ct/domain';

export { FRAME_MESSAGE_PREFIX };
export type { FrameMessage };

/** True for a `cw_`-typed message; anything else on the window is not ours. */
export function isFrameMessage(data: unknown): data is { type: string } {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { type?: unknown }).type === 'string' &&
    (data as { type: string }).type.startsWith(FRAME_MESSAGE_PREFIX)
  );
}

/**
 * Counters of the bridge for the monitoring panel: what was heard, sent and ignored.
 * Read them by polling; they are not reactive.
 */
export const frameStats = {
  received: 0,
  sent: 0,
  /** Messages claiming our protocol from another origin: never acted on. */
  foreignOrigin: 0,
  /** Messages of our origin and prefix of no known shape: never acted on. */
  malformed: 0,
  priceUpdates: 0,
  acks: 0,
  errors: 0,
  timeouts: 0,
};

export function resetFrameStats(): void {
  for (const key of Object.keys(frameStats) as (keyof typeof frameStats)[]) frameStats[key] = 0;
}

type MessageOf<T extends FrameMessageType> = Extract<FrameMessage, { type: T }>;
export type FrameMessageHandler<T extends FrameMessageType = FrameMessageType> = (
  message: MessageOf<T>,
  event: MessageEvent,
) => void;
export type PriceUpdateHandler = (message: PriceUpdateMessage, event: MessageEvent) => void;

const handlers = new Map<string, Set<FrameMessageHandler>>();
const priceUpdateHandlers = new Set<PriceUpdateHandler>();
let installed: ((event: MessageEvent) => void) | null = null;

/**
 * Registers a handler of one message type; several parts may handle the same type (each
 * checks the message's own `action` or `key`). Handlers receive parsed messages of our own
 * origin only.
 */
export function registerFrameHandler<T extends FrameMessageType>(
  type: T,
  handler: FrameMessageHandler<T>,
): () => void {
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  const general = handler as unknown as FrameMessageHandler;
  set.add(general);
  return () => {
    set.delete(general);
    if (set.size === 0 && handlers.get(type) === set) handlers.delete(type);
  };
}

/** Registers a handler of the performance page's PRICE_UPDATE messages. */
export function onPriceUpdateMessage(handler: PriceUpdateHandler): () => void {
  priceUpdateHandlers.add(handler);
  return () => priceUpdateHandlers.delete(handler);
}

/** The bridge's reading of one window message (exported for tests). */
export function dispatchWindowMessage(event: MessageEvent): void {
  const read = readFrameMessage(event.data, event.origin, window.location.origin);
  switch (read.kind) {
    case 'other':
      return;
    case 'foreignOrigin':
      frameStats.foreignOrigin += 1;
      return;
    case 'malformed':
      frameStats.malformed += 1;
      return;
    case 'priceUpdate':
      frameStats.priceUpdates += 1;
      for (const handler of [...priceUpdateHandlers]) handler(read.message, event);
      return;
    case 'frame':
      frameStats.received += 1;
      for (const handler of [...(handlers.get(read.message.type) ?? [])]) {
        handler(read.message, event);
      }
  }
}

/** Installs the one window `message` listener of the bridge (idempotent). */
export function installFrameBridge(): () => void {
  if (!installed) {
    installed = dispatchWindowMessage;
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

/** Posts a protocol message to another window of our origin (counted). */
export function postFrameMessage(target: MessageEventSource | Window, message: FrameMessage): void {
  try {
    (target as Window).postMessage(message, window.location.origin);
    frameStats.sent += 1;
  } catch (error) {
    console.warn('Could not post to the other window', error);
  }
}

/** The child frames of this window (same-origin or not: postMessage picks by origin). */
export function childFrames(): Window[] {
  const frames: Window[] = [];
  for (let i = 0; i < window.frames.length; i += 1) {
    const frame = window.frames[i];
    if (frame) frames.push(frame);
  }
  return frames;
}
