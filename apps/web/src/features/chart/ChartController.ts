import {
  barDirection,
  isIntraday,
  mergeTick,
  tickDecimals,
  type Bar,
  type Period,
  type Tick,
} from '@ct/domain';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesMarkersPluginApi,
  type ISeriesApi,
  type LogicalRange,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { onTicks, watchSymbol } from '../../realtime/live';
import { throttleSettings } from '../../realtime/settings';
import { createThrottle, type Throttle } from '../../realtime/throttle';
import type { ChartType } from '../../shared/chartGrid';
import { fetchKlines, HISTORY_BARS } from '../../market/api';
import { layoutMarkers, type ChartMarker, type DrawnMarker } from '../../shared/chartMarkers';
import { chartLayout, type ChartColors } from '../../shared/chartTheme';
import { klineToBar, normalizeBars, prependHistory } from './history';
import { formatBarTime, formatTickMark } from './periods';
import { firstChartDrawn } from '../../shared/firstChart';

/** Older history is fetched when fewer bars than this are left of the visible range. */
export const HISTORY_TRIGGER_BARS = 20;
/** After a failed history page, scrolling back asks again at the earliest after this. */
const HISTORY_RETRY_MS = 3000;
/** Least width of the price scale: the corner below it holds the attribution link. */
export const ATTRIBUTION_CORNER_PX = 60;
/** Share of the height the volume pane takes under the price pane. */
export const VOLUME_PANE_STRETCH = 0.28;

/** The hovered bar (or the newest one) for the OHLCV legend. */
export type LegendState = {
  bar: Bar | null;
  previousClose: number | null;
  hovered: boolean;
  /** The bar's index (indicator values are read at it); null without bars. */
  index: number | null;
};

/** The markers whose details show over the chart (hover on a marker, or a click on its bar). */
export type MarkerDetails = {
  markers: readonly ChartMarker[];
  /** Where the pointer was, in px of the chart's element. */
  x: number;
  y: number;
  /** Shown by a click: stays until the next click or Escape. */
  pinned: boolean;
};

export type ChartPhase = 'idle' | 'loading' | 'ready' | 'error';

export type ChartStatus = {
  phase: ChartPhase;
  error: string | null;
  loadingHistory: boolean;
  historyExhausted: boolean;
};

export type ChartSource = { symbol: string; period: Period; tick: number };

/** What the controller needs from the outside; tests replace parts. */
export type ChartDeps = {
  fetchKlines: typeof fetchKlines;
  watchSymbol: (symbol: string) => () => void;
  onTicks: (symbol: string, listener: (ticks: readonly Tick[]) => void) => () => void;
  /** Minimum ms between two redraws of live ticks (throttle setting). */
  chartDelay: () => number;
};

const defaultDeps: ChartDeps = {
  fetchKlines,
  watchSymbol,
  onTicks,
  chartDelay: () => throttleSettings().chartDataUpdateDelay,
};

type MainSeries = ISeriesApi<'Candlestick'> | ISeriesApi<'Line'>;

/**
 * Something drawn on the price series of the chart type (the trader's own trades): attached
 * to the series that holds the bars, and again to the other one after a chart type change.
 */
export type ChartLayer = {
  attach(chart: IChartApi, series: MainSeries): void;
  detach(): void;
};

/** Something computed from the chart's bars (indicators), told of every change of them. */
export type BarListener = {
  /** Every bar may have changed (load, older history, chart type). */
  reset(bars: readonly Bar[]): void;
  /** Bars from index `from` on changed or were added (live ticks); earlier ones did not. */
  update(bars: readonly Bar[], from: number): void;
  /** The chart was removed: its series are gone with it. */
  chartRemoved?(): void;
  /**
   * Bar replay: the time (UTC ms) of the last bar shown, told before the bars; null when
   * the replay ends (every bar is shown again).
   */
  replayCursor?(shownTo: number | null): void;
};

/** The first and last bar times (seconds) a logical range shows, or null without bars. */
export function visibleBarTimes(
  bars: readonly Bar[],
  range: { from: number; to: number } | null,
): { from: number; to: number } | null {
  if (!range || bars.length === 0) return null;
  const last = bars.length - 1;
  const first = Math.min(Math.max(Math.ceil(range.from), 0), last);
  const end = Math.min(Math.max(Math.floor(range.to), first), last);
  return { from: bars[first]!.time / 1000, to: bars[end]!.time / 1000 };
}

