import { describe, expect, it } from 'vitest';
import { layoutMarkers, type ChartMarker } from './chartMarkers';

const UP = '#26a69a';
const LIVE = '#9254de';

const buy = (time: number, price: number, text = 'Buy 1', color = UP): ChartMarker => ({
  time,
  position: 'atPriceTop',
  price,
  shape: 'arrowUp',
  color,
  text,
  short: color === LIVE ? 'LB' : 'B',
});

const sell = (time: number, price: number, text = 'Sell 1', color = UP): ChartMarker => ({
  time,
  position: 'atPriceBottom',
  price,
  shape: 'arrowDown',
  color,
  text,
  short: color === LIVE ? 'LS' : 'S',
});

const deal = (time: number, text: 'OB' | 'OS' | 'CS' | 'CB'): ChartMarker => {
  const up = text === 'OB' || text === 'CB';
  return {
    time,
    position: up ? 'belowBar' : 'aboveBar',
    shape: up ? 'arrowUp' : 'arrowDown',
    color: up ? UP : '#ef5350',
    text,
  };
};

/** Bars one minute apart from t = 0. */
const minuteBars = (time: number) => time / 60;

describe('chart markers as drawn', () => {
  it('keeps markers apart from one another with their full labels when there is room', () => {
    const drawn = layoutMarkers([buy(0, 10), sell(600, 11)], minuteBars, 7);
    expect(drawn.map((m) => [m.text, m.members.length])).toEqual([
      ['Buy 1', 1],
      ['Sell 1', 1],
    ]);
    expect(new Set(drawn.map((m) => m.id)).size).toBe(2);
  });

  it('merges the markers of one bar, side and colour into one with a count', () => {
    const drawn = layoutMarkers(
      [buy(60, 10.2), buy(60, 10.1, 'Buy 2'), buy(60, 10.3), sell(60, 10.4), sell(60, 10.5)],
      minuteBars,
      7,
    );
    expect(drawn.map((m) => m.text)).toEqual(['B ×3', 'S ×2']);
    // the up arrow under the lowest buy, the down arrow over the highest sell
    expect(drawn.map((m) => ('price' in m ? m.price : null))).toEqual([10.1, 10.5]);
    expect(drawn[0]!.members.map((m) => m.text)).toEqual(['Buy 1', 'Buy 2', 'Buy 1']);
  });

  it('keeps a live run’s fills and the trader’s own apart (their colours differ)', () => {
    const drawn = layoutMarkers(
      [buy(60, 10, 'Live Buy 1', LIVE), buy(60, 10, 'Live Buy 1', LIVE), buy(60, 10)],
      minuteBars,
      7,
    );
    expect(drawn.map((m) => m.text).sort()).toEqual(['Buy 1', 'LB ×2']);
  });

  it('shortens labels when neighbouring bars crowd them, then leaves the arrow alone', () => {
    const live = (t: number) => buy(t, 10, 'Live Buy 1', LIVE);
    // 3 bars of 7 px apart: 17 px of room, 'Live Buy 1' needs 70
    expect(layoutMarkers([live(0), live(180)], minuteBars, 7).map((m) => m.text)).toEqual([
      'LB',
      'LB',
    ]);
    // next bars at 4 px: not even 'LB' fits
    expect(layoutMarkers([live(0), live(60)], minuteBars, 4).map((m) => m.text)).toEqual(['', '']);
    // zoomed in, the same markers have their full labels again
    expect(layoutMarkers([live(0), live(60)], minuteBars, 80).map((m) => m.text)).toEqual([
      'Live Buy 1',
      'Live Buy 1',
    ]);
  });

  it('a merged marker crowded keeps its count', () => {
    const drawn = layoutMarkers([buy(0, 10), buy(0, 10), buy(120, 10)], minuteBars, 12);
    expect(drawn.map((m) => m.text)).toEqual(['×2', 'B']);
  });

  it('labels above the bars do not crowd labels below them', () => {
    const drawn = layoutMarkers([buy(0, 10), sell(60, 11)], minuteBars, 7);
    expect(drawn.map((m) => m.text)).toEqual(['Buy 1', 'Sell 1']);
  });

  it('keeps the backtest labels of the spec: OB/OS for opens, CS/CB for closes', () => {
    const spaced = layoutMarkers(
      [deal(0, 'OB'), deal(600, 'CS'), deal(1200, 'OS'), deal(1800, 'CB')],
      minuteBars,
      7,
    );
    expect(spaced.map((m) => m.text)).toEqual(['OB', 'CS', 'OS', 'CB']);
    // an open and a close of one bar on the same side: one arrow naming both
    const sameBar = layoutMarkers([deal(0, 'CB'), deal(0, 'OB')], minuteBars, 7);
    expect(sameBar.map((m) => m.text)).toEqual(['CB/OB ×2']);
  });

  it('measures a marker outside the loaded bars against nothing', () => {
    const drawn = layoutMarkers([buy(0, 10), buy(60, 10)], (t) => (t === 0 ? null : 1), 2);
    expect(drawn.map((m) => m.text)).toEqual(['Buy 1', 'Buy 1']);
  });
});
