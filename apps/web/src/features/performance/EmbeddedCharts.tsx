import { PRICE_UPDATE, type PriceUpdateMessage } from '@ct/domain';
import { Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { PriceSampler } from './sampler';
import { perfTest as messages } from '../../i18n/defaults/perfTest';

const labels = messages.perfTest;

/** The two chart pages embedded as child frames (spec section 2). */
export const EMBEDDED_SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;

/**
 * Two chart pages in child frames of this page. They take live prices from this window
 * over the frames bridge (they never connect themselves), and this page posts each sample
 * of their symbol to them as a PRICE_UPDATE message.
 */
export function EmbeddedCharts({ sampler }: { sampler: PriceSampler }) {
  const frames = useRef<(HTMLIFrameElement | null)[]>([]);
  const [sent, setSent] = useState(0);

  useEffect(() => {
    let count = 0;
    let shown = 0;
    const timer = setInterval(() => {
      if (shown !== count) setSent((shown = count));
    }, 1000);
    const stop = sampler.onSamples((samples) => {
      EMBEDDED_SYMBOLS.forEach((symbol, index) => {
        const target = frames.current[index]?.contentWindow;
        const sample = samples.find((s) => s.symbol === symbol);
        if (!target || !sample) return;
        const message: PriceUpdateMessage = {
          type: PRICE_UPDATE,
          symbol,
          price: sample.price,
          time: sample.time,
          simulated: sample.simulated,
        };
        target.postMessage(message, window.location.origin);
        count += 1;
      });
    });
    return () => {
      stop();
      clearInterval(timer);
    };
  }, [sampler]);

  return (
    <>
      <Typography.Paragraph type="secondary" className="perf-hint">
        {labels.embeddedHint} · <span className="num">{labels.priceUpdatesSent(sent)}</span>
      </Typography.Paragraph>
      <div className="perf-frames">
        {EMBEDDED_SYMBOLS.map((symbol, index) => (
          <iframe
            key={symbol}
            ref={(el) => {
              frames.current[index] = el;
            }}
            className="perf-frame"
            title={labels.embeddedTitle(symbol)}
            src={`/chart?instrumentId=${symbol}&frameId=perf-${index + 1}`}
          />
        ))}
      </div>
    </>
  );
}
