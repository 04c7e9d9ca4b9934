import { formatLots, formatPrice, type ReplayFillView } from '@ct/domain';
import { replay as messages } from '../../i18n/defaults/replay';
import type { ChartMarker } from '../../shared/chartMarkers';

const m = messages.replay;

/** The replay's own colours: teal for the trader's fills, violet for the strategy's. */
export const REPLAY_COLOR = '#13a8a8';
export const REPLAY_STRATEGY_COLOR = '#9254de';

/** The session's fills as markers with their tip at the fill price. */
export function replayMarkers(fills: readonly ReplayFillView[], tick: number): ChartMarker[] {
  return fills.map((fill) => {
    // a close trades the other way: a buy position is closed by a sell
    const buying = (fill.side === 'buy') === (fill.action === 'open');
    const side = buying ? 'buy' : 'sell';
    const volume = formatLots(fill.volume);
    const price = formatPrice(fill.price, tick);
    return {
      time: fill.time,
      shape: buying ? 'arrowUp' : 'arrowDown',
      position: buying ? 'atPriceBottom' : 'atPriceTop',
      price: fill.price,
      color: fill.source === 'strategy' ? REPLAY_STRATEGY_COLOR : REPLAY_COLOR,
      text: m.marker(m.side(side), volume),
      short: m.markerShort(side, fill.source === 'strategy'),
      detail: m.markerDetail(fill.action, m.side(side), volume, price),
    };
  });
}
