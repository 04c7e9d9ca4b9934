import { z } from 'zod';
import { backtestRunAnswerSchema } from '../backtest/answers.ts';
import { MAX_SERVER_LOADED_BARS } from '../backtest/schemas.ts';
import { traderSchema } from '../identity/schemas.ts';

/**
 * The messages between the main window and its child frames (spec sections 4, 7 and 8):
 * every one is typed with the `cw_` prefix and carries a zod schema here, so both ends
 * parse what they receive and never act on a message of unknown shape.
 */
export const FRAME_MESSAGE_PREFIX = 'cw_';

/** The six message types of the frames protocol. */
export const FRAME_MESSAGE_TYPES = [
  'cw_state_update',
  'cw_state_request',
  'cw_action',
  'cw_ack',
  'cw_error',
  'cw_sync_all_state',
] as const;
export type FrameMessageType = (typeof FRAME_MESSAGE_TYPES)[number];

/** Timing of the protocol in ms (spec section 9). */
export const FRAME_TIMEOUTS = {
  /** A remote action without an answer is dropped after this long. */
  remoteActionMs: 10_000,
  /** A broadcast to the children waits this long for an answer by default. */
  broadcastMs: 3_000,
  /** Select broadcasts (those whose handler may wait on work or a person) wait this long. */
  selectBroadcastMs: 30_000,
  /** A child frame gives up its first full-state request after this long. */
  stateSyncMs: 5_000,
  /** A child frame asks for the full state this long after it starts. */
  stateSyncStartDelayMs: 100,
} as const;

/** The spec's texts of the protocol's refusals. */
export const FRAME_ERRORS = {
  notMyChart: 'Not my chart',
  stateSyncTimeout: 'State sync timeout',
  remoteActionTimeout: 'Remote action timed out',
  unknownAction: 'Unknown action',
  invalidPayload: 'Invalid payload',
  noHandler: 'No window handled the action',
} as const;

/** The shared actions (spec section 7) and the live subscription actions of frames. */
export const SHARED_ACTIONS = {
  createAITask: 'chartActions/createAITask',
  setEvents: 'chartActions/setEvents',
  runCode: 'chartActions/runCode',
  currentChart: 'monacoWorkflow/currentChart',
  liveSubscribe: 'live/subscribe',
  liveUnsubscribe: 'live/unsubscribe',
  /** A child frame going away (pagehide): the main window lets go of what it held for it. */
  frameLeave: 'frame/leave',
} as const;
export type SharedActionName = (typeof SHARED_ACTIONS)[keyof typeof SHARED_ACTIONS];

const id = z.string().min(1).max(128);
const name = z.string().min(1).max(128);
const symbol = z.string().min(1).max(64);
const clientId = z.string().min(1).max(128);

// ---- The six messages ----

/** One shared item changed in the sender's window (or a live price forwarded to a frame). */
export const stateUpdateMessageSchema = z.object({
  type: z.literal('cw_state_update'),
  key: name,
  payload: z.unknown(),
});

/** A child frame asks for the whole shared state; answered with `cw_sync_all_state`. */
export const stateRequestMessageSchema = z.object({
  type: z.literal('cw_state_request'),
  requestId: id,
});

/** An action for the other side to run; with an `id` it is answered by ack or error. */
export const actionMessageSchema = z.object({
  type: z.literal('cw_action'),
  action: name,
  payload: z.unknown(),
  id: id.optional(),
});

/** The result of an action with that id. */
export const ackMessageSchema = z.object({
  type: z.literal('cw_ack'),
  id,
  action: name,
  result: z.unknown(),
});

/** The refusal or failure of an action with that id. */
export const errorMessageSchema = z.object({
  type: z.literal('cw_error'),
  id,
  action: name,
  error: z.string().max(2000),
});

