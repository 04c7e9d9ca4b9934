import {
  ApiOutlined,
  ClockCircleOutlined,
  DisconnectOutlined,
  HistoryOutlined,
} from '@ant-design/icons';
import { formatPrice, lastClosedBarStart, type Bar, type Period, tickOfSymbol } from '@ct/domain';
import { Button, theme } from 'antd';
import { Spinner } from '../../shared/Spinner';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { messages } from '../../i18n/firstScreen';
import { isChildFrame, useReconnecting } from '../../realtime/connection';
import { chartClientId, registerChartActionTarget } from '../../realtime/frameActions';
import { usePriceUpdateStore } from '../../realtime/frames';
import { sharedState, useFrameSyncStore } from '../../realtime/sharedState';
import type { ChartType } from '../../shared/chartGrid';
import './chart.css';
import { ChartController, type ChartStatus } from './ChartController';
import { StrategyWorkbenchHost } from '../strategy';
import { ChartLegend, type LegendBadge } from './ChartLegend';
import { MarkerDetails } from './MarkerDetails';
import {
  mergeMarkers,
  setChartMarkers,
  useMarkersOf,
  type ChartMarker,
} from '../../shared/chartMarkers';
import { lazyAfterFirstChart } from '../../shared/firstChart';
import { chartColorsFrom } from '../../shared/chartTheme';
import { ChartToolbar } from './ChartToolbar';
import { InstrumentSelect } from './InstrumentSelect';
import { useInstrumentCatalogue, useSymbolInfo } from '../../market/instruments';
import { PeriodSelect } from './PeriodSelect';
import { formatBarTime, periodLabel } from './periods';
import { useLanguage } from '../../shared/language';
import { intlLocaleOf } from '../../i18n/texts';
import { QuoteTicker, type TickerQuote } from './QuoteTicker';
import { useReplaySync } from '../../shared/replaySync';
import { canDrawCharts } from '../../shared/canvas';
import { useIndicators } from './indicators/useIndicators';
import { useDrawings } from './drawings/useDrawings';
import { openAddAlert } from '../alerts';

// the user's alert lines and the chart's context menu (chart/alerts), after the chart itself
const ChartAlerts = lazyAfterFirstChart(() =>
  import('./alerts/ChartAlerts').then((mod) => ({ default: mod.ChartAlerts })),
);

const m = messages.chart;

// The account's trade lines and fill markers (with the trading store, its API and the price
// rules) follow the first drawn chart (shared/firstChart.ts): they come a frame after the bars.
const ChartTrades = lazyAfterFirstChart(() =>
  import('./trades/ChartTrades').then((mod) => ({ default: mod.ChartTrades })),
);
const FillMarkers = lazyAfterFirstChart(() =>
  import('./trades/fills').then((mod) => ({ default: mod.FillMarkers })),
);
// the bar replay's control bar (features/replay), when the trader opens it
const ReplayBar = lazyAfterFirstChart(() =>
  import('../replay').then((mod) => ({ default: mod.ReplayBar })),
);
const NO_MARKERS: readonly ChartMarker[] = [];
const frameTexts = messages.chartFrame;

/** Charts narrower than this show the period selector as a dropdown. */
const COMPACT_WIDTH = 640;
/** What the legend leaves free on the right of the chart: the price scale. */
const LEGEND_RIGHT_PX = 72;
/** The library's licence asks for its attribution notice and a link to TradingView. */
const ATTRIBUTION_URL = 'https://www.tradingview.com/';

const idleStatus = createStore<ChartStatus>(() => ({
  phase: 'idle',
  error: null,
  loadingHistory: false,
  historyExhausted: false,
}));

/** True while the element is narrower than `width` (re-renders only when that flips). */
function useNarrowerThan(ref: React.RefObject<HTMLElement | null>, width: number): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setNarrow(entry.contentRect.width < width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, width]);
  return narrow;
}

