import { describe, expect, it } from 'vitest';
import { legendParts, legendWidth, type LegendTexts } from './legendLayout';

const btc: LegendTexts = {
  title: 'BTCUSDT · 1m',
  badges: [],
  openHighLow: ['O 71333.3', 'H 71338.3', 'L 71253.7'],
  close: 'C 71292.8',
  change: '−0.06%',
  volume: 'V 19',
};

describe('legendParts', () => {
  it('shows everything in a wide chart and when the width is not known', () => {
    const all = { title: true, badgeText: true, openHighLow: true, change: true, volume: true };
    expect(legendParts(900, btc)).toEqual(all);
    expect(legendParts(null, btc)).toEqual(all);
  });

  it('drops volume, then the title, then open/high/low, then the change as it narrows', () => {
    const shown = (width: number) => {
      const p = legendParts(width, btc);
      return [
        p.title && 'title',
        p.openHighLow && 'ohl',
        'close',
        p.change && 'change',
        p.volume && 'volume',
      ].filter(Boolean);
    };
    expect(shown(480)).toEqual(['title', 'ohl', 'close', 'change', 'volume']);
    expect(shown(440)).toEqual(['title', 'ohl', 'close', 'change']);
    expect(shown(350)).toEqual(['ohl', 'close', 'change']);
    // A chart of the 4-chart layout at 1024 px leaves about 200 px.
    expect(shown(200)).toEqual(['close', 'change']);
    expect(shown(100)).toEqual(['close']);
    expect(shown(10)).toEqual(['close']);
  });

  it('never picks parts wider than the room it has, unless only the close is left', () => {
    for (let width = 60; width <= 600; width += 7) {
      const parts = legendParts(width, btc);
      if (parts.openHighLow || parts.change) {
        expect(legendWidth(btc, parts), `at ${width}`).toBeLessThanOrEqual(width);
      }
    }
  });

  it('shows badges as icons before dropping values', () => {
    const closed = { ...btc, badges: ['Market closed'] };
    const full = legendParts(900, closed);
    expect(full.badgeText).toBe(true);
    const narrower = legendParts(legendWidth(closed, full) - 1, closed);
    expect(narrower).toMatchObject({ badgeText: false, volume: true, openHighLow: true });
  });
});
