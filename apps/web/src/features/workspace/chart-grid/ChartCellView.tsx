import type { KeyboardEvent } from 'react';
import { messages } from '../../../i18n/firstScreen';
import { TradingChart } from '../../chart';
import { setChartPeriod, setChartSymbol, setChartType } from '../../../shared/chartGrid';
import type { ChartCell } from '../../../shared/chartGrid';

const w = messages.workspace;

/** One chart of the grid: its own instrument, period and chart type, kept per cell. */
export function ChartCellView({
  cell,
  index,
  active,
  onActivate,
  mobile = false,
}: {
  cell: ChartCell;
  index: number;
  active: boolean;
  onActivate?: () => void;
  mobile?: boolean;
}) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      onActivate?.();
    }
  };
  return (
    <section
      className={active ? 'chart-cell chart-cell-active' : 'chart-cell'}
      aria-label={w.chartCell(index + 1)}
      aria-current={active ? 'true' : undefined}
      data-chart-id={cell.id}
      tabIndex={onActivate ? 0 : undefined}
      // Capture: a click on any control of the chart activates it before the control acts.
      onClickCapture={onActivate}
      onKeyDown={onActivate ? onKeyDown : undefined}
    >
      <TradingChart
        chartId={cell.id}
        symbol={cell.symbol}
        period={cell.period}
        chartType={cell.chartType}
        onSymbolChange={(symbol) => setChartSymbol(cell.id, symbol)}
        onPeriodChange={(period) => setChartPeriod(cell.id, period)}
        onChartTypeChange={(type) => setChartType(cell.id, type)}
        mobile={mobile}
      />
    </section>
  );
}
