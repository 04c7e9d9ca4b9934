import { CheckOutlined, DownOutlined, SearchOutlined } from '@ant-design/icons';
import type { InstrumentGroup } from '@ct/domain';
import { Button, Drawer, Empty, Input, Select } from 'antd';
import { useMemo, useState } from 'react';
import { messages } from '../../i18n/messages';
import { useInstrumentStore } from '../../market/instruments';

const m = messages.chart;

/** How well an instrument matches a query: symbol prefix, symbol, name; null: no match. */
function matchRank(id: string, name: string, q: string): number | null {
  const symbol = id.toLowerCase();
  if (symbol.startsWith(q)) return 0;
  if (symbol.includes(q)) return 1;
  if (name.toLowerCase().includes(q)) return 2;
  return null;
}

/**
 * Groups with only the instruments whose symbol or name contains the query, symbol
 * matches first within each group; groups without a match are left out.
 */
export function filterGroups(groups: readonly InstrumentGroup[], query: string): InstrumentGroup[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...groups];
  return groups
    .map((g) => ({
      ...g,
      children: g.children
        .map((c) => ({ c, rank: matchRank(c.id, c.name, q) }))
        .filter((x): x is { c: typeof x.c; rank: number } => x.rank !== null)
        .sort((a, b) => a.rank - b.rank)
        .map((x) => x.c),
    }))
    .filter((g) => g.children.length > 0);
}

type Props = {
  value: string | null;
  onChange: (symbol: string) => void;
  /** Phones get the search sheet instead of the dropdown. */
  mobile?: boolean;
};

/** The instrument search selector, grouped by market (spec section 2, chart screen). */
export function InstrumentSelect({ value, onChange, mobile = false }: Props) {
  return mobile ? (
    <InstrumentSheet value={value} onChange={onChange} />
  ) : (
    <InstrumentDropdown value={value} onChange={onChange} />
  );
}

type Option = { value: string; label: React.ReactNode; search: string };

function InstrumentDropdown({ value, onChange }: Omit<Props, 'mobile'>) {
  const groups = useInstrumentStore((s) => s.groups);
  const options = useMemo(
    () =>
      (groups ?? []).map((g) => ({
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

function InstrumentSheet({ value, onChange }: Omit<Props, 'mobile'>) {
  const groups = useInstrumentStore((s) => s.groups);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterGroups(groups ?? [], query), [groups, query]);
  const pick = (symbol: string) => {
    setOpen(false);
    setQuery('');
    if (symbol !== value) onChange(symbol);
  };
  return (
    <>
      <Button
        className="instrument-sheet-button"
        type="text"
        aria-label={`${m.instrument}: ${value ?? m.selectInstrument}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <span className="instrument-select-value">{value ?? m.selectInstrument}</span>
        <DownOutlined className="instrument-sheet-caret" aria-hidden="true" />
      </Button>
      <Drawer
        className="instrument-sheet"
        title={m.selectInstrument}
        placement="bottom"
        size="85%"
        open={open}
        onClose={() => setOpen(false)}
        destroyOnHidden
      >
        <Input
          className="instrument-sheet-search"
          size="large"
          allowClear
          autoFocus
          prefix={<SearchOutlined aria-hidden="true" />}
          placeholder={m.searchInstrument}
          aria-label={m.searchInstrument}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <div className="instrument-sheet-list">
          {shown.length === 0 && (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={m.noInstruments} />
          )}
          {shown.map((group) => (
            <section key={group.id} aria-label={group.name} className="instrument-sheet-group">
              <h3 className="instrument-sheet-group-title">{group.name}</h3>
              <ul>
                {group.children.map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      className="instrument-sheet-option"
                      aria-current={c.id === value ? 'true' : undefined}
                      onClick={() => pick(c.id)}
                    >
                      <span className="instrument-option-symbol">{c.id}</span>
                      <span className="instrument-option-name">{c.name}</span>
                      {c.id === value && (
                        <CheckOutlined className="instrument-sheet-check" aria-hidden="true" />
                      )}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </Drawer>
    </>
  );
}