/** The element's width in px (to 4 px), null until it has been measured. */
function useWidth(ref: React.RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) {
        setWidth(Math.floor(entry.contentRect.width / 4) * 4);
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export type TradingChartProps = {
  chartId: string;
  symbol: string | null;
  period: Period;
  chartType: ChartType;
  onSymbolChange: (symbol: string) => void;
  onPeriodChange: (period: Period) => void;
  onChartTypeChange: (type: ChartType) => void;
  /** Phone presentation: search sheet, compact header, no code editor button. */
  mobile?: boolean;
};

/**
 * A live chart: header with instrument, period, bid/ask and session state; the left
 * toolbar; candles or a line over volume, with an OHLCV legend. Bars and ticks are owned
 * by a ChartController; this component only wires it to React.
 */
export function TradingChart({
  chartId,
  symbol,
  period,
  chartType,
  onSymbolChange,
  onPeriodChange,
  onChartTypeChange,
  mobile = false,
}: TradingChartProps) {
  useInstrumentCatalogue();
  const { token } = theme.useToken();
  const colors = useMemo(() => chartColorsFrom(token), [token]);
  const rootRef = useRef<HTMLElement>(null);
  const canvasWrapRef = useRef<HTMLDivElement>(null);
  const canvasWidth = useWidth(canvasWrapRef);
  const [controller, setController] = useState<ChartController | null>(null);
  const [unsupported, setUnsupported] = useState<string | null>(null);
  const info = useSymbolInfo(symbol);
  const tick = tickOfSymbol(info);
  const compact = useNarrowerThan(rootRef, COMPACT_WIDTH) || mobile;
  const reconnecting = useReconnecting();
  const locale = intlLocaleOf(useLanguage());

  // The chart is created when its element mounts, with the first colours and chart type;
  // later changes go through the effects below.
  const initial = useRef({ colors, chartType });
  const attachCanvas = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    if (!canDrawCharts()) {
      setUnsupported(m.noCanvas);
      return;
    }
    let created: ChartController;
    try {
      created = new ChartController(el, initial.current.colors, initial.current.chartType);
    } catch (error) {
      // Without a 2D canvas (very old browsers, test DOMs) the rest of the page still works.
      console.warn('The chart could not be created', error);
      setUnsupported(`${m.noCanvas} (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    setController(created);
    return () => {
      created.dispose();
      setController(null);
    };
  }, []);

  useEffect(() => controller?.setColors(colors), [controller, colors]);
  useEffect(() => controller?.setLocale(locale), [controller, locale]);
  useEffect(() => controller?.setChartType(chartType), [controller, chartType]);
  useEffect(() => {
    if (controller && symbol) void controller.load({ symbol, period, tick });
  }, [controller, symbol, period, tick]);

  const indicators = useIndicators(controller, chartId, colors, tick);
  const drawings = useDrawings(controller, symbol, period, tick, colors);

  const status = useStore(controller?.status ?? idleStatus);

  // Strategy deals of this chart beside the account's own fills (chart/trades).
  const dealMarkers = useMarkersOf(chartId, symbol);
  const [fillMarkers, setFillMarkers] = useState<readonly ChartMarker[]>(NO_MARKERS);
  const markers = useMemo(() => mergeMarkers(dealMarkers, fillMarkers), [dealMarkers, fillMarkers]);
  // Bar replay: the chart stops at the replay's cursor and shows only the replay's markers.
  // (kept with its instrument and period: another one leaves the replay)
  const replayOf = `${symbol ?? ''}|${period}`;
  const [replayOn, setReplayOn] = useState<string | null>(null);
  const replaying = replayOn === replayOf;
  const [replayMarkers, setReplayMarkers] = useState<readonly ChartMarker[]>(NO_MARKERS);
  useEffect(
    () => controller?.setMarkers(replaying ? replayMarkers : markers),
    [controller, markers, replaying, replayMarkers],
  );
  const onReplayCursor = useCallback(
    (cursor: number | null, forming: Bar | null) => controller?.setReplayCursor(cursor, forming),
    [controller],
  );
  const pickReplayBar = useCallback(
    (onPick: (time: number) => void, onHover: (time: number | null) => void) =>
      controller?.pickBar(onPick, onHover) ?? (() => {}),
    [controller],
  );
  // the bid/ask shows the replay's price while this chart replays
  const [replayQuote, setReplayQuote] = useState<TickerQuote | null>(null);
  // a synchronised replay led by another chart of the grid: bars closed by its moment
  const syncMoment = useReplaySync((s) =>
    s.sync && s.sync.chartId !== chartId ? s.sync.moment : null,
  );
  const following = syncMoment !== null && !replaying && status.phase === 'ready';
  const followed = useRef(false);
  useEffect(() => {
    if (!controller || replaying) return;
    if (following && syncMoment !== null) {
      controller.setReplayCursor(lastClosedBarStart(period, syncMoment));
      followed.current = true;
    } else if (followed.current) {
      followed.current = false;
      controller.setReplayCursor(null);
    }
  }, [controller, following, syncMoment, replaying, period]);
  const exitReplay = useCallback(() => setReplayOn(null), []);

  const replayTimes = useCallback(() => controller?.barTimes() ?? [], [controller]);
  const replayTime = useCallback(
    (seconds: number) => formatBarTime(seconds, period, locale),
    [period, locale],
  );

  // Chart actions of other windows (chartActions/setEvents) address this chart by client id.
  const clientId = useMemo(() => chartClientId(chartId), [chartId]);
  const symbolRef = useRef(symbol);
  useEffect(() => {
    symbolRef.current = symbol;
  }, [symbol]);
  useEffect(
    () =>
      registerChartActionTarget(clientId, {
        setEvents(events, eventSymbol) {
          const target = eventSymbol ?? symbolRef.current;
          if (target) setChartMarkers(chartId, target, events as ChartMarker[]);
        },
      }),
    [clientId, chartId],
  );
  const framed = isChildFrame();
  const syncStatus = useFrameSyncStore((s) => s.status);
  const syncError = useFrameSyncStore((s) => s.error);
  const priceUpdate = usePriceUpdateStore((s) => (symbol ? s.bySymbol[symbol] : undefined));

  const legend = controller?.legend;
  // an indicator's "Add alert" in the legend: the indicator, and the chart's others it may cross
  const readingsAt = indicators.readingsAt;
  const addIndicatorAlert = useCallback(
    (key: string) => {
      if (!symbol || !legend) return;
      const readings = readingsAt(null);
      const chosen = readings.find((r) => r.key === key);
      if (!chosen) return;
      const choice = (r: (typeof readings)[number]) => ({
        kind: r.config.kind,
        params: r.config.params,
        label: r.label,
      });
      openAddAlert({
        symbol,
        tick,
        period,
        price: legend.getState().bar?.close ?? 0,
        indicator: {
          chosen: choice(chosen),
          others: readings.filter((r) => r.key !== key).map(choice),
        },
      });
    },
    [symbol, legend, readingsAt, tick, period],
  );
  const title = symbol ? `${symbol} · ${periodLabel(period)}` : '';
  const badges: LegendBadge[] = [];
  if (info && !info.is_trading) {
    badges.push({
      key: 'closed',
      icon: <ClockCircleOutlined aria-hidden="true" />,
      text: m.marketClosed,
      hint: m.marketClosedHint,
    });
  }
  if (framed && priceUpdate) {
    badges.push({
      key: 'price-update',
      icon: <ApiOutlined aria-hidden="true" />,
      text: frameTexts.priceUpdate(formatPrice(priceUpdate.price, tick), priceUpdate.simulated),
      hint: frameTexts.priceUpdateHint,
    });
  }
  if (following) {
    badges.push({
      key: 'replay-sync',
      icon: <HistoryOutlined aria-hidden="true" />,
      text: m.replaySynced,
      hint: m.replaySyncedHint,
    });
  }
  if (reconnecting) {
    badges.push({
      key: 'reconnecting',
      icon: <DisconnectOutlined aria-hidden="true" />,
      text: m.reconnecting,
      warning: true,
    });
  }

  return (
    <section
      ref={rootRef}
      className={mobile ? 'trading-chart trading-chart-mobile' : 'trading-chart'}
      aria-label={symbol ? m.region(symbol) : undefined}
      data-chart-id={chartId}
      data-client-id={clientId}
      data-price-update={framed && priceUpdate ? priceUpdate.price : undefined}
    >
      <header className="chart-header">
        <InstrumentSelect value={symbol} onChange={onSymbolChange} mobile={mobile} />
        <PeriodSelect value={period} onChange={onPeriodChange} compact={compact} />
        {symbol && (
          <QuoteTicker symbol={symbol} tick={tick} replay={replaying ? replayQuote : null} />
        )}
      </header>
      {replaying && symbol && controller && status.phase === 'ready' && (
        <Suspense fallback={null}>
          <ReplayBar
            chartId={chartId}
            symbol={symbol}
            period={period}
            tick={tick}
            barTimes={replayTimes}
            formatTime={replayTime}
            pickBar={pickReplayBar}
            onCursor={onReplayCursor}
            onMarkers={setReplayMarkers}
            onQuote={setReplayQuote}
            onExit={exitReplay}
          />
        </Suspense>
      )}
      <div className="chart-body">
        <ChartToolbar
          chartId={chartId}
          symbol={symbol}
          period={period}
          chartType={chartType}
          onChartType={onChartTypeChange}
          onFitContent={() => controller?.fitContent()}
          onResetZoom={() => controller?.resetZoom()}
          onIndicators={indicators.open}
          onReplay={() => setReplayOn(replaying ? null : replayOf)}
          replaying={replaying}
          drawingTools={drawings.tools}
          mobile={mobile}
        />
        {!mobile && <StrategyWorkbenchHost />}
        {indicators.dialog}
        <div ref={canvasWrapRef} className="chart-canvas-wrap">
          <div ref={attachCanvas} className="chart-canvas" data-testid="chart-canvas" />
          {status.phase === 'ready' && drawings.overlay}
          {/* the trader's trades; while replaying, the replay account's */}
          {controller && symbol && status.phase === 'ready' && (
            <Suspense fallback={null}>
              <ChartTrades
                key={replaying ? 'replay' : 'own'}
                controller={controller}
                symbol={symbol}
                tick={tick}
                colors={colors}
                replayOf={replaying ? chartId : null}
              />
            </Suspense>
          )}
          {controller && symbol && status.phase === 'ready' && !framed && (
            <Suspense fallback={null}>
              <ChartAlerts controller={controller} symbol={symbol} tick={tick} period={period} />
            </Suspense>
          )}
          <Suspense fallback={null}>
            <FillMarkers
              symbol={symbol}
              period={period}
              colors={colors}
              tick={tick}
              onMarkers={setFillMarkers}
            />
          </Suspense>
          {legend && status.phase === 'ready' && (
            <ChartLegend
              store={legend}
              tick={tick}
              title={title}
              badges={badges}
              width={canvasWidth === null ? null : canvasWidth - LEGEND_RIGHT_PX}
              indicators={indicators.readingsAt}
              onAddAlert={framed ? null : addIndicatorAlert}
            />
          )}
          {controller && status.phase === 'ready' && (
            <MarkerDetails
              store={controller.markerDetails}
              period={period}
              width={canvasWidth}
              onClose={() => controller.markerDetails.setState(null, true)}
            />
          )}
          {controller && (
            // In the corner under the price scale, beside the time scale: it covers no bars.
            <a
              className="chart-attribution"
              href={ATTRIBUTION_URL}
              target="_blank"
              rel="noopener noreferrer"
              title={m.attribution}
            >
              TradingView
            </a>
          )}
          {status.loadingHistory && (
            <div className="chart-history-loading" role="status">
              <Spinner size="small" /> {m.loadingHistory}
            </div>
          )}
          {!unsupported && (status.phase === 'loading' || (status.phase === 'idle' && symbol)) && (
            <div className="chart-overlay" role="status" aria-label={m.loading}>
              <Spinner size="large" />
            </div>
          )}
          {status.phase === 'error' && (
            <div className="chart-overlay chart-overlay-error" role="alert">
              <span>
                {m.loadFailed}: {status.error}
              </span>
              <Button size="small" onClick={() => void controller?.reload()}>
                {m.retry}
              </Button>
            </div>
          )}
          {!symbol && (
            <div className="chart-overlay chart-overlay-empty">
              <strong>{messages.workspace.noSymbol}</strong>
              <span>{messages.workspace.noSymbolHint}</span>
            </div>
          )}
          {unsupported && <div className="chart-overlay chart-overlay-error">{unsupported}</div>}
          {framed && syncStatus === 'timeout' && (
            <div className="chart-frame-notice" role="alert">
              <strong>
                {frameTexts.notInMainWindow} ({syncError})
              </strong>
              <span>{frameTexts.notInMainWindowHint}</span>
              <Button size="small" onClick={() => sharedState.requestAll()}>
                {frameTexts.retry}
              </Button>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
