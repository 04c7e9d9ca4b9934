import {
  FRAME_ERRORS,
  FRAME_TIMEOUTS,
  isSharedStateKey,
  sharedStateSchemas,
  type SharedStateKey,
  type SharedStateValue,
  type StateRequestMessage,
  type StateUpdateMessage,
  type SyncAllStateMessage,
} from '@ct/domain';
import { create } from 'zustand';
import { isChildFrame } from './connection';
import { childFrames, postFrameMessage, registerFrameHandler } from './frameBridge';
import { realTimers, type Timers } from './timers';

/** How a window's store takes part in the shared state. */
export type SharedStateAdapter<K extends SharedStateKey> = {
  get(): SharedStateValue<K>;
  /** Applies a value another window sent. */
  set(value: SharedStateValue<K>): void;
  /** Calls `listener` when the value may have changed; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Only the main window's value counts (the live connection status): frames never send it. */
  mainOnly?: boolean;
};

export type FrameSyncStatus =
  /** The main window: it holds the state and answers requests. */
  | 'main'
  /** A child frame before its first request (100 ms start delay). */
  | 'waiting'
  | 'syncing'
  | 'synced'
  /** A child frame without an answer within 5 s: not inside our main window. */
  | 'timeout';

export const useFrameSyncStore = create<{ status: FrameSyncStatus; error: string | null }>(() => ({
  status: 'main',
  error: null,
}));

type AnyAdapter = SharedStateAdapter<SharedStateKey>;

/**
 * The shared items of spec section 3 (active chart, chart trade action, mobile modal
 * visibility, throttle and batch settings, theme, current trading account, live connection
 * status) kept equal in the main window and its child frames. A child asks for the whole
 * state 100 ms after it starts ('State sync timeout' after 5 s) and then follows updates;
 * a change in any window goes to the main window, which applies it and passes it on to
 * every other frame.
 */
