import { LineChartOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import type { KeyboardEvent } from 'react';
import { messages } from '../../../i18n/messages';
import type { ChartCell } from './store';

const w = messages.workspace;

/** One chart of the grid. Until the chart issue draws charts, it invites to pick a symbol. */
export function ChartCellView({
  cell,
  index,
  active,
  onActivate,
}: {
  cell: ChartCell;
  index: number;
  active: boolean;
  onActivate?: () => void;
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
      onClick={onActivate}
      onKeyDown={onActivate ? onKeyDown : undefined}
    >
      {cell.symbol === null && (
        <div className="chart-empty">
          <LineChartOutlined className="chart-empty-icon" aria-hidden="true" />
          <Typography.Text strong>{w.noSymbol}</Typography.Text>
          <Typography.Text type="secondary">{w.noSymbolHint}</Typography.Text>
        </div>
      )}
    </section>
  );
}
