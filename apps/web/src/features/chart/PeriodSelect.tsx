import type { Period } from '@ct/domain';
import { Suspense } from 'react';
import { messages } from '../../i18n/firstScreen';
import { lazyAfterFirstChart } from '../../shared/firstChart';
import { Segmented } from '../../shared/Segmented';
import { SelectStandIn } from './InstrumentSelect';
import { periodLabel, periodOptions } from './periods';

// antd's Select follows the first drawn chart, as the instrument selector (InstrumentSelect).
const PeriodDropdown = lazyAfterFirstChart(() =>
  import('./PeriodDropdown').then((m) => ({ default: m.PeriodDropdown })),
);

/**
 * The period selector: every period as a segment where the chart is wide enough, a
 * compact dropdown in narrow charts and on phones.
 */
export function PeriodSelect({
  value,
  onChange,
  compact = false,
}: {
  value: Period;
  onChange: (period: Period) => void;
  compact?: boolean;
}) {
  if (compact) {
    const label = periodLabel(value);
    return (
      <Suspense fallback={<SelectStandIn className="period-select-standin" value={label} />}>
        <PeriodDropdown value={value} onChange={onChange} />
      </Suspense>
    );
  }
  return (
    <Segmented<Period>
      className="period-segmented"
      aria-label={messages.chart.period}
      value={value}
      onChange={onChange}
      options={periodOptions()}
    />
  );
}