/** The bars a replay shows: those starting at or before `cursor` (UTC ms). */
export function barsUpTo(bars: readonly Bar[], cursor: number): Bar[] {
  let end = bars.length;
  while (end > 0 && bars[end - 1]!.time > cursor) end--;
  return bars.slice(0, end);
}

const toTime = (ms: number) => (ms / 1000) as UTCTimestamp;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One chart: price series (candles or line) over a volume pane, its bars, paging back into
 * history and live ticks. It lives outside React: ticks go straight into the series, and
 * React reads only the small `legend` and `status` stores.
 */
export class ChartController {
  readonly legend: StoreApi<LegendState> = createStore<LegendState>(() => ({
    bar: null,
    previousClose: null,
    hovered: false,
    index: null,
  }));
  readonly markerDetails: StoreApi<MarkerDetails | null> = createStore<MarkerDetails | null>(
    () => null,
  );
  readonly status: StoreApi<ChartStatus> = createStore<ChartStatus>(() => ({
    phase: 'idle',
    error: null,
    loadingHistory: false,
    historyExhausted: false,
  }));

  private readonly chart: IChartApi;
  /**
   * Both price series live as long as the chart; only the one of the chart type holds
   * bars. Removing a series and adding another instead leaves lightweight-charts with a
   * time scale whose points no longer match the series (the volume series alone rebuilds
   * it), so its visible range turns null ('Value is null') and jumps to the oldest bars.
   */
  private readonly candles: ISeriesApi<'Candlestick'>;
  private readonly line: ISeriesApi<'Line'>;
  private readonly volume: ISeriesApi<'Histogram'>;
  private bars: Bar[] = [];
  private source: ChartSource | null = null;
  /** The Intl locale of the time axis and the crosshair's time (setLocale). */
  private locale = 'en-US';
  private generation = 0;
  private stopLive: (() => void) | null = null;
  /** Index of the newest bar the series already has; live redraws start there. */
  private drawnIndex = -1;
  private readonly redraw: Throttle;
  private hovering = false;
  private historyRetryAt = 0;
  private disposed = false;
  private markers: readonly ChartMarker[] = [];
  private drawnMarkers: readonly DrawnMarker[] = [];
  /** Bar spacing (px) the markers' labels were fitted at. */
  private markerSpacing = 0;
  private readonly markerPlugins = new Map<MainSeries, ISeriesMarkersPluginApi<Time>>();
  private readonly layers = new Set<ChartLayer>();
  private readonly barListeners = new Set<BarListener>();
  private volumeVisible = true;
  /**
   * While a bar replay runs: every loaded bar (live ticks go on into it), while `bars`, the
   * drawn ones, stop at the replay's cursor. Null outside a replay.
   */
  private allBars: Bar[] | null = null;
  private replayCursor: number | null = null;
  /** The bar forming after the replay's cursor (lower-period steps), drawn after it. */
  private forming: Bar | null = null;
  /** Picking the replay's start bar: stops picking. */
  private stopPicking: (() => void) | null = null;

  constructor(
    private readonly container: HTMLElement,
    private colors: ChartColors,
    private chartType: ChartType,
    private readonly deps: ChartDeps = defaultDeps,
  ) {
    this.chart = createChart(container, {
      autoSize: true,
      layout: {
        ...chartLayout(colors),
        // indicator panes are resized by dragging the separator above them
        panes: {
          enableResize: true,
          separatorColor: colors.border,
          separatorHoverColor: colors.grid,
        },
        // The logo would sit on the bars; TradingChart links TradingView in the corner
        // under the price scale instead, as the library's licence allows.
        attributionLogo: false,
      },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      crosshair: { mode: CrosshairMode.Normal },
      rightPriceScale: {
        borderColor: colors.border,
        scaleMargins: { top: 0.12, bottom: 0.06 },
        // Wide enough for the attribution link in the corner below it.
        minimumWidth: ATTRIBUTION_CORNER_PX,
      },
      timeScale: {
        borderColor: colors.border,
        rightOffset: 6,
        barSpacing: 7,
        minBarSpacing: 0.5,
        secondsVisible: false,
      },
    });
    this.candles = this.chart.addSeries(CandlestickSeries, { borderVisible: false }, 0);
    this.line = this.chart.addSeries(LineSeries, { lineWidth: 2, crosshairMarkerRadius: 3 }, 0);
    this.showChartType();
    this.volume = this.chart.addSeries(
      HistogramSeries,
      {
        priceFormat: { type: 'volume' },
        priceLineVisible: false,
        lastValueVisible: false,
        priceScaleId: 'right',
      },
      1,
    );
    this.chart.panes()[1]?.setStretchFactor(VOLUME_PANE_STRETCH);
    this.applyColors();
    this.redraw = createThrottle(
      () => this.drawLive(),
      () => this.deps.chartDelay(),
    );
    this.chart.subscribeCrosshairMove(this.onCrosshair);
    this.chart.subscribeClick(this.onClick);
    this.chart.timeScale().subscribeVisibleLogicalRangeChange(this.onRange);
  }

