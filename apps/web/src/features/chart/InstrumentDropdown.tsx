import type { InstrumentGroup } from '@ct/domain';
import { Empty, Select } from 'antd';
import { useMemo } from 'react';
import { messages } from '../../i18n/firstScreen';
import { useInstrumentStore } from '../../market/instruments';
import { matchRank } from './instrumentSearch';

const m = messages.chart;

type Option = { value: string; label: React.ReactNode; search: string };

/** The wide layout's instrument selector: antd's Select with search, grouped by market. */
export function InstrumentDropdown({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (symbol: string) => void;
}) {
  const groups = useInstrumentStore((s) => s.groups);
  const options = useMemo(
    () =>
      (groups ?? []).map((g: InstrumentGroup) => ({
        label: g.name,
        title: g.name,
        options: g.children.map<Option>((c) => ({
          value: c.id,
          search: `${c.id} ${c.name}`.toLowerCase(),
          label: (
            <span className="instrument-option">
              <span className="instrument-option-symbol">{c.id}</span>
              <span className="instrument-option-name">{c.name}</span>
            </span>
          ),
        })),
      })),
    [groups],
  );
  return (
    <Select<string, Option>
      className="instrument-select"
      aria-label={m.instrument}
      value={value ?? undefined}
      placeholder={m.selectInstrument}
      loading={groups === null}
      options={options as never}
      onChange={onChange}
      showSearch={{
        filterOption: (input, option) =>
          option?.search?.includes(input.trim().toLowerCase()) ?? false,
        filterSort: (a, b, { searchValue }) => {
          const q = searchValue.trim().toLowerCase();
          // Groups come through here too (no value): they keep their order.
          const rank = (o: Option) =>
            typeof o.value === 'string' ? (matchRank(o.value, o.search ?? '', q) ?? 3) : 0;
          return rank(a) - rank(b);
        },
      }}
      labelRender={(props) => <span className="instrument-select-value">{props.value}</span>}
      popupMatchSelectWidth={320}
      listHeight={360}
      variant="borderless"
      notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={m.noInstruments} />}
    />
  );
}
