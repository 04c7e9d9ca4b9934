import { theme } from 'antd';
import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { canDrawCharts } from '../../shared/canvas';
import { chartColorsFrom, figureChartOptions, type ChartColors } from '../../shared/chartTheme';
import { CHART_POINTS, MAX_LINE_CHARTS, pushCapped, randomVolume } from './logic';
import type { PriceSampler, Sample } from './sampler';
import { useSampleStore } from './sampler';
import { perfTest as messages } from '../../i18n/defaults/perfTest';

const labels = messages.perfTest;

/** Samples folded into one candle of the candlestick chart. */
const SAMPLES_PER_CANDLE = 5;

type Kind = 'line' | 'candles' | 'volume';

type ChartData = {
  index: number;
  inCandle: number;
  /** Whether the points so far are simulated (null before the first). */
  simulated: boolean | null;
  line: { time: UTCTimestamp; value: number }[];
  candles: { time: UTCTimestamp; open: number; high: number; low: number; close: number }[];
  bars: { time: UTCTimestamp; value: number; color: string }[];
};

function baseOptions(colors: ChartColors) {
  return {
    ...figureChartOptions(colors),
    // sample numbers, not clock times: several samples share a second
    timeScale: { borderColor: colors.border, visible: false },
    crosshair: { horzLine: { labelVisible: true }, vertLine: { labelVisible: false } },
  };
}

/**
 * One small chart of the page, fed imperatively by the sampler (never through React state
 * tick by tick): a line of one symbol (50 points), candles of one symbol (30) or the
 * volume bars on random data (30).
 */
function SampledChart({
  kind,
  symbol,
  sampler,
  title,
}: {
  kind: Kind;
  symbol: string;
  sampler: PriceSampler;
  title: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const simulated = useSampleStore((s) => s.bySymbol[symbol]?.simulated ?? true);
  // The points outlive the chart object: a theme change draws a new chart with the same data.
  const data = useRef<ChartData>({
    index: 0,
    inCandle: 0,
    simulated: null,
    line: [],
    candles: [],
    bars: [],
  });

  useEffect(() => {
    const element = container.current;
    if (!element || !canDrawCharts()) return;
    const colors = chartColorsFrom(token);
    let chart: IChartApi;
    try {
      chart = createChart(element, baseOptions(colors));
    } catch (error) {
      console.warn('The chart could not be created', error);
      return;
    }
    let series: ISeriesApi<SeriesType>;
    if (kind === 'line') {
      series = chart.addSeries(LineSeries, { color: colors.line, lineWidth: 2 });
    } else if (kind === 'candles') {
      series = chart.addSeries(CandlestickSeries, {
        upColor: colors.up,
        downColor: colors.down,
        borderVisible: false,
        wickUpColor: colors.up,
        wickDownColor: colors.down,
      });
    } else {
      series = chart.addSeries(HistogramSeries, {
        priceFormat: { type: 'volume' },
        color: colors.volumeUp,
      });
    }
    const d = data.current;
    const draw = () => {
      series.setData(kind === 'line' ? d.line : kind === 'candles' ? d.candles : d.bars);
      chart.timeScale().fitContent();
    };
    draw();
    const onSamples = (samples: readonly Sample[]) => {
      const sample = samples.find((s) => s.symbol === symbol);
      if (!sample) return;
      if (d.simulated !== null && d.simulated !== sample.simulated) {
        // live prices arrived (or stopped): simulated and live points do not share a scale
        d.line = [];
        d.candles = [];
        d.inCandle = 0;
      }
      d.simulated = sample.simulated;
      if (kind === 'line') {
        d.index += 1;
        d.line = pushCapped(
          d.line,
          { time: d.index as UTCTimestamp, value: sample.price },
          CHART_POINTS.line,
        );
        draw();
        return;
      }
      const last = d.candles.at(-1);
      if (!last || d.inCandle >= SAMPLES_PER_CANDLE) {
        d.index += 1;
        d.inCandle = 0;
        const open = last?.close ?? sample.price;
        d.candles = pushCapped(
          d.candles,
          {
            time: d.index as UTCTimestamp,
            open,
            high: Math.max(open, sample.price),
            low: Math.min(open, sample.price),
            close: sample.price,
          },
          CHART_POINTS.candlestick,
        );
        d.bars = pushCapped(
          d.bars,
          {
            time: d.index as UTCTimestamp,
            value: randomVolume(Math.random),
            color: sample.price >= open ? colors.volumeUp : colors.volumeDown,
          },
          CHART_POINTS.volume,
        );
      } else {
        d.candles = [
          ...d.candles.slice(0, -1),
          {
            ...last,
            high: Math.max(last.high, sample.price),
            low: Math.min(last.low, sample.price),
            close: sample.price,
          },
        ];
      }
      d.inCandle += 1;
      draw();
    };
    const stop = sampler.onSamples(onSamples);
    return () => {
      stop();
      chart.remove();
    };
  }, [kind, symbol, sampler, token]);

  return (
    <figure className="perf-chart">
      <figcaption>
        <span>{title}</span>
        {kind !== 'volume' && (
          <span className={simulated ? 'perf-tag perf-tag-sim' : 'perf-tag perf-tag-live'}>
            {simulated ? labels.simulated : labels.live}
          </span>
        )}
      </figcaption>
      <div
        ref={container}
        className="perf-chart-canvas"
        role="img"
        aria-label={title}
        data-testid={`perf-chart-${kind}`}
      />
    </figure>
  );
}

/** Up to 4 line charts, a candlestick chart and the random-data volume chart. */
export function PriceCharts({
  symbols,
  sampler,
}: {
  symbols: readonly string[];
  sampler: PriceSampler;
}) {
  const main = symbols[0] ?? 'BTCUSDT';
  return (
    <div className="perf-charts">
      {symbols.slice(0, MAX_LINE_CHARTS).map((symbol) => (
        <SampledChart
          key={symbol}
          kind="line"
          symbol={symbol}
          sampler={sampler}
          title={labels.lineChart(symbol)}
        />
      ))}
      <SampledChart
        kind="candles"
        symbol={main}
        sampler={sampler}
        title={labels.candleChart(main)}
      />
      <SampledChart kind="volume" symbol={main} sampler={sampler} title={labels.volumeChart} />
    </div>
  );
}