export class SharedState {
  private readonly adapters = new Map<SharedStateKey, AnyAdapter>();
  private readonly unsubscribes = new Map<SharedStateKey, () => void>();
  /** The JSON of each key's value as last sent or applied: the echo guard. */
  private readonly known = new Map<SharedStateKey, string>();
  private applying = false;
  private stops: (() => void)[] = [];
  private requestId: string | null = null;
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly timers: Timers = realTimers) {}

  register<K extends SharedStateKey>(key: K, adapter: SharedStateAdapter<K>): () => void {
    this.unsubscribes.get(key)?.();
    this.adapters.set(key, adapter as unknown as AnyAdapter);
    this.known.set(key, JSON.stringify(adapter.get()));
    this.unsubscribes.set(
      key,
      adapter.subscribe(() => this.changed(key)),
    );
    return () => {
      if (this.adapters.get(key) !== (adapter as unknown as AnyAdapter)) return;
      this.unsubscribes.get(key)?.();
      this.unsubscribes.delete(key);
      this.adapters.delete(key);
      this.known.delete(key);
    };
  }

  /** Every registered item's current value. */
  snapshot(): Record<string, unknown> {
    const state: Record<string, unknown> = {};
    for (const [key, adapter] of this.adapters) state[key] = adapter.get();
    return state;
  }

  /**
   * Starts sharing: the main window answers requests and passes updates on; a child frame
   * asks for the full state after the start delay. Idempotent.
   */
  start(): () => void {
    if (this.stops.length > 0) return () => this.stop();
    this.stops = [
      registerFrameHandler('cw_state_request', (m, e) => this.onRequest(m, e)),
      registerFrameHandler('cw_state_update', (m, e) => this.onUpdate(m, e)),
      registerFrameHandler('cw_sync_all_state', (m, e) => this.onSyncAll(m, e)),
    ];
    if (isChildFrame()) {
      useFrameSyncStore.setState({ status: 'waiting', error: null });
      this.startTimer = this.timers.setTimeout(
        () => this.requestAll(),
        FRAME_TIMEOUTS.stateSyncStartDelayMs,
      );
    } else {
      useFrameSyncStore.setState({ status: 'main', error: null });
    }
    return () => this.stop();
  }

  stop(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
    if (this.startTimer !== null) this.timers.clearTimeout(this.startTimer);
    if (this.syncTimer !== null) this.timers.clearTimeout(this.syncTimer);
    this.startTimer = null;
    this.syncTimer = null;
    this.requestId = null;
  }

  /** Forgets every registration (tests). */
  reset(): void {
    this.stop();
    for (const unsubscribe of this.unsubscribes.values()) unsubscribe();
    this.unsubscribes.clear();
    this.adapters.clear();
    this.known.clear();
  }

  /** A child frame asks the main window for the whole state (also to retry after a timeout). */
  requestAll(): void {
    this.startTimer = null;
    if (!isChildFrame()) return;
    this.requestId = `sync-${this.timers.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    useFrameSyncStore.setState({ status: 'syncing', error: null });
    postFrameMessage(window.parent, { type: 'cw_state_request', requestId: this.requestId });
    if (this.syncTimer !== null) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = this.timers.setTimeout(() => {
      this.syncTimer = null;
      this.requestId = null;
      useFrameSyncStore.setState({ status: 'timeout', error: FRAME_ERRORS.stateSyncTimeout });
    }, FRAME_TIMEOUTS.stateSyncMs);
  }

  // ---- internals ----

  private changed(key: SharedStateKey): void {
    if (this.applying) return;
    const adapter = this.adapters.get(key);
    if (!adapter || this.stops.length === 0) return;
    const value = adapter.get();
    const json = JSON.stringify(value);
    if (json === this.known.get(key)) return;
    this.known.set(key, json);
    const message: StateUpdateMessage = { type: 'cw_state_update', key, payload: value };
    if (isChildFrame()) {
      if (!adapter.mainOnly) postFrameMessage(window.parent, message);
    } else {
      for (const frame of childFrames()) postFrameMessage(frame, message);
    }
  }

  /** Applies a value another window sent; false when it is not a valid value of the key. */
  private apply(key: string, payload: unknown): boolean {
    if (!isSharedStateKey(key)) return false;
    const adapter = this.adapters.get(key);
    if (!adapter) return false;
    const parsed = sharedStateSchemas[key].safeParse(payload);
    if (!parsed.success) return false;
    const json = JSON.stringify(parsed.data);
    this.known.set(key, json);
    if (JSON.stringify(adapter.get()) === json) return true;
    this.applying = true;
    try {
      adapter.set(parsed.data as never);
    } finally {
      this.applying = false;
    }
    return true;
  }

  private onRequest(message: StateRequestMessage, event: MessageEvent): void {
    if (isChildFrame() || !event.source || !childFrames().includes(event.source as Window)) return;
    postFrameMessage(event.source, {
      type: 'cw_sync_all_state',
      requestId: message.requestId,
      state: this.snapshot(),
    });
  }

  private onUpdate(message: StateUpdateMessage, event: MessageEvent): void {
    if (!isSharedStateKey(message.key)) return; // e.g. 'live/price' (realtime/frameLive)
    if (isChildFrame()) {
      if (event.source !== window.parent) return;
      this.apply(message.key, message.payload);
      return;
    }
    const source = event.source;
    if (!source || !childFrames().includes(source as Window)) return;
    if (this.adapters.get(message.key)?.mainOnly) return;
    if (!this.apply(message.key, message.payload)) return;
    // the main window passes a frame's change on to the other frames
    for (const frame of childFrames()) {
      if (frame !== source) postFrameMessage(frame, message);
    }
  }

  private onSyncAll(message: SyncAllStateMessage, event: MessageEvent): void {
    if (!isChildFrame() || event.source !== window.parent) return;
    if (message.requestId !== undefined && message.requestId !== this.requestId) return;
    if (this.syncTimer !== null) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = null;
    this.requestId = null;
    for (const [key, value] of Object.entries(message.state)) this.apply(key, value);
    useFrameSyncStore.setState({ status: 'synced', error: null });
  }
}

/** The window's one shared state. */
export const sharedState = new SharedState();

/** Registers a store as a shared item of this window; returns the unregister. */
export function registerSharedState<K extends SharedStateKey>(
  key: K,
  adapter: SharedStateAdapter<K>,
): () => void {
  return sharedState.register(key, adapter);
}
