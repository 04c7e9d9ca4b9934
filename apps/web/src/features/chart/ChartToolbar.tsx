import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CodeOutlined,
  ColumnWidthOutlined,
  LineChartOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import Icon from '@ant-design/icons';
import type { Period } from '@ct/domain';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { messages } from '../../i18n/messages';
import type { ChartType } from '../workspace/chart-grid/store';
import { useCodeEditorHook } from './codeEditorHook';
import { emitChartTradeAction } from './tradeAction';

const m = messages.chart;

/** Two candles with wicks: antd has no candlestick icon. */
function CandlesSvg() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden="true">
      <rect x="7.25" y="2" width="1.5" height="20" rx="0.75" />
      <rect x="4.5" y="6" width="7" height="11" rx="1" />
      <rect x="16.25" y="4" width="1.5" height="14" rx="0.75" />
      <rect x="13.5" y="8" width="7" height="6" rx="1" fillOpacity="0.55" />
    </svg>
  );
}

function Tool({
  title,
  label,
  icon,
  onClick,
  pressed,
  disabled,
  className,
}: {
  title: string;
  label?: string;
  icon: ReactNode;
  onClick?: () => void;
  pressed?: boolean;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <Tooltip title={title} placement="right" mouseEnterDelay={0.3}>
      <Button
        type="text"
        className={`chart-tool ${className ?? ''}`}
        aria-label={label ?? title}
        aria-pressed={pressed}
        icon={icon}
        disabled={disabled}
        onClick={onClick}
      />
    </Tooltip>
  );
}

/**
 * The chart's left toolbar: chart type, zoom, one-click Buy and Sell (chart trade
 * action for the trading panel) and the code editor button (not on phones).
 */
export function ChartToolbar({
  chartId,
  symbol,
  period,
  chartType,
  onChartType,
  onFitContent,
  onResetZoom,
  mobile = false,
}: {
  chartId: string;
  symbol: string | null;
  period: Period;
  chartType: ChartType;
  onChartType: (type: ChartType) => void;
  onFitContent: () => void;
  onResetZoom: () => void;
  mobile?: boolean;
}) {
  const openEditor = useCodeEditorHook((s) => s.open);
  const trade = (tradeAction: 'buy' | 'sell') => {
    if (symbol) emitChartTradeAction({ chartId, symbol, tradeAction });
  };
  return (
    <div className="chart-tools" role="toolbar" aria-label={m.tools} aria-orientation="vertical">
      <Tool
        title={m.candles}
        icon={<Icon component={CandlesSvg} />}
        pressed={chartType === 'candles'}
        onClick={() => onChartType('candles')}
      />
      <Tool
        title={m.line}
        icon={<LineChartOutlined />}
        pressed={chartType === 'line'}
        onClick={() => onChartType('line')}
      />
      <span className="chart-tools-divider" aria-hidden="true" />
      <Tool title={m.fitContent} icon={<ColumnWidthOutlined />} onClick={onFitContent} />
      <Tool title={m.resetZoom} icon={<UndoOutlined />} onClick={onResetZoom} />
      <span className="chart-tools-divider" aria-hidden="true" />
      <Tool
        title={m.buy}
        label={symbol ? m.buySymbol(symbol) : m.buy}
        icon={<ArrowUpOutlined />}
        className="chart-tool-buy"
        disabled={!symbol}
        onClick={() => trade('buy')}
      />
      <Tool
        title={m.sell}
        label={symbol ? m.sellSymbol(symbol) : m.sell}
        icon={<ArrowDownOutlined />}
        className="chart-tool-sell"
        disabled={!symbol}
        onClick={() => trade('sell')}
      />
      {!mobile && (
        <>
          <span className="chart-tools-divider" aria-hidden="true" />
          <Tool
            title={openEditor ? m.codeEditor : m.codeEditorSoon}
            label={m.codeEditor}
            icon={<CodeOutlined />}
            disabled={!openEditor || !symbol}
            onClick={() => symbol && openEditor?.({ chartId, symbol, period })}
          />
        </>
      )}
    </div>
  );
}
