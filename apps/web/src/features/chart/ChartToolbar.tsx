import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CodeOutlined,
  ColumnWidthOutlined,
  EllipsisOutlined,
  FieldTimeOutlined,
  FundOutlined,
  LineChartOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import Icon from '@ant-design/icons';
import type { Period } from '@ct/domain';
import { Button } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { messages } from '../../i18n/firstScreen';
import { LazyDropdown } from '../../shared/antd/LazyDropdown';
import { LazyTooltip } from '../../shared/antd/LazyTooltip';
import type { ChartType } from '../../shared/chartGrid';
import { useCodeEditorHook } from '../strategy';
import { toolsThatFit, type ToolbarEntry } from './toolbarLayout';
import { emitChartTradeAction } from '../../shared/tradeAction';

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
    <LazyTooltip title={title} placement="right" mouseEnterDelay={0.3}>
      <Button
        type="text"
        className={`chart-tool ${className ?? ''}`}
        aria-label={label ?? title}
        aria-pressed={pressed}
        icon={icon}
        disabled={disabled}
        onClick={onClick}
      />
    </LazyTooltip>
  );
}

type ToolSpec = {
  key: string;
  title: string;
  label?: string;
  icon: ReactNode;
  onClick?: () => void;
  pressed?: boolean;
  disabled?: boolean;
  className?: string;
  /** Starts a new group: a divider comes before it. */
  group?: boolean;
};

/** Space between two buttons and the dividers' margins (chart.css). */
const GAP_PX = 2;
const DIVIDER_PX = 1 + 2 * 4;
const PADDING_PX = 2 * 4;

/**
 * The toolbar's height and its buttons' height in px; null until measured (or where the
 * browser cannot tell, as in test DOMs).
 */
