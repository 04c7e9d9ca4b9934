import type { GlobalToken } from 'antd';
import { ColorType, type DeepPartial, type LayoutOptions } from 'lightweight-charts';

/** Colours of a chart, taken from the antd theme so charts switch theme with the page. */
export type ChartColors = {
  background: string;
  text: string;
  grid: string;
  border: string;
  crosshair: string;
  crosshairLabel: string;
  /** Rising bars, buy: the one green of the app. */
  up: string;
  /** Falling bars, sell: the one red of the app. */
  down: string;
  volumeUp: string;
  volumeDown: string;
  line: string;
  fontFamily: string;
};

/** A CSS colour (#rgb, #rrggbb, rgb()/rgba()) with another opacity; unknown forms unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (hex) {
    const h = hex[1]!;
    const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
    return `rgba(${r}, ${g}, ${b}, ${alpha})`;
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(color.trim());
  if (rgb) return `rgba(${rgb[1]}, ${rgb[2]}, ${rgb[3]}, ${alpha})`;
  return color;
}

export function chartColorsFrom(token: GlobalToken): ChartColors {
  return {
    background: token.colorBgContainer,
    text: token.colorTextSecondary,
    grid: token.colorFillQuaternary,
    border: token.colorBorderSecondary,
    crosshair: token.colorTextTertiary,
    crosshairLabel: token.colorTextSecondary,
    up: token.colorSuccess,
    down: token.colorError,
    volumeUp: withAlpha(token.colorSuccess, 0.45),
    volumeDown: withAlpha(token.colorError, 0.45),
    line: token.colorPrimary,
    fontFamily: token.fontFamily,
  };
}

/** The layout (background, text, font) of every chart in the app's theme colours. */
export function chartLayout(colors: ChartColors): DeepPartial<LayoutOptions> {
  return {
    background: { type: ColorType.Solid, color: colors.background },
    textColor: colors.text,
    fontSize: 11,
    fontFamily: colors.fontFamily,
  };
}

/**
 * The options of a small chart of figures (an equity curve, a comparison, a sample strip):
 * the app's colours, fixed in place (no scroll or zoom), times to the minute; no logo of the
 * library on it (the price chart's corner links TradingView for the page, as its licence allows).
 */
export function figureChartOptions(colors: ChartColors) {
  return {
    autoSize: true,
    layout: { ...chartLayout(colors), attributionLogo: false },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.border },
    timeScale: { borderColor: colors.border, timeVisible: true, secondsVisible: false },
    handleScroll: false,
    handleScale: false,
  };
}