  /** Shows an instrument at a period: the newest bars, then live ticks. */
  async load(source: ChartSource): Promise<void> {
    const same =
      this.source?.symbol === source.symbol &&
      this.source.period === source.period &&
      this.status.getState().phase === 'ready';
    if (same) {
      this.setTick(source.tick);
      this.source = source;
      return;
    }
    const generation = ++this.generation;
    this.stopPicking?.();
    this.stopLive?.();
    this.stopLive = null;
    this.redraw.cancel();
    this.source = source;
    this.bars = [];
    if (this.allBars !== null) {
      for (const listener of this.barListeners) listener.replayCursor?.(null);
    }
    this.allBars = null;
    this.forming = null;
    this.replayCursor = null;
    this.drawnIndex = -1;
    this.historyRetryAt = 0;
    this.status.setState({
      phase: 'loading',
      error: null,
      loadingHistory: false,
      historyExhausted: false,
    });
    this.applyPeriod(source.period);
    this.setTick(source.tick);
    this.setSeriesData();
    this.updateDataset();

    // Watch before loading: ticks of the wait are dropped, the loaded bar holds them.
    const release = this.deps.watchSymbol(source.symbol);
    const stopTicks = this.deps.onTicks(source.symbol, (ticks) => this.onLiveTicks(ticks));
    this.stopLive = () => {
      stopTicks();
      release();
    };
    try {
      const klines = await this.deps.fetchKlines(source.symbol, source.period);
      if (generation !== this.generation) return;
      this.bars = normalizeBars(klines.map(klineToBar));
      this.setSeriesData();
      this.chart.timeScale().resetTimeScale();
      this.chart.priceScale('right').applyOptions({ autoScale: true });
      this.status.setState({
        phase: 'ready',
        historyExhausted: this.bars.length === 0,
      });
      firstChartDrawn();
      this.showNewestInLegend();
      this.updateDataset();
    } catch (error) {
      if (generation !== this.generation) return;
      this.status.setState({ phase: 'error', error: describe(error) });
      this.updateDataset();
    }
  }

  /** Loads the current instrument again (after an error). */
  reload(): Promise<void> {
    const source = this.source;
    if (!source) return Promise.resolve();
    this.status.setState({ phase: 'idle' });
    return this.load(source);
  }

  setColors(colors: ChartColors): void {
    this.colors = colors;
    this.applyColors();
  }

  /**
   * Candles or a line. The bars go to the other price series first, then leave the one
   * shown so far: the time scale keeps the same points, so the same bars stay in view and
   * nothing pages back into history.
   */
  setChartType(type: ChartType): void {
    if (type === this.chartType) return;
    const previous = this.main;
    this.chartType = type;
    this.setSeriesData();
    this.setMarkers(this.markers);
    this.markerPlugins.get(previous)?.setMarkers([]);
    previous.setData([]);
    this.showChartType();
    for (const layer of this.layers) {
      layer.detach();
      layer.attach(this.chart, this.main);
    }
  }

  /** Draws `layer` on the price series until the returned function removes it. */
  addLayer(layer: ChartLayer): () => void {
    if (this.disposed) return () => {};
    this.layers.add(layer);
    layer.attach(this.chart, this.main);
    return () => {
      if (this.layers.delete(layer)) layer.detach();
    };
  }

  /** The chart library's API (indicator series and panes are added through it). */
  get chartApi(): IChartApi {
    return this.chart;
  }

