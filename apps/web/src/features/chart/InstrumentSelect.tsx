import { DownOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { messages } from '../../i18n/firstScreen';
import { afterFirstChart, lazyAfterFirstChart } from '../../shared/firstChart';

export { filterGroups } from './instrumentSearch';

const m = messages.chart;

// antd's Select (with rc-select and its virtual list), Drawer and Input are not in the first
// load: the selector follows the first drawn chart (shared/firstChart.ts), a stand-in of its
// size shows the instrument until then; the phone's sheet loads on first use.
const InstrumentDropdown = lazyAfterFirstChart(() =>
  import('./InstrumentDropdown').then((mod) => ({ default: mod.InstrumentDropdown })),
);
const loadSheet = () => import('./InstrumentSheetDrawer');
const InstrumentSheetDrawer = lazy(() =>
  loadSheet().then((mod) => ({ default: mod.InstrumentSheetDrawer })),
);

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
    <Suspense fallback={<SelectStandIn className="instrument-select-standin" value={value} />}>
      <InstrumentDropdown value={value} onChange={onChange} />
    </Suspense>
  );
}

/**
 * Where a borderless Select comes after the first chart: its size and its value, drawn as the
 * Select draws them, without the control (nothing to press until the Select is there).
 */
export function SelectStandIn({ className, value }: { className: string; value: string | null }) {
  return (
    <span className={`select-standin ${className}`} aria-busy="true">
      <span className="select-standin-value">
        {className === 'instrument-select-standin' ? (
          <span className="instrument-select-value">{value ?? ''}</span>
        ) : (
          value
        )}
      </span>
      <DownOutlined className="select-standin-arrow" aria-hidden="true" />
    </span>
  );
}

function InstrumentSheet({ value, onChange }: Omit<Props, 'mobile'>) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    void afterFirstChart()
      .then(loadSheet)
      .catch(() => undefined);
  }, []);
  const pick = (symbol: string) => {
    setOpen(false);
    if (symbol !== value) onChange(symbol);
  };
  return (
    <>
      <Button
        className="instrument-sheet-button"
        type="text"
        aria-label={`${m.instrument}: ${value ?? m.selectInstrument}`}
        aria-haspopup="dialog"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <span className="instrument-select-value">{value ?? m.selectInstrument}</span>
        <DownOutlined className="instrument-sheet-caret" aria-hidden="true" />
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <InstrumentSheetDrawer
            open={open}
            value={value}
            onPick={pick}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
