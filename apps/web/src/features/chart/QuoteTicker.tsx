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

/** Bid and ask of a symbol as the live feed (or the quote cache) gives them. */
export function QuoteTicker({ symbol, tick }: { symbol: string; tick: number }) {
  const quote = useQuote(symbol);
  const bidRef = useFlash(quote?.bid);
  const askRef = useFlash(quote?.ask);
  return (
    <div className="quote-ticker" data-source={quote?.source ?? 'none'}>
      <span className="quote-side quote-bid">
        <span className="quote-label">{messages.chart.bid}</span>
        <b ref={bidRef} className="quote-value" data-testid="quote-bid">
          {formatPrice(quote?.bid, tick)}
        </b>
      </span>
      <span className="quote-side quote-ask">
        <span className="quote-label">{messages.chart.ask}</span>
        <b ref={askRef} className="quote-value" data-testid="quote-ask">
          {formatPrice(quote?.ask, tick)}
        </b>
      </span>
    </div>
  );
}
