import {
  FRAME_MESSAGE_PREFIX,
  readFrameMessage,
  type FrameMessage,
  type FrameMessageType,
  type PriceUpdateMessage,
} from '@ct/domain';
import { isChildFrame } from './connection';

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
  /** Messages claiming our protocol from an origin not heard: never acted on. */
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

// ---- Origins: ours, and the pages FRAME_ANCESTORS allows to frame ours ----

/**
 * The `<meta>` the server puts in index.html with the FRAME_ANCESTORS origins (server
 * http/static.ts): the CSP forbids inline scripts, so the list comes as page data.
 */
export const FRAME_ANCESTORS_META = 'ct-frame-ancestors';

let embedders: readonly string[] | null = null;
let parentOriginFound: string | null | undefined;

function originOf(text: string | null | undefined): string | null {
  if (!text) return null;
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The origins besides ours whose pages may frame this page and talk the protocol with it
 * (FRAME_ANCESTORS, read once from the page's `<meta>`; none without it).
 */
export function allowedEmbedders(): readonly string[] {
  if (embedders) return embedders;
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${FRAME_ANCESTORS_META}"]`);
  const own = window.location.origin;
  embedders = (meta?.content ?? '')
    .split(/[\s,]+/)
    .filter((text) => text !== '' && originOf(text) === text && text !== own);
  return embedders;
}

/** Reads the allowed embedders and the parent's origin again (tests). */
export function resetFrameOrigins(): void {
  embedders = null;
  parentOriginFound = undefined;
}

/**
 * The origin of the page framing this one when it can be known and is heard (ours or an
 * allowed embedder): the browser's ancestor origins (Chromium, Safari), else the referrer
 * of the frame's document; null when neither says.
 */
function parentOrigin(): string | null {
  if (parentOriginFound !== undefined) return parentOriginFound;
  const own = window.location.origin;
  const heard = (origin: string | null) =>
    origin !== null && (origin === own || allowedEmbedders().includes(origin));
  // ancestorOrigins: not in Firefox (nor jsdom)
  const { ancestorOrigins } = window.location as { ancestorOrigins?: DOMStringList };
  const ancestor = originOf(ancestorOrigins?.[0]);
  const referrer = originOf(document.referrer);
  parentOriginFound = heard(ancestor) ? ancestor : heard(referrer) ? referrer : null;
  return parentOriginFound;
}

/**
 * The origins whose messages this window hears from `source`: our own always; in a child
 * frame, from its parent, also the allowed embedders (a page of theirs frames ours).
 */
function heardOrigins(source: MessageEventSource | null): readonly string[] {
  const own = window.location.origin;
  if (source === null || source !== window.parent || !isChildFrame()) return [own];
  return [own, ...allowedEmbedders()];
}

/** Whether a window message comes from an origin this window hears from its sender. */
export function isHeardOrigin(event: MessageEvent): boolean {
  return heardOrigins(event.source).includes(event.origin);
}

/**
 * The origins a message to `target` is addressed to (postMessage delivers it only to a
 * window of that origin): our own for the frames of this window (frame-src 'self'); for
 * the parent of a child frame with allowed embedders, the parent's origin, or when it
 * cannot be known each heard origin (only the one that matches receives it).
 */
function targetOrigins(target: MessageEventSource | Window): readonly string[] {
  const own = window.location.origin;
  if (target !== window.parent || !isChildFrame() || allowedEmbedders().length === 0) return [own];
  const parent = parentOrigin();
  return parent !== null ? [parent] : [own, ...allowedEmbedders()];
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
 * checks the message's own `action` or `key`). Handlers receive parsed messages of heard
 * origins only: our own, and in a child frame its allowed embedder parent's.
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
  const read = readFrameMessage(event.data, event.origin, heardOrigins(event.source));
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

/**
 * Posts a protocol message to another window (counted): a frame of ours, or the parent,
 * of our origin or an allowed embedder's (targetOrigins).
 */
export function postFrameMessage(target: MessageEventSource | Window, message: FrameMessage): void {
  try {
    for (const origin of targetOrigins(target)) (target as Window).postMessage(message, origin);
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