function useToolbarRoom(ref: React.RefObject<HTMLElement | null>) {
  const [room, setRoom] = useState<{ height: number; tool: number } | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => {
      const button = el.querySelector<HTMLElement>('.chart-tool');
      const height = el.clientHeight;
      if (height > 0 && button && button.offsetHeight > 0) {
        setRoom((old) =>
          old?.height === height && old.tool === button.offsetHeight
            ? old
            : { height, tool: button.offsetHeight },
        );
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return room;
}

/**
 * The chart's left toolbar: chart type, zoom, one-click Buy and Sell (chart trade
 * action for the trading panel) and the code editor button (not on phones). Tools that
 * do not fit the chart's height go into a 'More tools' menu at its end.
 */
export function ChartToolbar({
  chartId,
  symbol,
  period,
  chartType,
  onChartType,
  onFitContent,
  onResetZoom,
  onIndicators,
  onReplay,
  replaying = false,
  drawingTools = [],
  mobile = false,
}: {
  chartId: string;
  symbol: string | null;
  period: Period;
  chartType: ChartType;
  onChartType: (type: ChartType) => void;
  onFitContent: () => void;
  onResetZoom: () => void;
  /** Opens the chart's indicator list. */
  onIndicators?: () => void;
  /** Opens or leaves the bar replay (features/replay). */
  onReplay?: () => void;
  replaying?: boolean;
  /** The drawing tools' buttons (chart/drawings), after the others. */
  drawingTools?: readonly ToolSpec[];
  mobile?: boolean;
}) {
  const openEditor = useCodeEditorHook((s) => s.open);
  const ref = useRef<HTMLDivElement>(null);
  const room = useToolbarRoom(ref);
  const trade = (tradeAction: 'buy' | 'sell') => {
    if (symbol) emitChartTradeAction({ chartId, symbol, tradeAction });
  };
  const tools: ToolSpec[] = [
    {
      key: 'candles',
      title: m.candles,
      icon: <Icon component={CandlesSvg} />,
      pressed: chartType === 'candles',
      onClick: () => onChartType('candles'),
    },
    {
      key: 'line',
      title: m.line,
      icon: <LineChartOutlined />,
      pressed: chartType === 'line',
      onClick: () => onChartType('line'),
    },
    {
      key: 'fit',
      title: m.fitContent,
      icon: <ColumnWidthOutlined />,
      onClick: onFitContent,
      group: true,
    },
    { key: 'reset', title: m.resetZoom, icon: <UndoOutlined />, onClick: onResetZoom },
    {
      key: 'indicators',
      title: messages.indicators.button,
      icon: <FundOutlined />,
      disabled: !onIndicators,
      onClick: onIndicators,
      group: true,
    },
    {
      key: 'replay',
      title: m.replay,
      icon: <FieldTimeOutlined />,
      pressed: replaying,
      disabled: !onReplay || !symbol,
      onClick: onReplay,
    },
    {
      key: 'buy',
      title: m.buy,
      label: symbol ? m.buySymbol(symbol) : m.buy,
      icon: <ArrowUpOutlined />,
      className: 'chart-tool-buy',
      disabled: !symbol,
      onClick: () => trade('buy'),
      group: true,
    },
    {
      key: 'sell',
      title: m.sell,
      label: symbol ? m.sellSymbol(symbol) : m.sell,
      icon: <ArrowDownOutlined />,
      className: 'chart-tool-sell',
      disabled: !symbol,
      onClick: () => trade('sell'),
    },
  ];
  if (!mobile) {
    tools.push({
      key: 'code',
      title: openEditor ? m.codeEditor : m.codeEditorSoon,
      label: m.codeEditor,
      icon: <CodeOutlined />,
      disabled: !openEditor || !symbol,
      onClick: () => symbol && openEditor?.({ chartId, symbol, period }),
      group: true,
    });
  }
  tools.push(...drawingTools);

  // Entries in order: each tool, with a divider before the first of a group.
  const entries: { entry: ToolbarEntry; tool?: ToolSpec }[] = tools.flatMap((tool) =>
    tool.group
      ? [{ entry: { kind: 'divider' as const } }, { entry: { kind: 'tool' as const }, tool }]
      : [{ entry: { kind: 'tool' as const }, tool }],
  );
  const shown = room
    ? toolsThatFit(
        // phones: the assistant's button sits in the price scale column, not here
        room.height,
        entries.map((e) => e.entry),
        { tool: room.tool + GAP_PX, divider: DIVIDER_PX + GAP_PX, padding: PADDING_PX },
      )
    : entries.length;
  const visible = entries.slice(0, shown);
  const hidden = entries.slice(shown).flatMap((e) => (e.tool ? [e.tool] : []));

  return (
    <div
      ref={ref}
      className="chart-tools"
      role="toolbar"
      aria-label={m.tools}
      aria-orientation="vertical"
    >
      {visible.map(({ tool }, index) =>
        tool ? (
          <Tool
            key={tool.key}
            title={tool.title}
            label={tool.label}
            icon={tool.icon}
            pressed={tool.pressed}
            disabled={tool.disabled}
            className={tool.className}
            onClick={tool.onClick}
          />
        ) : (
          <span key={`divider-${index}`} className="chart-tools-divider" aria-hidden="true" />
        ),
      )}
      {hidden.length > 0 && (
        <LazyDropdown
          placement="bottomLeft"
          menu={{
            items: hidden.map((tool) => ({
              key: tool.key,
              label: tool.label ?? tool.title,
              icon: tool.icon,
              disabled: tool.disabled,
              className: tool.pressed ? 'chart-tool-menu-pressed' : undefined,
            })),
            onClick: ({ key }) => hidden.find((tool) => tool.key === key)?.onClick?.(),
          }}
        >
          <Button
            type="text"
            className="chart-tool"
            aria-label={m.moreTools}
            title={m.moreTools}
            icon={<EllipsisOutlined />}
          />
        </LazyDropdown>
      )}
    </div>
  );
}
