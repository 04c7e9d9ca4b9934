import { describe, expect, it } from 'vitest';
import { measureReadout, measureText, sameReadout } from './readout';

const p = (index: number, price: number) => ({ time: 1_000_000 + index * 3600, price, index });

describe('the measuring tool readout', () => {
  it('gives the signed distance, percent, bars and time from A to B', () => {
    expect(measureText(p(0, 100), p(5, 101.5), 0.1)).toBe('+1.5 (+1.5000%) · 5 bars · 5h');
    expect(measureText(p(5, 101.5), p(0, 100), 0.1)).toBe('−1.5 (−1.4778%) · 5 bars · 5h');
  });

  it('sits at B kept inside the pane, and tells up from down', () => {
    const size = { width: 800, height: 400 };
    const r = measureReadout(p(0, 100), p(2, 99), { x: 900, y: -5 }, 0.1, size);
    expect(r).toMatchObject({ x: 800, y: 0, up: false });
    expect(measureReadout(p(0, 100), p(2, 100), { x: null, y: 50 }, 0.1, size)).toMatchObject({
      x: 0,
      y: 50,
      up: true,
    });
    expect(sameReadout(r, { ...r })).toBe(true);
    expect(sameReadout(null, r)).toBe(false);
  });
});
