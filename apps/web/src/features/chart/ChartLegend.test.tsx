import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { LegendState } from './ChartController';
import { ChartLegend } from './ChartLegend';
import type { IndicatorReading } from './indicators/IndicatorLayer';

const bar = (close: number) => ({ time: 0, open: 1, high: 2, low: 0.5, close, volume: 10 });

describe('ChartLegend', () => {
  it('lists each shown indicator with its value at the legend’s bar, colour-matched', () => {
    const store = createStore<LegendState>(() => ({
      bar: bar(1.5),
      previousClose: 1,
      hovered: false,
      index: 9,
    }));
    const readings = (index: number | null): IndicatorReading[] => [
      {
        key: 'a',
        label: 'SMA 20',
        config: { kind: 'sma', params: { period: 20 } },
        color: '#ff00ff',
        values: [{ text: `1.23${index}`, color: '#ff00ff' }],
      },
      {
        key: 'b',
        label: 'RSI 14',
        config: { kind: 'rsi', params: { period: 14 } },
        color: '#1677ff',
        values: [{ text: `56.7${index}`, color: '#1677ff' }],
      },
    ];
    render(<ChartLegend store={store} tick={0.01} title="XAUUSD · 1h" indicators={readings} />);
    const list = screen.getByRole('list', { name: 'Indicator values' });
    const [sma, rsi] = within(list).getAllByRole('listitem');
    expect(sma).toHaveTextContent('SMA 201.239');
    expect(within(sma!).getByText('SMA 20')).toHaveStyle({ color: '#ff00ff' });
    expect(within(sma!).getByText('1.239')).toHaveStyle({ color: '#ff00ff' });
    expect(rsi).toHaveTextContent('RSI 1456.79');
    // the hovered bar's values follow the crosshair
    act(() => store.setState({ bar: bar(1.2), hovered: true, index: 4 }));
    expect(within(list).getByText('1.234')).toBeInTheDocument();
    expect(within(list).getByText('56.74')).toBeInTheDocument();
  });

  it("each indicator's bell adds an alert on it", () => {
    const store = createStore<LegendState>(() => ({
      bar: bar(1.5),
      previousClose: 1,
      hovered: false,
      index: 9,
    }));
    const readings = (): IndicatorReading[] => [
      {
        key: 'rsi-1',
        label: 'RSI 14',
        config: { kind: 'rsi', params: { period: 14 } },
        color: '#1677ff',
        values: [{ text: '56.70', color: '#1677ff' }],
      },
    ];
    const asked: string[] = [];
    render(
      <ChartLegend
        store={store}
        tick={0.01}
        title="XAUUSD · 1h"
        indicators={readings}
        onAddAlert={(key) => asked.push(key)}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add alert on RSI 14' }));
    expect(asked).toEqual(['rsi-1']);
  });

  it('shows no indicator list without indicators', () => {
    const store = createStore<LegendState>(() => ({
      bar: bar(1.5),
      previousClose: 1,
      hovered: false,
      index: 0,
    }));
    render(<ChartLegend store={store} tick={0.01} title="XAUUSD · 1h" indicators={() => []} />);
    expect(screen.queryByRole('list')).toBeNull();
  });
});
