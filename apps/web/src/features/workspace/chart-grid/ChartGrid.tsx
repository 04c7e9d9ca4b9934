import { useShallow } from 'zustand/react/shallow';
import { ChartCellView } from './ChartCellView';
import { setActiveChart, useChartGridStore, visibleCharts } from '../../../shared/chartGrid';

/** The chart grid: 1, 2 or 4 cells; the active cell has a highlighted border. */
export function ChartGrid() {
  const { charts, activeId, layout } = useChartGridStore(
    useShallow((s) => ({ charts: s.charts, activeId: s.activeChartId, layout: s.layout })),
  );
  const cells = visibleCharts({ charts, layout });
  return (
    <div className={`chart-grid chart-grid-${layout}`}>
      {cells.map((cell, index) => (
        <ChartCellView
          key={cell.id}
          cell={cell}
          index={index}
          active={cell.id === activeId}
          onActivate={() => setActiveChart(cell.id)}
        />
      ))}
    </div>
  );
}
