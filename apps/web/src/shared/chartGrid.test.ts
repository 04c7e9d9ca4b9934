import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from './storage';
import {
  DEFAULT_CELLS,
  getActiveChart,
  setActiveChart,
  setChartLayout,
  setChartPeriod,
  setChartSymbol,
  setChartType,
  storedCells,
  useChartGridStore,
} from './chartGrid';

describe('chart grid store', () => {
  beforeEach(() =>
    useChartGridStore.setState({
      layout: 1,
      activeChartId: 'chart-1',
      charts: DEFAULT_CELLS.map((c) => ({ ...c })),
    }),
  );
  afterEach(() => localStorage.clear());

  it('starts with four charts of their own instrument and period', () => {
    expect(storedCells().map((c) => [c.id, c.symbol, c.period, c.chartType])).toEqual([
      ['chart-1', 'BTCUSDT', '1m', 'candles'],
      ['chart-2', 'ETHUSDT', '15m', 'candles'],
      ['chart-3', 'XAUUSD', '1h', 'candles'],
      ['chart-4', 'EURUSD', '4h', 'candles'],
    ]);
  });

  it('remembers instrument, period and chart type per cell', () => {
    setChartSymbol('chart-2', 'XAGUSD');
    setChartPeriod('chart-2', 'day');
    setChartType('chart-3', 'line');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.chartCells)!)).toHaveLength(4);
    const restored = storedCells();
    expect(restored[1]).toEqual({
      id: 'chart-2',
      symbol: 'XAGUSD',
      period: 'day',
      chartType: 'candles',
    });
    expect(restored[2]!.chartType).toBe('line');
    expect(restored[0]).toEqual(DEFAULT_CELLS[0]);
  });

  it('ignores stored cells that do not parse', () => {
    localStorage.setItem(
      STORAGE_KEYS.chartCells,
      JSON.stringify([{ id: 'chart-1', symbol: 'X', period: '2m', chartType: 'candles' }, 'junk']),
    );
    expect(storedCells()[0]).toEqual(DEFAULT_CELLS[0]);
    localStorage.setItem(STORAGE_KEYS.chartCells, '{not json');
    expect(storedCells()).toEqual(DEFAULT_CELLS);
  });

  it('the active chart follows clicks and falls back to the first visible chart', () => {
    setChartLayout(4);
    setActiveChart('chart-4');
    expect(getActiveChart()?.symbol).toBe('EURUSD');
    setChartLayout(2);
    expect(getActiveChart()?.id).toBe('chart-1');
  });
});
