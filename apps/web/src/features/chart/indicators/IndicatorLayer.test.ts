import { indicatorSeries, type Bar, type IndicatorConfig } from '@ct/domain';
import type { IChartApi } from 'lightweight-charts';
import { describe, expect, it } from 'vitest';
import type { ChartColors } from '../../../shared/chartTheme';
import { VOLUME_PANE_STRETCH } from '../ChartController';
import { IndicatorLayer, PRICE_PANE_STRETCH } from './IndicatorLayer';

type Point = { time: number; value?: number; color?: string };

/** A stand-in for lightweight-charts (it needs a real canvas): panes of series and their data. */
function fakeChart() {
  type FakeSeries = {
    kind: string;
    options: Record<string, unknown>;
    data: Point[];
    setDataCalls: number;
    updates: number;
    priceLines: number[];
    pane: { series: FakeSeries[]; stretch: number };
  };
  const panes: FakeSeries['pane'][] = [{ series: [], stretch: 1 }];
  const element = document.createElement('div');
  const host = document.createElement('div');
  host.appendChild(element);
  const api = {
    addSeries(definition: { type: string }, options: Record<string, unknown>, index = 0) {
      while (panes.length <= index) panes.push({ series: [], stretch: 1 });
      const pane = panes[index]!;
      const s: FakeSeries = {
        kind: definition.type,
        options,
        data: [],
        setDataCalls: 0,
        updates: 0,
        priceLines: [],
        pane,
      };
      pane.series.push(s);
      return {
        setData(points: Point[]) {
          s.data = [...points];
          s.setDataCalls += 1;
        },
        update(point: Point) {
          s.updates += 1;
          if (s.data.at(-1)?.time === point.time) s.data[s.data.length - 1] = point;
          else s.data.push(point);
        },
        createPriceLine(line: { price: number }) {
          s.priceLines.push(line.price);
        },
        getPane: () => ({ setStretchFactor: (f: number) => (pane.stretch = f) }),
        dataByIndex: (i: number) => s.data[i] ?? null,
        options: () => s.options,
        fake: s,
      };
    },
    removeSeries(series: { fake: FakeSeries }) {
      const pane = series.fake.pane;
      pane.series.splice(pane.series.indexOf(series.fake), 1);
      if (pane.series.length === 0 && panes.indexOf(pane) > 0) panes.splice(panes.indexOf(pane), 1);
    },
    panes: () => panes,
    chartElement: () => element,
  };
  const volume = { visible: true };
  return {
    host: {
      chartApi: api as unknown as IChartApi,
      setVolumeVisible: (v: boolean) => (volume.visible = v),
    },
    panes,
    volume,
    dataset: host.dataset,
    series: () => panes.flatMap((p) => p.series),
  };
}

const colors = { line: '#1677ff', volumeUp: 'green', volumeDown: 'red', crosshair: '#888' };

const MIN = 60_000;
function bars(n: number): Bar[] {
  return Array.from({ length: n }, (_, i) => {
    const close = 100 + Math.sin(i / 3) * 5 + i * 0.1;
    return { time: i * MIN, open: close - 0.5, high: close + 1, low: close - 1, close, volume: 10 };
  });
}

const sma: IndicatorConfig = { id: 'a', kind: 'sma', params: { period: 5 }, visible: true };
const rsi: IndicatorConfig = { id: 'b', kind: 'rsi', params: { period: 14 }, visible: true };
const macd: IndicatorConfig = {
  id: 'c',
  kind: 'macd',
  params: { fast: 12, slow: 26, signal: 9 },
  visible: true,
};

function layerWith(configs: IndicatorConfig[], data = bars(100)) {
  const chart = fakeChart();
  const layer = new IndicatorLayer(chart.host, colors as ChartColors);
  layer.reset(data);
  layer.setConfigs(configs);
  return { chart, layer, data };
}