  /** Tells `listener` of the bars now and of every change, until the returned detach. */
  addBarListener(listener: BarListener): () => void {
    if (this.disposed) return () => {};
    this.barListeners.add(listener);
    listener.reset(this.bars);
    return () => void this.barListeners.delete(listener);
  }

  /**
   * Shows or hides the volume pane. Hidden, the series waits invisible in the price pane on
   * a scale of its own, so its empty pane goes away; shown, it is the pane under the price.
   */
  setVolumeVisible(visible: boolean): void {
    if (visible === this.volumeVisible || this.disposed) return;
    this.volumeVisible = visible;
    if (!visible) {
      this.volume.applyOptions({ visible: false, priceScaleId: 'volume-hidden' });
      this.volume.moveToPane(0);
      return;
    }
    this.volume.moveToPane(this.chart.panes().length);
    this.volume.applyOptions({ visible: true, priceScaleId: 'right' });
    const pane = this.volume.getPane();
    pane.moveTo(1);
    pane.setStretchFactor(VOLUME_PANE_STRETCH);
  }

  /**
   * Draws markers (strategy deals, fills) on the price series; an empty list clears them.
   * Those of one bar merge and their labels fit the zoom (`layoutMarkers`).
   */
  setMarkers(markers: readonly ChartMarker[]): void {
    this.markers = markers;
    this.container.dataset.markers = String(markers.length);
    this.drawMarkers();
    // details kept open stay on their bar with what it holds now (a theme change redraws)
    const shown = this.markerDetails.getState();
    const times = new Set(shown?.pinned ? shown.markers.map((m) => m.time) : []);
    const still = this.drawnMarkers.filter((m) => times.has(m.time)).flatMap((m) => m.members);
    this.markerDetails.setState(
      shown && still.length > 0 ? { ...shown, markers: still } : null,
      true,
    );
  }

  /** Shows every loaded bar. */
  /** Shows every loaded bar. */
  fitContent(): void {
    this.chart.timeScale().fitContent();
  }

  /** Back to the default zoom at the newest bar, price scale automatic again. */
  resetZoom(): void {
    this.chart.timeScale().resetTimeScale();
    this.chart.priceScale('right').applyOptions({ autoScale: true });
  }

  /**
   * Bar replay: only the bars up to `cursor` (UTC ms, a bar's start) are drawn and handed to
   * the indicators and drawings, then `forming` (the next bar as far as it has formed, in
   * steps of a lower period) when given; null shows every bar again (the live chart).
   */
  setReplayCursor(cursor: number | null, forming: Bar | null = null): void {
    if (cursor === null) {
      if (this.allBars === null) return;
      this.bars = this.allBars;
      this.allBars = null;
      this.replayCursor = null;
      this.forming = null;
    } else {
      this.allBars ??= this.bars;
      this.replayCursor = cursor;
      this.bars = barsUpTo(this.allBars, cursor);
      this.forming = forming && forming.time > cursor ? forming : null;
      if (this.forming) this.bars.push(this.forming);
    }
    const shownTo = cursor === null ? null : (this.bars.at(-1)?.time ?? cursor);
    for (const listener of this.barListeners) listener.replayCursor?.(shownTo);
    this.setSeriesData();
    this.showNewestInLegend();
    this.updateDataset();
  }

  /**
   * Bar replay's start: a solid line follows the pointer over the bars (`onHover` gets the
   * bar's start, UTC ms, or null off the bars) and a click on a bar picks it (`onPick`).
   * The returned function stops picking (also a load, a replay cursor or dispose).
   */
  pickBar(onPick: (time: number) => void, onHover: (time: number | null) => void): () => void {
    this.stopPicking?.();
    if (this.disposed) return () => {};
    const d = this.container.dataset;
    const hover = (param: MouseEventParams<Time>) => {
      const time = param.point && param.time !== undefined ? (param.time as number) : null;
      d.replayPick = time === null ? '' : String(time);
      onHover(time === null ? null : time * 1000);
    };
    const click = (param: MouseEventParams<Time>) => {
      if (param.time === undefined) return;
      const time = (param.time as number) * 1000;
      stop();
      onPick(time);
    };
    const stop = () => {
      if (this.stopPicking !== stop) return;
      this.stopPicking = null;
      this.chart.unsubscribeCrosshairMove(hover);
      this.chart.unsubscribeClick(click);
      this.container.classList.remove('chart-replay-picking');
      d.replayPicking = '';
      d.replayPick = '';
      this.chart.applyOptions({
        crosshair: { vertLine: { width: 1, style: LineStyle.LargeDashed } },
      });
      this.applyColors();
    };
    this.stopPicking = stop;
    this.chart.applyOptions({
      crosshair: {
        vertLine: {
          width: 2,
          style: LineStyle.Solid,
          color: this.colors.line,
          labelBackgroundColor: this.colors.line,
        },
      },
    });
    this.container.classList.add('chart-replay-picking');
    d.replayPicking = '1';
    this.chart.subscribeCrosshairMove(hover);
    this.chart.subscribeClick(click);
    return stop;
  }

