import { sideLabel } from '@ct/domain';
import { trading as messages } from '../../i18n/defaults/trading';

/** A position's or order's side (cmd 1 buy, 2 sell) in the chosen language, in its colour. */
export function SideText({ cmd }: { cmd: number }) {
  const t = messages.trading;
  const cls = cmd === 1 ? 'side-buy' : cmd === 2 ? 'side-sell' : undefined;
  return <span className={cls}>{cmd === 1 ? t.buy : cmd === 2 ? t.sell : sideLabel(cmd)}</span>;
}
