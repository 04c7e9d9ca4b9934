import { pickInstrument, type Period } from '@ct/domain';
import { Spinner } from '../../shared/Spinner';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useBreakpoint, usesNarrowLayout } from '../../shared/breakpoints';
import { shell as messages } from '../../i18n/defaults/shell';
import { AssistantLauncher } from '../assistant';
import type { ChartType } from '../../shared/chartGrid';
import { Toolbar } from './Toolbar';
import { loadInstrumentGroups, useInstrumentStore } from '../../market/instruments';
import { loadStrategyTemplate, useTemplateCode } from '../strategy';
import { TradingChart } from '../chart';

/** The chart of the chart page; frames and the workbench address it by this id. */
export const CHART_PAGE_ID = 'chart-page';
const DEFAULT_PERIOD: Period = '15m';

/**
 * /chart and /d: loads the instrument groups and the strategy template, picks the
 * instrument of the instrumentId query (else BTCUSDT, else the first instrument), and
 * shows the spec's loader until all three are present. Load failures are only logged
 * and the page stays on its loader (spec section 8).
 */
export function ChartPage() {
  const [params, setParams] = useSearchParams();
  const groups = useInstrumentStore((s) => s.groups);
  const template = useTemplateCode();
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  const [chartType, setChartType] = useState<ChartType>('candles');
  const mobile = usesNarrowLayout(useBreakpoint());

  useEffect(() => {
    loadInstrumentGroups().catch((error: unknown) =>
      console.error('Loading the instrument groups failed', error),
    );
    loadStrategyTemplate().catch((error: unknown) =>
      console.error('Loading the strategy template failed', error),
    );
  }, []);

  const asked = params.get('instrumentId');
  const symbol = groups ? pickInstrument(groups, asked) : null;

  if (!groups || symbol === null || template === null) {
    return (
      <div className="chart-page">
        <Toolbar showLayout={false} />
        <main className="chart-page-main" aria-busy="true">
          <Spinner size="large" />
          <p className="chart-page-loading" role="status">
            {messages.chartPage.loading}
          </p>
        </main>
      </div>
    );
  }

  const changeSymbol = (next: string) => {
    const updated = new URLSearchParams(params);
    updated.set('instrumentId', next);
    setParams(updated, { replace: true });
  };

  return (
    <div className="chart-page">
      <Toolbar showLayout={false} />
      <main className="chart-page-chart">
        <TradingChart
          chartId={CHART_PAGE_ID}
          symbol={symbol}
          period={period}
          chartType={chartType}
          onSymbolChange={changeSymbol}
          onPeriodChange={setPeriod}
          onChartTypeChange={setChartType}
          mobile={mobile}
        />
      </main>
      <AssistantLauncher chart={{ id: CHART_PAGE_ID, symbol, period }} />
    </div>
  );
}
