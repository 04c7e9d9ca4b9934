import { z } from 'zod';
import { isChildFrame } from './connection';
import { registerFrameHandler } from './frameBridge';
import {
  FRAME_LIVE_ACTIONS,
  FRAME_LIVE_PRICE_KEY,
  ingestLiveMessage,
  onLiveMessages,
  watchSymbol,
} from './live';

const actionSchema = z.object({
  action: z.enum([FRAME_LIVE_ACTIONS.subscribe, FRAME_LIVE_ACTIONS.unsubscribe]),
  payload: z.object({ symbol: z.string().min(1).max(64) }),
});

const priceSchema = z.object({
  key: z.literal(FRAME_LIVE_PRICE_KEY),
  payload: z.object({ symbol: z.string(), message: z.unknown() }),
});

type Holding = { release: () => void; stop: () => void };

/**
 * Shares live prices with child frames, which never connect themselves (spec section 4).
 * The main window answers a frame's `cw_action` 'live/subscribe' by holding the symbol
 * for it and forwarding each live message as `cw_state_update` 'live/price';
 * 'live/unsubscribe' lets go. A child frame takes those updates into its own pipeline.
 * Only messages of our own origin count.
 */
export function shareLiveWithFrames(): () => void {
  const holdings = new Map<MessageEventSource, Map<string, Holding>>();
  const origin = window.location.origin;

  const letGo = (source: MessageEventSource, symbol: string) => {
    const bySymbol = holdings.get(source);
    const holding = bySymbol?.get(symbol);
    if (!bySymbol || !holding) return;
    holding.stop();
    holding.release();
    bySymbol.delete(symbol);
    if (bySymbol.size === 0) holdings.delete(source);
  };

  const stopActions = registerFrameHandler('cw_action', (message, event) => {
    if (event.origin !== origin || !event.source || isChildFrame()) return;
    const parsed = actionSchema.safeParse(message);
    if (!parsed.success) return;
    const source = event.source;
    const { symbol } = parsed.data.payload;
    if (parsed.data.action === FRAME_LIVE_ACTIONS.unsubscribe) {
      letGo(source, symbol);
      return;
    }
    let bySymbol = holdings.get(source);
    if (!bySymbol) holdings.set(source, (bySymbol = new Map()));
    if (bySymbol.has(symbol)) return;
    const stop = onLiveMessages(symbol, (live) => {
      if ((source as Window).closed) {
        letGo(source, symbol); // the frame went away without saying so
        return;
      }
      (source as Window).postMessage(
        { type: 'cw_state_update', key: FRAME_LIVE_PRICE_KEY, payload: { symbol, message: live } },
        origin,
      );
    });
    bySymbol.set(symbol, { release: watchSymbol(symbol), stop });
  });

  const stopUpdates = registerFrameHandler('cw_state_update', (message, event) => {
    if (event.origin !== origin || event.source !== window.parent || !isChildFrame()) return;
    const parsed = priceSchema.safeParse(message);
    if (parsed.success) ingestLiveMessage(parsed.data.payload.symbol, parsed.data.payload.message);
  });

  return () => {
    stopActions();
    stopUpdates();
    for (const [source, bySymbol] of holdings) {
      for (const symbol of [...bySymbol.keys()]) letGo(source, symbol);
    }
  };
}
