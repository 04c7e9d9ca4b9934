import { describe, expect, it } from 'vitest';
import { figureChartOptions, type ChartColors } from './chartTheme';

const colors: ChartColors = {
  background: '#fff',
  text: '#333',
  grid: '#eee',
  border: '#ddd',
  crosshair: '#999',
  crosshairLabel: '#666',
  up: '#0a0',
  down: '#a00',
  volumeUp: '#0a07',
  volumeDown: '#a007',
  line: '#00f',
  fontFamily: 'sans-serif',
};

describe('figureChartOptions', () => {
  it('draws a small chart of figures in the theme, fixed in place, without the logo', () => {
    const options = figureChartOptions(colors);
    expect(options).toMatchObject({
      autoSize: true,
      layout: { textColor: '#333', attributionLogo: false },
      grid: { vertLines: { color: '#eee' }, horzLines: { color: '#eee' } },
      rightPriceScale: { borderColor: '#ddd' },
      timeScale: { borderColor: '#ddd', timeVisible: true, secondsVisible: false },
      handleScroll: false,
      handleScale: false,
    });
  });
});