describe('IndicatorLayer', () => {
  it('reads each shown indicator’s values at a bar for the legend, in its colours', () => {
    const { layer, data } = layerWith([{ ...sma, color: '#ff00ff' }, rsi, macd]);
    const smaValues = indicatorSeries('sma', { period: 5 }, data);
    const at = layer.readingsAt(50);
    expect(at.map((r) => r.label)).toEqual(['SMA 5', 'RSI 14', 'MACD 12 26 9']);
    expect(at[0]).toEqual({
      key: 'a',
      label: 'SMA 5',
      // what an alert on it names
      config: { kind: 'sma', params: { period: 5 } },
      color: '#ff00ff',
      // the tick's decimals (0.01)
      values: [{ text: smaValues[50]!.value!.toFixed(2), color: '#ff00ff' }],
    });
    expect(at[1]!.values[0]!.text).toMatch(/^\d+\.\d{2}$/);
    // MACD: macd, signal, histogram (one more decimal), the histogram in its bar's colour
    expect(at[2]!.values).toHaveLength(3);
    expect(at[2]!.values[0]!.text).toMatch(/^-?\d+\.\d{3}$/);
    expect(at[2]!.values[1]!.color).toBe('#ff9800');
    expect(['green', 'red']).toContain(at[2]!.values[2]!.color);
    // before SMA has 5 bars: no value; null is the newest bar
    expect(layer.readingsAt(2)[0]!.values[0]!.text).toBe('–');
    expect(layer.readingsAt(null)[0]!.values[0]!.text).toBe(smaValues.at(-1)!.value!.toFixed(2));
  });

  it('draws SMA on the price pane and RSI and MACD in panes of their own', () => {
    const { chart } = layerWith([sma, rsi, macd]);
    expect(chart.panes).toHaveLength(3);
    expect(chart.panes[0]!.series.map((s) => s.options.title)).toEqual(['SMA 5']);
    expect(chart.panes[1]!.series.map((s) => s.options.title)).toEqual(['RSI 14']);
    expect(chart.panes[1]!.series[0]!.priceLines).toEqual([70, 30]);
    expect(chart.panes[2]!.series.map((s) => s.kind)).toEqual(['Histogram', 'Line', 'Line']);
    expect(chart.dataset.indicators).toBe('SMA 5;RSI 14;MACD 12 26 9');
  });

  it('gives an indicator pane a usable share of the height: a quarter or more beside price and volume', () => {
    const { chart } = layerWith([rsi]);
    const own = chart.panes[1]!.stretch;
    expect(own / (PRICE_PANE_STRETCH + VOLUME_PANE_STRETCH + own)).toBeGreaterThanOrEqual(0.25);
  });

  it('draws the batch values, with gaps before the indicator has enough bars', () => {
    const { chart, data } = layerWith([sma]);
    const expected = indicatorSeries('sma', { period: 5 }, data);
    const drawn = chart.panes[0]!.series[0]!.data;
    expect(drawn[3]).toEqual({ time: 180 });
    expect(drawn).toHaveLength(expected.length);
    drawn.forEach((p, i) => {
      const want = expected[i]!.value ?? null;
      if (want === null) expect(p.value).toBeUndefined();
      else expect(p.value).toBeCloseTo(want!, 9);
    });
  });

  it('a live tick updates the last point only; a new bar adds one point', () => {
    const { chart, layer, data } = layerWith([sma, rsi, macd]);
    const before = chart.series().map((s) => s.setDataCalls);
    const live = [...data];
    live[99] = { ...data[99]!, close: data[99]!.close + 3, high: data[99]!.high + 3 };
    layer.update(live, 99);
    live.push({ ...data[99]!, time: 100 * MIN, close: 90, open: 91, low: 89 });
    layer.update(live, 99);
    // no series was given all its points again
    expect(chart.series().map((s) => s.setDataCalls)).toEqual(before);
    // and each shows the values of the whole series computed at once
    const sma5 = chart.panes[0]!.series[0]!.data;
    expect(sma5).toHaveLength(101);
    const expected = indicatorSeries('sma', { period: 5 }, live);
    expect(sma5.at(-2)!.value).toBeCloseTo(expected[99]!.value!, 9);
    expect(sma5.at(-1)!.value).toBeCloseTo(expected[100]!.value!, 9);
    const rsiExpected = indicatorSeries('rsi', { period: 14 }, live);
    expect(chart.panes[1]!.series[0]!.data.at(-1)!.value).toBeCloseTo(rsiExpected[100]!.value!, 9);
  });

  it('hidden indicators are not drawn; removing one removes its pane', () => {
    const { chart, layer } = layerWith([sma, rsi, macd]);
    layer.setConfigs([sma, { ...rsi, visible: false }, macd]);
    expect(chart.panes).toHaveLength(2);
    expect(chart.dataset.indicators).toBe('SMA 5;MACD 12 26 9');
    layer.setConfigs([sma]);
    expect(chart.panes).toHaveLength(1);
    layer.setConfigs([]);
    expect(chart.series()).toHaveLength(0);
  });

  it('the volume setting shows or hides the chart’s own volume pane (shown by default)', () => {
    const { chart, layer } = layerWith([sma]);
    expect(chart.volume.visible).toBe(true);
    layer.setConfigs([sma, { id: 'volume', kind: 'volume', params: {}, visible: false }]);
    expect(chart.volume.visible).toBe(false);
    layer.setConfigs([sma, { id: 'volume', kind: 'volume', params: {}, visible: true }]);
    expect(chart.volume.visible).toBe(true);
  });

  it('MACD histogram bars take the up colour at or above zero, the down colour below', () => {
    const { chart } = layerWith([macd]);
    const histogram = chart.panes[1]!.series[0]!.data.filter((p) => p.value !== undefined);
    expect(histogram.length).toBeGreaterThan(0);
    for (const p of histogram) expect(p.color).toBe(p.value! >= 0 ? 'green' : 'red');
  });
});
