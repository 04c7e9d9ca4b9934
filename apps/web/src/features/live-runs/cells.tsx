import { formatEpochSeconds, formatLots, formatMoney, formatPrice, sideLabel } from '@ct/domain';
import { Tag } from 'antd';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import type { LiveRunView } from './api';
import { statusColor } from './logic';

/* Small cells shared by the panel's tables. */

const m = messages.liveRuns;

/** A P&L with its sign, green at zero or above, red below (colour never alone: the sign). */
export function Pnl({ value }: { value: number }) {
  return (
    <span className={value >= 0 ? 'num pnl-up' : 'num pnl-down'}>
      {formatMoney(value, { signed: true })}
    </span>
  );
}

/** Buy or Sell in their colours. */
export function Side({ cmd }: { cmd: number }) {
  return <span className={cmd === 1 ? 'side-buy' : 'side-sell'}>{sideLabel(cmd)}</span>;
}

/** A run's status as a tag; a running run with failures in a row says how many. */
export function RunStatus({ run }: { run: LiveRunView }) {
  return (
    <span className="live-run-status">
      <Tag color={statusColor(run.status)}>{m.status[run.status]}</Tag>
      {run.status === 'running' && run.consecutive_failures > 0 && (
        <span className="live-run-failures">
          {m.failures(run.consecutive_failures, run.max_failures)}
        </span>
      )}
    </span>
  );
}

/** Epoch seconds as local date-time, '—' when absent. */
export function Time({ value }: { value: number | null }) {
  return <span className="num">{value === null ? m.none : formatEpochSeconds(value)}</span>;
}

/** A price with the instrument's tick decimals when known (else up to 4). */
export function price(value: number, tick?: number): string {
  return formatPrice(value, tick);
}

export const quantity = formatLots;