  /** Start times (UTC ms) of every loaded bar, hidden replay bars included. */
  barTimes(): number[] {
    return (this.allBars ?? this.bars).map((b) => b.time);
  }

  /** Loads the next older history page (also called when the user scrolls back). */
  async loadOlder(): Promise<void> {
    if (this.allBars !== null) return;
    const source = this.source;
    const status = this.status.getState();
    const oldest = this.bars[0];
    if (!source || !oldest || status.phase !== 'ready') return;
    if (status.loadingHistory || status.historyExhausted) return;
    if (Date.now() < this.historyRetryAt) return;
    const generation = this.generation;
    this.status.setState({ loadingHistory: true });
    try {
      const page = await this.deps.fetchKlines(source.symbol, source.period, {
        lastId: oldest.time / 1000,
        limit: HISTORY_BARS,
      });
      if (generation !== this.generation) return;
      const { bars, added } = prependHistory(this.bars, page.map(klineToBar));
      if (added > 0) {
        const range = this.chart.timeScale().getVisibleLogicalRange();
        this.bars = bars;
        this.setSeriesData();
        // The same bars stay in view: their indexes moved by what came in front.
        if (range) {
          this.chart
            .timeScale()
            .setVisibleLogicalRange({ from: range.from + added, to: range.to + added });
        }
      }
      this.status.setState({
        loadingHistory: false,
        historyExhausted: added === 0 || page.length < HISTORY_BARS,
      });
      this.updateDataset();
    } catch (error) {
      if (generation !== this.generation) return;
      console.warn('Loading older bars failed', error);
      this.historyRetryAt = Date.now() + HISTORY_RETRY_MS;
      this.status.setState({ loadingHistory: false });
    }
  }

  /** The bars on screen (tests, e2e data attributes). */
  barCount(): number {
    return this.bars.length;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopPicking?.();
    this.generation++;
    this.stopLive?.();
    this.stopLive = null;
    this.redraw.cancel();
    for (const layer of this.layers) layer.detach();
    this.layers.clear();
    for (const listener of this.barListeners) listener.chartRemoved?.();
    this.barListeners.clear();
    this.chart.unsubscribeCrosshairMove(this.onCrosshair);
    this.chart.unsubscribeClick(this.onClick);
    this.chart.timeScale().unsubscribeVisibleLogicalRangeChange(this.onRange);
    this.chart.remove();
  }

  // ---- internals ----

  /** The price series of the chart type: the one holding the bars. */
  private get main(): MainSeries {
    return this.chartType === 'line' ? this.line : this.candles;
  }

  /** Lays the markers out at the current zoom and hands them to the series. */
  private drawMarkers(): void {
    this.markerSpacing = this.barSpacing();
    this.drawnMarkers = layoutMarkers(
      this.markers,
      (time) => this.barIndexOf(time),
      this.markerSpacing,
    );
    this.container.dataset.markerGroups = String(this.drawnMarkers.length);
    const points = this.drawnMarkers.map(({ members: _m, short: _s, detail: _d, ...m }) => ({
      ...m,
      time: m.time as UTCTimestamp,
    }));
    const plugin = this.markerPlugins.get(this.main);
    if (plugin) plugin.setMarkers(points);
    else if (points.length > 0) {
      this.markerPlugins.set(this.main, createSeriesMarkers(this.main, points));
    }
  }

