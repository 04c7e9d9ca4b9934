import {
  formatContractDate,
  formatMoney,
  formatPercent,
  type Bar,
  type Performance,
} from '@ct/domain';

/* How a task's conversation words its figures (the domain's formatters) and spans. */

function money(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : formatMoney(value);
}

/** A fraction (a run's win rate and drawdown are fractions) as a percent. */
function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : formatPercent(value, 'fraction');
}

export function summary(p: Performance | null): string {
  if (!p) return 'no trades';
  return `${p.交易次数} trades, win rate ${percent(p.胜率)}, net profit ${money(p.净利润)}, max drawdown ${percent(p.max_drawdown)}`;
}

export function span(bars: readonly Bar[]): { from: string; to: string } {
  const first = bars[0];
  const last = bars.at(-1);
  return {
    from: first ? formatContractDate(first.time) : '',
    to: last ? formatContractDate(last.time) : '',
  };
}