/** The whole shared state, answering a state request (or pushed after a reconnect). */
export const syncAllStateMessageSchema = z.object({
  type: z.literal('cw_sync_all_state'),
  requestId: id.optional(),
  state: z.record(z.string(), z.unknown()),
});

/** Any message of the frames protocol. */
export const frameMessageSchema = z.discriminatedUnion('type', [
  stateUpdateMessageSchema,
  stateRequestMessageSchema,
  actionMessageSchema,
  ackMessageSchema,
  errorMessageSchema,
  syncAllStateMessageSchema,
]);
export type FrameMessage = z.infer<typeof frameMessageSchema>;
export type StateUpdateMessage = z.infer<typeof stateUpdateMessageSchema>;
export type StateRequestMessage = z.infer<typeof stateRequestMessageSchema>;
export type ActionMessage = z.infer<typeof actionMessageSchema>;
export type AckMessage = z.infer<typeof ackMessageSchema>;
export type ErrorMessage = z.infer<typeof errorMessageSchema>;
export type SyncAllStateMessage = z.infer<typeof syncAllStateMessageSchema>;

// ---- Shared items (spec section 3: chart trade action and other shared items) ----

const throttleValue = z.object({
  priceUpdateDelay: z.number().int().min(0).max(60_000),
  chartDataUpdateDelay: z.number().int().min(0).max(60_000),
  maxDataPoints: z.number().int().min(1).max(100_000),
});

const batchValue = z.object({
  maxBatchSize: z.number().int().min(1).max(10_000),
  batchDelay: z.number().int().min(0).max(60_000),
  forceFlushInterval: z.number().int().min(1).max(60_000),
});

/** The value schema of every shared item, by its key. */
export const sharedStateSchemas = {
  activeChart: z.string().max(128).nullable(),
  chartTradeAction: z
    .object({ chartId: z.string().max(128), symbol, tradeAction: z.enum(['buy', 'sell']) })
    .nullable(),
  mobileModalVisible: z.boolean(),
  throttle: throttleValue,
  batch: batchValue,
  theme: z.enum(['light', 'dark']),
  account: z.object({
    userId: z.string().max(64).nullable(),
    userName: z.string().max(320).nullable(),
    currentTrader: traderSchema.nullable(),
  }),
  connectionStatus: z.enum(['disconnected', 'connecting', 'connected']),
} as const;
export type SharedStateKey = keyof typeof sharedStateSchemas;
export type SharedStateValue<K extends SharedStateKey> = z.infer<(typeof sharedStateSchemas)[K]>;
export const SHARED_STATE_KEYS = Object.keys(sharedStateSchemas) as SharedStateKey[];

/** True for a key of the shared state (a `cw_state_update` of another key is not state). */
export function isSharedStateKey(key: string): key is SharedStateKey {
  return Object.prototype.hasOwnProperty.call(sharedStateSchemas, key);
}

/** The live price a main window forwards to a frame (`cw_state_update` key 'live/price'). */
export const FRAME_LIVE_PRICE_KEY = 'live/price';
export const livePriceUpdatePayloadSchema = z.object({ symbol, message: z.unknown() });

/**
 * Lines of a backtest's log socket (/ws/{clientId}) the main window forwards to the frame
 * whose chart has that client id (`cw_state_update` key 'strategy/log'): frames open no
 * socket of their own. `state` is the main window's socket state.
 */
export const FRAME_LOG_KEY = 'strategy/log';
export const logRelayPayloadSchema = z.object({
  clientId,
  state: z.enum(['connecting', 'connected', 'disconnected']),
  lines: z.array(z.string().max(100_000)).max(10_000),
});
export type LogRelayPayload = z.infer<typeof logRelayPayloadSchema>;

// ---- Action payloads and results (spec section 7) ----

/** A chart event (a backtest marker): time epoch seconds. */
export const chartEventSchema = z.object({
  time: z.number().finite(),
  position: z.enum(['aboveBar', 'belowBar']),
  shape: z.enum(['arrowUp', 'arrowDown']),
  color: z.string().max(32),
  text: z.string().max(16),
});

