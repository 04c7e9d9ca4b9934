import { FRAME_LIVE_PRICE_KEY, livePriceUpdatePayloadSchema, SHARED_ACTIONS } from '@ct/domain';
import { z } from 'zod';
import { isChildFrame } from './connection';
import { childFrames, isHeardOrigin, postFrameMessage, registerFrameHandler } from './frameBridge';
import { ingestLiveMessage, onLiveMessages, watchSymbol } from './live';

const actionSchema = z.object({
  action: z.enum([SHARED_ACTIONS.liveSubscribe, SHARED_ACTIONS.liveUnsubscribe]),
  payload: z.object({ symbol: z.string().min(1).max(64) }),
});

type Holding = { release: () => void; stop: () => void };

/**
 * Shares live prices with child frames, which never connect themselves (spec section 4).
 * The main window answers a frame's `cw_action` 'live/subscribe' by holding the symbol
 * for it and forwarding each live message as `cw_state_update` 'live/price';
 * 'live/unsubscribe' lets go. A child frame takes those updates into its own pipeline.
 * Only messages of our own origin count, and only from frames of this window (a child also
 * hears its parent of an allowed embedder origin, realtime/frameBridge). A frame that
 * unloads says 'frame/leave'; one removed without a word is let go at its next message.
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

  const letGoAll = (source: MessageEventSource) => {
    for (const symbol of [...(holdings.get(source)?.keys() ?? [])]) letGo(source, symbol);
  };

  const stopActions = registerFrameHandler('cw_action', (message, event) => {
    if (event.origin !== origin || !event.source || isChildFrame()) return;
    if (message.action === SHARED_ACTIONS.frameLeave) {
      letGoAll(event.source); // the frame unloads: it holds nothing any more
      return;
    }
    if (!childFrames().includes(event.source as Window)) return; // not a frame of ours
    const parsed = actionSchema.safeParse(message);
    if (!parsed.success) return;
    const source = event.source;
    const { symbol } = parsed.data.payload;
    if (parsed.data.action === SHARED_ACTIONS.liveUnsubscribe) {
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
      postFrameMessage(source, {
        type: 'cw_state_update',
        key: FRAME_LIVE_PRICE_KEY,
        payload: { symbol, message: live },
      });
    });
    bySymbol.set(symbol, { release: watchSymbol(symbol), stop });
  });

  const stopUpdates = registerFrameHandler('cw_state_update', (message, event) => {
    if (!isHeardOrigin(event) || event.source !== window.parent || !isChildFrame()) return;
    if (message.key !== FRAME_LIVE_PRICE_KEY) return;
    const parsed = livePriceUpdatePayloadSchema.safeParse(message.payload);
    if (parsed.success) ingestLiveMessage(parsed.data.symbol, parsed.data.message);
  });

  return () => {
    stopActions();
    stopUpdates();
    for (const source of [...holdings.keys()]) letGoAll(source);
  };
}
