import { Spin } from 'antd';
import { messages } from '../../i18n/messages';
import { Toolbar } from '../workspace/Toolbar';

/**
 * /chart and /d. The chart issue loads the instrument groups, the instrument of the
 * instrumentId query and the strategy template here; until all three are present the
 * spec's loader shows, which for now is always.
 */
export function ChartPage() {
  return (
    <div className="chart-page">
      <Toolbar showLayout={false} />
      <main className="chart-page-main" aria-busy="true">
        <Spin size="large" />
        <p className="chart-page-loading" role="status">
          {messages.chartPage.loading}
        </p>
      </main>
    </div>
  );
}
