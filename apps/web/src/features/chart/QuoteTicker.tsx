import { formatPrice } from '@ct/domain';
import { useEffect, useRef } from 'react';
import { messages } from '../../i18n/firstScreen';
import { useQuote } from '../../realtime/quotes';

/** Restarts the flash animation of an element in the direction a price moved. */
function useFlash(value: number | null | undefined) {
  const ref = useRef<HTMLElement>(null);
  const previous = useRef(value);
  useEffect(() => {
    const el = ref.current;
    const before = previous.current;
    previous.current = value;
    if (!el || value == null || before == null || value === before) return;
    el.classList.remove('flash-up', 'flash-down');
    void el.offsetWidth; // restart the animation
    el.classList.add(value > before ? 'flash-up' : 'flash-down');
  }, [value]);
  return ref;
}

/** A bid and an ask. */
export type TickerQuote = { bid: number; ask: number };

/**
 * Bid and ask of a symbol as the live feed (or the quote cache) gives them; during a bar
 * replay of the chart, the replay's price instead, marked "Replay" (the live quote is not
 * shown: the replay trades at its own price).
 */
export function QuoteTicker({
  symbol,
  tick,
  replay = null,
}: {
  symbol: string;
  tick: number;
  replay?: TickerQuote | null;
}) {
  const live = useQuote(symbol);
  const quote = replay ?? live;
  const bidRef = useFlash(quote?.bid);
  const askRef = useFlash(quote?.ask);
  const t = messages.chart;
  const sides = (
    <>
      <span className="quote-side quote-bid">
        <span className="quote-label">{t.bid}</span>
        <b ref={bidRef} className="quote-value" data-testid="quote-bid">
          {formatPrice(quote?.bid, tick)}
        </b>
      </span>
      <span className="quote-side quote-ask">
        <span className="quote-label">{t.ask}</span>
        <b ref={askRef} className="quote-value" data-testid="quote-ask">
          {formatPrice(quote?.ask, tick)}
        </b>
      </span>
    </>
  );
  if (!replay) {
    return (
      <div className="quote-ticker" data-source={live?.source ?? 'none'} title={t.liveQuoteHint}>
        {sides}
      </div>
    );
  }
  // the replay's price: tagged, bid over ask so the tag costs no width
  return (
    <div
      className="quote-ticker quote-ticker-replay"
      data-source="replay"
      title={t.replayQuoteHint}
    >
      <span className="quote-replay-tag">{t.replayQuote}</span>
      <span className="quote-sides">{sides}</span>
    </div>
  );
}