/** What a shared action's handler answers: success, and a reason when it did not succeed. */
export const actionResultSchema = z
  .object({ success: z.boolean(), reason: z.string().max(2000).optional() })
  .loose();
export type ActionResult = z.infer<typeof actionResultSchema>;

/** The payload schema of each action, by name. */
export const sharedActionPayloadSchemas = {
  [SHARED_ACTIONS.createAITask]: z.object({
    clientId,
    prompt: z.string().min(1).max(1000),
    taskType: z.string().min(1).max(64),
  }),
  [SHARED_ACTIONS.setEvents]: z.object({
    clientId,
    symbol: symbol.optional(),
    events: z.array(chartEventSchema).max(10_000),
  }),
  [SHARED_ACTIONS.runCode]: z.object({
    clientId,
    code: z.string().min(1).max(200_000),
    symbolId: symbol,
    period: z.string().min(1).max(8).optional(),
    strategyName: z.string().min(1).max(128).optional(),
    /** The newest bars to run on (beyond the spec's fields: the editor's Bars field). */
    limit: z.number().int().min(1).max(MAX_SERVER_LOADED_BARS).optional(),
  }),
  [SHARED_ACTIONS.currentChart]: z.object({
    clientId,
    symbolId: symbol,
    defaultCode: z.string().max(200_000),
    /** The chart's period (beyond the spec's fields: AI tasks backtest on it). */
    period: z.string().min(1).max(8).optional(),
  }),
  [SHARED_ACTIONS.liveSubscribe]: z.object({ symbol }),
  [SHARED_ACTIONS.liveUnsubscribe]: z.object({ symbol }),
  [SHARED_ACTIONS.frameLeave]: z.object({}).loose(),
} as const;

/** The result schema of each action with a defined answer (spec: success and reason). */
export const sharedActionResultSchemas = {
  [SHARED_ACTIONS.createAITask]: actionResultSchema,
  [SHARED_ACTIONS.setEvents]: actionResultSchema,
  /** The run helper's answer (spec section 7: success, reason, data.performance/deals/error). */
  [SHARED_ACTIONS.runCode]: backtestRunAnswerSchema,
  [SHARED_ACTIONS.currentChart]: actionResultSchema,
} as const;

/** Actions answered by a chart of that client id only (others refuse: 'Not my chart'). */
export const CHART_ACTIONS: readonly string[] = [SHARED_ACTIONS.setEvents];

/** Broadcasts that wait the long time: their handler runs a backtest or an AI request. */
export const SELECT_BROADCAST_ACTIONS: readonly string[] = [
  SHARED_ACTIONS.runCode,
  SHARED_ACTIONS.createAITask,
];

/** How long a broadcast of `action` to the child frames waits for an answer, in ms. */
export function broadcastWaitMs(action: string): number {
  return SELECT_BROADCAST_ACTIONS.includes(action)
    ? FRAME_TIMEOUTS.selectBroadcastMs
    : FRAME_TIMEOUTS.broadcastMs;
}

/**
 * Whether a chart of client id `own` takes a chart action addressed to `target`: null when
 * it does, else the spec's refusal 'Not my chart'.
 */
export function chartActionRefusal(own: string, target: string): string | null {
  return own === target ? null : FRAME_ERRORS.notMyChart;
}

// ---- Reading what arrives on the window ----

/** What a window makes of a `message` event. */
export type ReceivedFrameMessage =
  | { kind: 'frame'; message: FrameMessage }
  | { kind: 'priceUpdate'; message: PriceUpdateMessage }
  /** From another origin: ignored and counted. */
  | { kind: 'foreignOrigin' }
  /** Ours by origin and prefix, but of no known shape: ignored and counted. */
  | { kind: 'malformed'; reason: string }
  /** Not a protocol message at all (other libraries' messages): ignored silently. */
  | { kind: 'other' };

