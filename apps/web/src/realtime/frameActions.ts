import {
  FRAME_ERRORS,
  FRAME_TIMEOUTS,
  PendingActions,
  SHARED_ACTIONS,
  broadcastWaitMs,
  chartActionRefusal,
  sharedActionPayloadSchemas,
  type ActionResult,
  type AckMessage,
  type ActionMessage,
  type ErrorMessage,
} from '@ct/domain';
import type { z } from 'zod';
import { isChildFrame } from './connection';
import { childFrames, frameStats, postFrameMessage, registerFrameHandler } from './frameBridge';
import { realTimers, type Timers } from './timers';

/** Thrown by a handler to refuse an action; the sender gets `cw_error` with the reason. */
export class SharedActionError extends Error {}

export type SharedActionContext = {
  /** The window that asked (null when the action was requested in this window). */
  source: MessageEventSource | null;
};

/** Runs a shared action in this window; resolves with the result the sender receives. */
export type SharedActionHandler = (
  payload: unknown,
  context: SharedActionContext,
) => unknown | Promise<unknown>;

/** What a chart offers to chart actions addressed to its client id. */
export type ChartActionTarget = {
  setEvents(events: unknown[], symbol: string | undefined): void;
};

type Waiter = {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** Set for a broadcast: the answers still expected, shared by the group's ids. */
  group?: BroadcastGroup;
};

