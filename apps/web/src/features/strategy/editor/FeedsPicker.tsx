import { PERIODS, parsePeriod } from '@ct/domain';
import { Select, Tooltip } from 'antd';
import { useMemo } from 'react';
import { strategy as messages } from '../../../i18n/defaults/strategy';
import { useInstrumentStore } from '../../../market/instruments';
import { workbenchTarget } from '../actions';
import { useEditorStore, useWorkbenchStore, type FeedChoice } from '../store';

const m = messages.strategy;
/** Most feeds a backtest takes (the server's MAX_FEEDS). */
const MAX_FEEDS = 10;

const keyOf = (feed: FeedChoice) => `${feed.symbol} ${feed.period}`;

function feedOf(key: string): FeedChoice | null {
  const [symbol, periodText] = key.split(' ');
  const period = parsePeriod(periodText ?? '');
  return symbol && period ? { symbol, period } : null;
}

/**
 * The feeds Run Code backtests on: the chart's own (always, first) and any instruments and
 * periods of the catalogue added to it.
 */
export function FeedsPicker() {
  // re-read when the editor's chart changes its instrument or period
  useWorkbenchStore((s) => s.request);
  const chart = workbenchTarget();
  const extra = useEditorStore((s) => s.extraFeeds);
  const symbols = useInstrumentStore((s) => Object.keys(s.symbols).sort().join('\n'));
  const own = chart?.symbol ? keyOf({ symbol: chart.symbol, period: chart.period }) : null;
  const options = useMemo(
    () =>
      symbols
        .split('\n')
        .filter(Boolean)
        .flatMap((symbol) =>
          PERIODS.map((period) => {
            const value = keyOf({ symbol, period });
            return { value, label: value, disabled: value === own };
          }),
        ),
    [symbols, own],
  );
  const value = [...(own ? [own] : []), ...extra.map(keyOf).filter((key) => key !== own)];
  return (
    <Tooltip title={m.feedsHint}>
      <Select
        mode="multiple"
        aria-label={m.feeds}
        placeholder={m.feeds}
        style={{ minWidth: 280 }}
        popupMatchSelectWidth={false}
        maxTagCount={2}
        showSearch={{ optionFilterProp: 'label' }}
        value={value}
        options={options}
        onChange={(keys: string[]) => {
          const chosen = keys
            .filter((key) => key !== own)
            .slice(0, MAX_FEEDS - 1)
            .flatMap((key) => feedOf(key) ?? []);
          useEditorStore.setState({ extraFeeds: chosen });
        }}
      />
    </Tooltip>
  );
}
