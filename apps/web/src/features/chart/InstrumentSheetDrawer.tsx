import { CheckOutlined, SearchOutlined } from '@ant-design/icons';
import { Drawer, Empty, Input } from 'antd';
import { useMemo, useState } from 'react';
import { messages } from '../../i18n/firstScreen';
import { useInstrumentStore } from '../../market/instruments';
import { filterGroups } from './instrumentSearch';

const m = messages.chart;

/** The phone's instrument search sheet (its trigger is InstrumentSelect's sheet button). */
export function InstrumentSheetDrawer({
  open,
  value,
  onPick,
  onClose,
}: {
  open: boolean;
  value: string | null;
  /** An instrument was tapped: the sheet closes. */
  onPick: (symbol: string) => void;
  onClose: () => void;
}) {
  const groups = useInstrumentStore((s) => s.groups);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterGroups(groups ?? [], query), [groups, query]);
  const pick = (symbol: string) => {
    setQuery('');
    onPick(symbol);
  };
  return (
    <Drawer
      className="instrument-sheet"
      title={m.selectInstrument}
      placement="bottom"
      size="85%"
      open={open}
      onClose={onClose}
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
  );
}