type BroadcastGroup = {
  open: number;
  lastError: string | null;
  done: boolean;
  ids: string[];
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

let sequence = 0;
function newId(): string {
  sequence += 1;
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${sequence}`;
}

/**
 * The shared actions between frames (spec sections 4, 7 and 8). Handlers are registered
 * by name in the window that runs them; an action from another window arrives as
 * `cw_action` with an id and is answered with `cw_ack` (the result) or `cw_error` (the
 * reason). A request to the main window waits 10 s; a broadcast to the child frames waits
 * 3 s (30 s for select broadcasts) and settles with the first success.
 */
export class FrameActions {
  private readonly handlers = new Map<string, SharedActionHandler>();
  private readonly chartTargets = new Map<string, ChartActionTarget>();
  private readonly tables = new Map<number, PendingActions<Waiter>>();
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly timers: Timers = realTimers,
    private readonly makeId: () => string = newId,
  ) {
    this.handlers.set(SHARED_ACTIONS.setEvents, (payload, context) =>
      this.setEvents(payload, context),
    );
  }

  /** Starts answering actions of other windows (idempotent). */
  listen(): () => void {
    if (this.stopListening) return this.stopListening;
    const stops = [
      registerFrameHandler('cw_action', (message, event) => this.onAction(message, event)),
      registerFrameHandler('cw_ack', (message, event) => this.onAck(message, event)),
      registerFrameHandler('cw_error', (message, event) => this.onError(message, event)),
    ];
    this.stopListening = () => {
      for (const stop of stops) stop();
      this.stopListening = null;
    };
    return this.stopListening;
  }

  /** Registers the handler of a shared action in this window; returns the unregister. */
  register(name: string, handler: SharedActionHandler): () => void {
    this.handlers.set(name, handler);
    return () => {
      if (this.handlers.get(name) === handler) this.handlers.delete(name);
    };
  }

  has(name: string): boolean {
    return this.handlers.has(name);
  }

  /** A chart of this window takes chart actions addressed to its client id. */
  registerChart(clientId: string, target: ChartActionTarget): () => void {
    this.chartTargets.set(clientId, target);
    return () => {
      if (this.chartTargets.get(clientId) === target) this.chartTargets.delete(clientId);
    };
  }

  /** Runs an action's handler of this window, with its payload checked first. */
  async runLocal(name: string, payload: unknown, context: SharedActionContext): Promise<unknown> {
    const handler = this.handlers.get(name);
    if (!handler) throw new SharedActionError(`${FRAME_ERRORS.unknownAction}: ${name}`);
    const schema = (sharedActionPayloadSchemas as Record<string, z.ZodType>)[name];
    if (schema) {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        throw new SharedActionError(
          `${FRAME_ERRORS.invalidPayload}: ${parsed.error?.issues[0]?.message ?? ''}`.trim(),
        );
      }
    }
    return handler(payload, context);
  }

  /**
   * Runs a shared action where it belongs: in the main window itself, or from a child
   * frame by asking the main window (dropped with 'Remote action timed out' after 10 s).
   */
  request(name: string, payload: unknown): Promise<unknown> {
    if (!isChildFrame()) return this.runLocal(name, payload, { source: null });
    return this.send(window.parent, name, payload, FRAME_TIMEOUTS.remoteActionMs);
  }

  /** Sends an action to one window and waits `timeoutMs` for its answer. */
  send(target: Window, name: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.makeId();
      this.track(id, name, timeoutMs, { resolve, reject });
      postFrameMessage(target, { type: 'cw_action', id, action: name, payload });
    });
  }

  /**
   * Sends an action to every child frame (but `exclude`) and settles with the first
   * success; when all refused, with the last refusal; when none answered in time
   * (3 s, or 30 s for select broadcasts), with 'No window handled the action'.
   */
  broadcast(
    name: string,
    payload: unknown,
    options: { waitMs?: number; exclude?: MessageEventSource | null } = {},
  ): Promise<unknown> {
    const targets = childFrames().filter((frame) => frame !== options.exclude);
    if (targets.length === 0) return Promise.reject(new SharedActionError(FRAME_ERRORS.noHandler));
    const waitMs = options.waitMs ?? broadcastWaitMs(name);
    return new Promise((resolve, reject) => {
      const group: BroadcastGroup = { open: targets.length, lastError: null, done: false, ids: [] };
      for (const target of targets) {
        const id = this.makeId();
        group.ids.push(id);
        this.track(id, name, waitMs, { resolve, reject, group });
        postFrameMessage(target, { type: 'cw_action', id, action: name, payload });
      }
    });
  }

  /** Actions waiting for an answer (tests, monitoring). */
  pendingCount(): number {
    let count = 0;
    for (const table of this.tables.values()) count += table.size;
    return count;
  }

  /** Forgets every pending action and handler but the built-in ones (tests). */
  reset(): void {
    for (const table of this.tables.values()) table.clear();
    this.tables.clear();
    this.chartTargets.clear();
    for (const name of [...this.handlers.keys()]) {
      if (name !== SHARED_ACTIONS.setEvents) this.handlers.delete(name);
    }
  }

  // ---- internals ----

  private track(id: string, name: string, timeoutMs: number, waiter: Waiter): void {
    let table = this.tables.get(timeoutMs);
    if (!table) this.tables.set(timeoutMs, (table = new PendingActions<Waiter>(timeoutMs)));
    table.add(id, name, this.timers.now(), waiter);
    this.timers.setTimeout(() => this.expire(timeoutMs), timeoutMs);
  }

  private expire(timeoutMs: number): void {
    const table = this.tables.get(timeoutMs);
    if (!table) return;
    for (const entry of table.expire(this.timers.now())) {
      frameStats.timeouts += 1;
      const { group } = entry.value;
      if (group) {
        this.answer(entry.value, null, FRAME_ERRORS.noHandler, true);
      } else {
        entry.value.reject(new SharedActionError(FRAME_ERRORS.remoteActionTimeout));
      }
    }
  }

  private settle(id: string) {
    for (const table of this.tables.values()) {
      const entry = table.settle(id);
      if (entry) return entry;
    }
    return undefined;
  }

  /** Settles a waiter with a result (error null) or an error; a group needs all answers. */
  private answer(waiter: Waiter, result: unknown, error: string | null, timedOut = false): void {
    const { group } = waiter;
    if (!group) {
      if (error === null) waiter.resolve(result);
      else waiter.reject(new SharedActionError(error));
      return;
    }
    if (group.done) return;
    if (error === null) {
      group.done = true;
      for (const other of group.ids) this.settle(other);
      waiter.resolve(result);
      return;
    }
    if (!timedOut) group.lastError = error;
    group.open -= 1;
    if (group.open <= 0) {
      group.done = true;
      waiter.reject(new SharedActionError(group.lastError ?? error));
    }
  }

  private onAck(message: AckMessage, _event: MessageEvent): void {
    const entry = this.settle(message.id);
    if (!entry) return; // dropped after its timeout, or not ours
    frameStats.acks += 1;
    this.answer(entry.value, message.result, null);
  }

  private onError(message: ErrorMessage, _event: MessageEvent): void {
    const entry = this.settle(message.id);
    if (!entry) return;
    frameStats.errors += 1;
    this.answer(entry.value, null, message.error);
  }

  private onAction(message: ActionMessage, event: MessageEvent): void {
    // Without an id the action answers nothing (the live subscriptions: realtime/frameLive).
    if (message.id === undefined || !event.source) return;
    const fromParent = isChildFrame() && event.source === window.parent;
    const fromChild = childFrames().includes(event.source as Window);
    if (!fromParent && !fromChild) return; // only our own frames talk to us
    const { id, action } = message;
    const source = event.source;
    this.runLocal(action, message.payload, { source }).then(
      (result) => postFrameMessage(source, { type: 'cw_ack', id, action, result: result ?? null }),
      (error: unknown) =>
        postFrameMessage(source, { type: 'cw_error', id, action, error: messageOf(error) }),
    );
  }

  /**
   * chartActions/setEvents: a chart of this window with that client id takes the events;
   * the main window otherwise asks its child frames; else 'Not my chart'.
   */
  private async setEvents(payload: unknown, context: SharedActionContext): Promise<ActionResult> {
    const parsed = sharedActionPayloadSchemas[SHARED_ACTIONS.setEvents].parse(payload);
    for (const [clientId, target] of this.chartTargets) {
      if (chartActionRefusal(clientId, parsed.clientId) === null) {
        target.setEvents(parsed.events, parsed.symbol);
        return { success: true };
      }
    }
    if (!isChildFrame() && childFrames().some((frame) => frame !== context.source)) {
      try {
        const result = await this.broadcast(SHARED_ACTIONS.setEvents, payload, {
          exclude: context.source,
        });
        return result as ActionResult;
      } catch (error) {
        if (messageOf(error) !== FRAME_ERRORS.noHandler) throw error;
      }
    }
    throw new SharedActionError(FRAME_ERRORS.notMyChart);
  }
}

/** The window's one action hub. */
export const frameActions = new FrameActions();

/** Registers a shared action's handler in this window (the main window, for most). */
export function registerSharedAction(name: string, handler: SharedActionHandler): () => void {
  return frameActions.register(name, handler);
}

/** Runs a shared action in the main window, from wherever this window is. */
export function requestSharedAction(name: string, payload: unknown): Promise<unknown> {
  return frameActions.request(name, payload);
}

/** A chart takes chart actions (setEvents) addressed to its client id. */
export function registerChartActionTarget(clientId: string, target: ChartActionTarget): () => void {
  return frameActions.registerChart(clientId, target);
}

function readFrameId(): string {
  try {
    const asked = new URLSearchParams(window.location.search).get('frameId');
    if (asked && /^[\w.-]{1,64}$/.test(asked)) return asked;
  } catch {
    // no location (tests): fall through
  }
  return `frame-${Math.random().toString(36).slice(2, 10)}`;
}

let frameId: string | null = null;

/**
 * The client id chart actions address a chart by: its chart id in the main window, and
 * `{frameId}:{chartId}` in a child frame (the `frameId` query parameter, else random), so
 * two frames showing the chart page are told apart.
 */
export function chartClientId(chartId: string): string {
  if (!isChildFrame()) return chartId;
  frameId ??= readFrameId();
  return `${frameId}:${chartId}`;
}
