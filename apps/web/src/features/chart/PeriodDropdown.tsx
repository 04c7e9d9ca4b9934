import type { Period } from '@ct/domain';
import { Select } from 'antd';
import { messages } from '../../i18n/firstScreen';
import { periodOptions } from './periods';

/** The compact period selector of narrow charts and phones: a borderless dropdown. */
export function PeriodDropdown({
  value,
  onChange,
}: {
  value: Period;
  onChange: (period: Period) => void;
}) {
  return (
    <Select<Period>
      className="period-select"
      aria-label={messages.chart.period}
      value={value}
      onChange={onChange}
      variant="borderless"
      popupMatchSelectWidth={false}
      options={periodOptions()}
    />
  );
}