function looksLikeOurs(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return (
    typeof type === 'string' && (type.startsWith(FRAME_MESSAGE_PREFIX) || type === PRICE_UPDATE)
  );
}

/**
 * Classifies a window message: only messages of the `accepted` origins (our own, and for a
 * child frame the allowed page that frames it) are heard, and of those only the protocol's
 * shapes. Messages of other origins that claim our prefix count as foreign; anything else
 * of another origin is not ours and is ignored silently as well.
 */
export function readFrameMessage(
  data: unknown,
  eventOrigin: string,
  accepted: string | readonly string[],
): ReceivedFrameMessage {
  const heard =
    typeof accepted === 'string' ? eventOrigin === accepted : accepted.includes(eventOrigin);
  if (!heard) return looksLikeOurs(data) ? { kind: 'foreignOrigin' } : { kind: 'other' };
  if (!looksLikeOurs(data)) return { kind: 'other' };
  if ((data as { type: string }).type === PRICE_UPDATE) {
    const parsed = priceUpdateMessageSchema.safeParse(data);
    return parsed.success
      ? { kind: 'priceUpdate', message: parsed.data }
      : { kind: 'malformed', reason: parsed.error.issues[0]?.message ?? 'invalid' };
  }
  const parsed = frameMessageSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      kind: 'malformed',
      reason: `${issue?.path.join('.') || 'message'}: ${issue?.message}`,
    };
  }
  return { kind: 'frame', message: parsed.data };
}

// ---- The performance page's PRICE_UPDATE ----

/** The message type the performance page posts to its embedded chart pages (section 7). */
export const PRICE_UPDATE = 'PRICE_UPDATE';

/** A price the performance page shows, posted to its embedded pages. */
export const priceUpdateMessageSchema = z.object({
  type: z.literal(PRICE_UPDATE),
  symbol,
  price: z.number().finite(),
  /** Epoch ms of the price. */
  time: z.number().finite(),
  /** True when the page simulated the price because no live price arrived. */
  simulated: z.boolean(),
});
export type PriceUpdateMessage = z.infer<typeof priceUpdateMessageSchema>;

// ---- Pending remote actions (time passed in) ----

/** A remote action waiting for its ack or error. */
export type PendingAction<T> = { id: string; action: string; sentAt: number; value: T };

/**
 * The actions a window sent and waits an answer for. Time is passed in: `expire(now)`
 * hands back those older than `timeoutMs` (spec: dropped after 10 s), which the caller
 * rejects with 'Remote action timed out'.
 */
export class PendingActions<T> {
  private readonly pending = new Map<string, PendingAction<T>>();

  constructor(private readonly timeoutMs: number = FRAME_TIMEOUTS.remoteActionMs) {}

  get size(): number {
    return this.pending.size;
  }

  add(id: string, action: string, now: number, value: T): void {
    this.pending.set(id, { id, action, sentAt: now, value });
  }

  /** Takes the pending action the answer `id` belongs to (undefined: unknown or dropped). */
  settle(id: string): PendingAction<T> | undefined {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    return entry;
  }

  /** Removes and returns the actions that have waited `timeoutMs` or longer at `now`. */
  expire(now: number): PendingAction<T>[] {
    const expired: PendingAction<T>[] = [];
    for (const entry of this.pending.values()) {
      if (now - entry.sentAt >= this.timeoutMs) expired.push(entry);
    }
    for (const entry of expired) this.pending.delete(entry.id);
    return expired;
  }

  /** When the next action expires (epoch ms), or null when none waits. */
  nextDeadline(): number | null {
    let next: number | null = null;
    for (const entry of this.pending.values()) {
      const at = entry.sentAt + this.timeoutMs;
      if (next === null || at < next) next = at;
    }
    return next;
  }

  clear(): PendingAction<T>[] {
    const all = [...this.pending.values()];
    this.pending.clear();
    return all;
  }
}
