import type { Period } from '@ct/domain';
import { Segmented, Select } from 'antd';
import { messages } from '../../i18n/messages';
import { CHART_PERIODS } from './periods';

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
    return (
      <Select<Period>
        className="period-select"
        aria-label={messages.chart.period}
        value={value}
        onChange={onChange}
        variant="borderless"
        popupMatchSelectWidth={false}
        options={CHART_PERIODS.map((p) => ({ value: p.value, label: p.label, title: p.title }))}
      />
    );
  }
  return (
    <Segmented<Period>
      className="period-segmented"
      aria-label={messages.chart.period}
      size="small"
      value={value}
      onChange={onChange}
      options={CHART_PERIODS.map((p) => ({ value: p.value, label: p.label, title: p.title }))}
    />
  );
}