  /** Px per bar now (from the visible range: the option keeps the first value). */
  private barSpacing(): number {
    const range = this.chart.timeScale().getVisibleLogicalRange();
    const width = this.chart.timeScale().width();
    if (!range || width <= 0 || range.to <= range.from) {
      return this.chart.timeScale().options().barSpacing;
    }
    return width / (range.to - range.from);
  }

  /** The index of the bar at `time` (epoch seconds), null when no loaded bar has it. */
  private barIndexOf(time: number): number | null {
    const ms = time * 1000;
    let lo = 0;
    let hi = this.bars.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = this.bars[mid]!.time;
      if (t === ms) return mid;
      if (t < ms) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  /** The drawn markers of the hovered marker, or of every marker of the bar at `time`. */
  private markersAt(objectId: unknown, time: Time | undefined): ChartMarker[] {
    const hit = this.drawnMarkers.find((m) => m.id === objectId);
    if (hit) return [...hit.members];
    if (time === undefined) return [];
    return this.drawnMarkers.filter((m) => m.time === time).flatMap((m) => m.members);
  }

  private showChartType(): void {
    this.candles.applyOptions({ visible: this.chartType === 'candles' });
    this.line.applyOptions({ visible: this.chartType === 'line' });
    this.container.dataset.chartType = this.chartType;
  }

  private applyColors(): void {
    const c = this.colors;
    this.chart.applyOptions({
      layout: {
        ...chartLayout(c),
        panes: { enableResize: true, separatorColor: c.border, separatorHoverColor: c.grid },
      },
      grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
      crosshair: {
        vertLine: { color: c.crosshair, labelBackgroundColor: c.crosshairLabel },
        horzLine: { color: c.crosshair, labelBackgroundColor: c.crosshairLabel },
      },
      rightPriceScale: { borderColor: c.border },
      timeScale: { borderColor: c.border },
    });
    this.line.applyOptions({ color: c.line });
    this.candles.applyOptions({
      upColor: c.up,
      downColor: c.down,
      wickUpColor: c.up,
      wickDownColor: c.down,
    });
    // Volume colours are per bar.
    if (this.bars.length > 0) this.volume.setData(this.bars.map((b) => this.volumePoint(b)));
  }

  /**
   * The time axis and the crosshair's time in an Intl locale ('zh-CN', 'en-US'): the labels
   * are made again at once.
   */
  setLocale(locale: string): void {
    if (locale === this.locale) return;
    this.locale = locale;
    if (this.source) this.applyPeriod(this.source.period);
  }

  private applyPeriod(period: Period): void {
    const locale = this.locale;
    this.chart.applyOptions({
      timeScale: {
        timeVisible: isIntraday(period),
        tickMarkFormatter: (time: Time, tickType: number) =>
          formatTickMark(time as number, tickType, period, locale),
      },
      localization: {
        locale,
        timeFormatter: (time: Time) => formatBarTime(time as number, period, locale),
      },
    });
  }

  private setTick(tick: number): void {
    const priceFormat = { type: 'price', precision: tickDecimals(tick), minMove: tick } as const;
    this.candles.applyOptions({ priceFormat });
    this.line.applyOptions({ priceFormat });
  }

  private mainPoint(bar: Bar) {
    return this.chartType === 'line'
      ? { time: toTime(bar.time), value: bar.close }
      : {
          time: toTime(bar.time),
          open: bar.open,
          high: bar.high,
          low: bar.low,
          close: bar.close,
        };
  }

  private volumePoint(bar: Bar) {
    return {
      time: toTime(bar.time),
      value: bar.volume,
      color: barDirection(bar) === 1 ? this.colors.volumeUp : this.colors.volumeDown,
    };
  }

  private setSeriesData(): void {
    (this.main as ISeriesApi<'Candlestick'>).setData(
      this.bars.map((b) => this.mainPoint(b)) as Parameters<
        ISeriesApi<'Candlestick'>['setData']
      >[0],
    );
    this.volume.setData(this.bars.map((b) => this.volumePoint(b)));
    this.drawnIndex = this.bars.length - 1;
    for (const listener of this.barListeners) listener.reset(this.bars);
    // the bars the markers are measured by changed
    if (this.markers.length > 0) this.drawMarkers();
  }

  private onLiveTicks(ticks: readonly Tick[]): void {
    const source = this.source;
    if (!source || this.status.getState().phase !== 'ready') return;
    // in a replay the ticks go to the hidden bars; nothing is drawn
    const bars = this.allBars ?? this.bars;
    let changed = false;
    for (const tick of ticks) {
      const merged = mergeTick(bars.at(-1) ?? null, tick, source.period);
      if (merged.kind === 'stale') continue;
      if (merged.kind === 'new') bars.push(merged.bar);
      else bars[bars.length - 1] = merged.bar;
      changed = true;
    }
    if (changed && this.allBars === null) this.redraw.schedule();
  }

  /** Hands the bars changed since the last draw to the series, in time order. */
  private drawLive(): void {
    if (this.disposed || this.bars.length === 0) return;
    const from = Math.max(this.drawnIndex, 0);
    for (let i = from; i < this.bars.length; i++) {
      const bar = this.bars[i]!;
      (this.main as ISeriesApi<'Candlestick'>).update(
        this.mainPoint(bar) as Parameters<ISeriesApi<'Candlestick'>['update']>[0],
      );
      this.volume.update(this.volumePoint(bar));
    }
    for (const listener of this.barListeners) listener.update(this.bars, from);
    this.drawnIndex = this.bars.length - 1;
    if (!this.hovering) this.showNewestInLegend();
    this.updateDataset();
  }

  private showNewestInLegend(): void {
    const n = this.bars.length;
    this.legend.setState({
      bar: this.bars[n - 1] ?? null,
      previousClose: this.bars[n - 2]?.close ?? null,
      hovered: false,
      index: n > 0 ? n - 1 : null,
    });
  }

  private readonly onCrosshair = (param: MouseEventParams<Time>): void => {
    this.hoverMarkers(param);
    const index = param.logical === undefined ? -1 : Math.round(param.logical);
    const bar = param.point && param.time !== undefined ? this.bars[index] : undefined;
    if (!bar) {
      if (this.hovering) {
        this.hovering = false;
        this.showNewestInLegend();
      }
      return;
    }
    this.hovering = true;
    this.legend.setState({
      bar,
      previousClose: this.bars[index - 1]?.close ?? null,
      hovered: true,
      index,
    });
  };

  /** Details of the marker under the pointer; a pinned one stays until the next click. */
  private hoverMarkers(param: MouseEventParams<Time>): void {
    if (this.markerDetails.getState()?.pinned) return;
    const markers = param.point ? this.markersAt(param.hoveredObjectId, undefined) : [];
    this.markerDetails.setState(
      markers.length > 0 && param.point
        ? { markers, x: param.point.x, y: param.point.y, pinned: false }
        : null,
      true,
    );
  }

  private readonly onClick = (param: MouseEventParams<Time>): void => {
    const markers = param.point ? this.markersAt(param.hoveredObjectId, param.time) : [];
    this.markerDetails.setState(
      markers.length > 0 && param.point
        ? { markers, x: param.point.x, y: param.point.y, pinned: true }
        : null,
      true,
    );
  };

  private readonly onRange = (range: LogicalRange | null): void => {
    if (!range) return;
    // zoomed: the markers' labels are fitted again
    const spacing = this.barSpacing();
    if (this.markers.length > 0 && Math.abs(spacing - this.markerSpacing) > 0.05 * spacing) {
      this.drawMarkers();
    }
    // From the controller's bars: the chart's own time range throws while it has none.
    const visible = visibleBarTimes(this.bars, range);
    this.container.dataset.visibleFrom = visible ? String(visible.from) : '';
    this.container.dataset.visibleTo = visible ? String(visible.to) : '';
    if (range.from < HISTORY_TRIGGER_BARS) void this.loadOlder();
  };

  /** Data attributes that let end-to-end tests see the state without reading pixels. */
  private updateDataset(): void {
    const d = this.container.dataset;
    d.phase = this.status.getState().phase;
    d.bars = String(this.bars.length);
    d.symbol = this.source?.symbol ?? '';
    d.period = this.source?.period ?? '';
    d.oldest = this.bars[0] ? String(this.bars[0].time / 1000) : '';
    d.newest = this.bars.at(-1) ? String(this.bars.at(-1)!.time / 1000) : '';
    d.replayCursor = this.replayCursor === null ? '' : String(this.replayCursor / 1000);
    d.forming = this.forming ? String(this.forming.time / 1000) : '';
    d.formingClose = this.forming ? String(this.forming.close) : '';
  }
}
