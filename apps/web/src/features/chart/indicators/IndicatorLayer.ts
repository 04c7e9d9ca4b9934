import {
  createIndicatorState,
  INDICATOR_PLACEMENT,
  tickDecimals,
  type Bar,
  type IndicatorConfig,
  type IndicatorState,
  type IndicatorValues,
} from '@ct/domain';
import {
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { withAlpha, type ChartColors } from '../../../shared/chartTheme';
import { indicatorLabel } from './labels';

/** The price pane's stretch factor: lightweight-charts gives the first pane 2. */
export const PRICE_PANE_STRETCH = 2;
/**
 * Height of an indicator pane (RSI, MACD) against the price pane's 2 and the volume pane's
 * 0.28: one indicator takes 30 % of the panes (about 110 px of a chart at 1024 × 768, 140 px
 * at 1440 × 900), two 23 % each. The trader drags the separators to change it.
 */
export const INDICATOR_PANE_STRETCH = 1;
/** RSI's overbought and oversold levels, drawn as dashed lines in its pane. */
const RSI_LEVELS = [70, 30] as const;
const MACD_SIGNAL_COLOR = '#ff9800';

/** What the layer needs of the chart it draws on (ChartController gives it). */
export type IndicatorHost = {
  readonly chartApi: IChartApi;
  /** Shows or hides the chart's volume pane (the 'volume' indicator). */
  setVolumeVisible(visible: boolean): void;
};

type Line = {
  /** The indicator's output this series draws. */
  name: string;
  series: ISeriesApi<'Line'> | ISeriesApi<'Histogram'>;
  histogram: boolean;
};

type Drawn = {
  config: IndicatorConfig;
  state: IndicatorState;
  lines: Line[];
  /** Time (epoch s) of the newest bar with a value drawn, null before the first. */
  last: number | null;
};

/** One shown indicator in the chart's legend: its label and values at a bar, in its colours. */
export type IndicatorReading = {
  key: string;
  /** 'SMA 20', 'BB 20 2'… */
  label: string;
  /** The indicator's kind and parameters (what an indicator alert names). */
  config: Pick<IndicatorConfig, 'kind' | 'params'>;
  color: string;
  /** Formatted values (BB upper, middle, lower; MACD macd, signal, histogram); '–' for none. */
  values: { text: string; color: string }[];
};

/** The order a legend reads an indicator's outputs in. */
const LEGEND_ORDER: Record<string, number> = { macd: 0, signal: 1, histogram: 2 };

const toTime = (ms: number) => (ms / 1000) as UTCTimestamp;

/**
 * The indicators of one chart: SMA, EMA, Bollinger Bands and VWAP over the price bars, RSI
 * and MACD in panes of their own, and the volume pane shown or hidden. Each indicator keeps
 * an incremental state from `@ct/domain`: a load or a history page feeds every bar once, a
 * live tick replaces only the newest bar's values (`replaceLast`), never recomputing the rest.
 */
export class IndicatorLayer {
  /** Counts the changes of what is drawn (the legend reads the values again). */
  readonly drawnVersion: StoreApi<number> = createStore<number>(() => 0);
  private configs: readonly IndicatorConfig[] = [];
  private drawn: Drawn[] = [];
  private bars: readonly Bar[] = [];
  private signature = '';
  private disposed = false;
  /** The instrument's tick: overlays show prices with its decimals, MACD with one more. */
  private tick = 0.01;

  constructor(
    private readonly host: IndicatorHost,
    private colors: ChartColors,
  ) {}

  /** Shows these indicators (hidden ones are not drawn); rebuilds only when they changed. */
  setConfigs(configs: readonly IndicatorConfig[]): void {
    if (this.disposed) return;
    this.configs = configs;
    const volume = configs.find((c) => c.kind === 'volume');
    this.host.setVolumeVisible(volume ? volume.visible : true);
    const signature = JSON.stringify(configs.filter((c) => c.visible && c.kind !== 'volume'));
    if (signature !== this.signature) {
      this.signature = signature;
      this.rebuild();
      this.drawnVersion.setState((n) => n + 1, true);
    }
    this.describe();
  }

  setTick(tick: number): void {
    if (this.disposed || tick === this.tick || !(tick > 0)) return;
    this.tick = tick;
    this.signature = '';
    this.setConfigs(this.configs);
  }

  setColors(colors: ChartColors): void {
    if (this.disposed) return;
    this.colors = colors;
    this.signature = '';
    this.setConfigs(this.configs);
  }

  /** Every bar changed (load, older history): each indicator computes them all once. */
  reset(bars: readonly Bar[]): void {
    if (this.disposed) return;
    this.bars = bars;
    for (const d of this.drawn) this.fill(d);
    this.describe();
  }

  /**
   * Bars from `from` on changed or were added (live ticks); the ones before did not. The
   * newest known bar is replaced in place, later ones are pushed: O(1) per changed bar.
   */
  update(bars: readonly Bar[], from: number): void {
    if (this.disposed) return;
    this.bars = bars;
    for (const d of this.drawn) {
      if (from < d.state.length - 1 || from > d.state.length) {
        this.fill(d); // out of step (should not happen): compute again
        continue;
      }
      for (let i = from; i < bars.length; i++) {
        const bar = bars[i]!;
        const values = i < d.state.length ? d.state.replaceLast(bar) : d.state.push(bar);
        for (const line of d.lines) {
          const point = this.point(line, bar, values);
          line.series.update(point);
          if ('value' in point) d.last = point.time;
        }
      }
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.removeAll();
    this.disposed = true;
  }

  /** The chart went away with every series on it: nothing is left to remove. */
  chartRemoved(): void {
    this.drawn = [];
    this.disposed = true;
  }

  /**
   * The shown indicators' values at bar `index` (the newest bar when null), as the legend
   * lists them: price overlays with the tick's decimals, RSI with 2, MACD with one more.
   */
  readingsAt(index: number | null): IndicatorReading[] {
    if (this.disposed) return [];
    const at = index ?? this.bars.length - 1;
    const decimals = tickDecimals(this.tick);
    return this.drawn.map(({ config, lines }) => {
      const color = config.color ?? this.colors.line;
      const places = config.kind === 'rsi' ? 2 : config.kind === 'macd' ? decimals + 1 : decimals;
      const ordered = [...lines].sort(
        (a, b) => (LEGEND_ORDER[a.name] ?? 0) - (LEGEND_ORDER[b.name] ?? 0),
      );
      return {
        key: config.id,
        label: indicatorLabel(config),
        config: { kind: config.kind, params: config.params },
        color,
        values: ordered.map((line) => {
          const point = (at >= 0 ? line.series.dataByIndex(at) : null) as {
            value?: number;
            color?: string;
          } | null;
          const value = typeof point?.value === 'number' ? point.value : null;
          const own = point?.color ?? null;
          return {
            text: value === null ? '–' : value.toFixed(places),
            color: own ?? (line.series.options() as { color?: string }).color ?? color,
          };
        }),
      };
    });
  }

  // ---- internals ----

  private removeAll(): void {
    for (const d of this.drawn)
      for (const line of d.lines) this.host.chartApi.removeSeries(line.series);
    this.drawn = [];
  }

  private rebuild(): void {
    this.removeAll();
    for (const config of this.configs) {
      if (!config.visible || config.kind === 'volume') continue;
      const lines = this.createLines(config);
      const d: Drawn = {
        config,
        state: createIndicatorState(config.kind, config.params),
        lines,
        last: null,
      };
      this.drawn.push(d);
      this.fill(d);
    }
  }

  private fill(d: Drawn): void {
    d.state = createIndicatorState(d.config.kind, d.config.params);
    const points: ReturnType<IndicatorLayer['point']>[][] = d.lines.map(() => []);
    d.last = null;
    for (const bar of this.bars) {
      const values = d.state.push(bar);
      d.lines.forEach((line, i) => {
        const point = this.point(line, bar, values);
        if ('value' in point) d.last = point.time;
        points[i]!.push(point);
      });
    }
    d.lines.forEach((line, i) =>
      (line.series as ISeriesApi<'Histogram'>).setData(
        points[i]! as Parameters<ISeriesApi<'Histogram'>['setData']>[0],
      ),
    );
  }

  private point(line: Line, bar: Bar, values: IndicatorValues) {
    const value = values[line.name];
    const time = toTime(bar.time);
    if (value === null || value === undefined) return { time };
    if (!line.histogram) return { time, value };
    return { time, value, color: value >= 0 ? this.colors.volumeUp : this.colors.volumeDown };
  }

  private createLines(config: IndicatorConfig): Line[] {
    const chart = this.host.chartApi;
    const color = config.color ?? this.colors.line;
    const title = indicatorLabel(config);
    const decimals = tickDecimals(this.tick);
    const priceFormat = { type: 'price' as const, precision: decimals, minMove: this.tick };
    const base = {
      lineWidth: 1 as const,
      priceLineVisible: false,
      crosshairMarkerVisible: false,
      lastValueVisible: true,
    };
    const line = (name: string, pane: number, options: Record<string, unknown>): Line => ({
      name,
      histogram: false,
      series: chart.addSeries(LineSeries, { ...base, color, ...options }, pane),
    });
    if (INDICATOR_PLACEMENT[config.kind] === 'price') {
      if (config.kind === 'bollinger') {
        const band = { color: withAlpha(color, 0.75), lastValueVisible: false, priceFormat };
        return [
          line('upper', 0, band),
          line('middle', 0, { title, lineStyle: LineStyle.Dashed, priceFormat }),
          line('lower', 0, band),
        ];
      }
      return [line('value', 0, { title, lineWidth: 2, priceFormat })];
    }
    // A pane of its own, below the others.
    const pane = chart.panes().length;
    if (config.kind === 'rsi') {
      const rsi = line('value', pane, {
        title,
        autoscaleInfoProvider: () => ({ priceRange: { minValue: 0, maxValue: 100 } }),
      });
      for (const level of RSI_LEVELS) {
        rsi.series.createPriceLine({
          price: level,
          color: this.colors.crosshair,
          lineWidth: 1,
          lineStyle: LineStyle.Dashed,
          axisLabelVisible: false,
          title: '',
        });
      }
      this.stretch(rsi);
      return [rsi];
    }
    const macdFormat = { type: 'price' as const, precision: decimals + 1, minMove: this.tick / 10 };
    const histogram: Line = {
      name: 'histogram',
      histogram: true,
      series: chart.addSeries(
        HistogramSeries,
        { priceLineVisible: false, lastValueVisible: false, priceFormat: macdFormat },
        pane,
      ),
    };
    const macd = line('macd', pane, { title, priceFormat: macdFormat });
    const signal = line('signal', pane, {
      color: MACD_SIGNAL_COLOR,
      lastValueVisible: false,
      priceFormat: macdFormat,
    });
    this.stretch(macd);
    return [histogram, macd, signal];
  }

  private stretch(line: Line): void {
    line.series.getPane().setStretchFactor(INDICATOR_PANE_STRETCH);
  }

  /** Data attributes that let end-to-end tests see what is drawn without reading pixels. */
  private describe(): void {
    const element = this.host.chartApi.chartElement().parentElement;
    if (!element) return;
    element.dataset.indicators = this.drawn.map((d) => indicatorLabel(d.config)).join(';');
    element.dataset.indicatorPanes = String(this.host.chartApi.panes().length);
    // the time of the newest value any indicator draws (epoch s)
    const lasts = this.drawn.flatMap((d) => (d.last === null ? [] : [d.last]));
    const last = lasts.length > 0 ? Math.max(...lasts) : null;
    element.dataset.indicatorLast = last === null ? '' : String(last);
  }
}
