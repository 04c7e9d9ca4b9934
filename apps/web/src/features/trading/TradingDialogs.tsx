import {
  availableVolume,
  closeQuantityRule,
  closingPrice,
  formatLots,
  formatPrice,
  isFullClose,
  type PendingView,
  type PositionView,
  type QuantityRule,
  sideOfCmd,
  tickDecimals,
  validateQuantity,
} from '@ct/domain';
import { Button, Descriptions, InputNumber, Modal, Tag } from 'antd';
import { useId, useState } from 'react';
import { trading as messages } from '../../i18n/defaults/trading';
import { useQuote } from '../../realtime/quotes';
import { useSymbolInfo } from '../../market/instruments';
import { cancelPendingOrder, closePosition } from './actions';
import { dismissCancelPending, dismissClosePosition, useTradingDialogs } from './dialogs';
import { isTargetAccount } from './target';
import { formatTriggerLevel } from './format';
import { SideText } from './SideText';

const c = messages.closePosition;
const p = messages.cancelPending;

function ClosePositionForm({ position }: { position: PositionView }) {
  const id = useId();
  const info = useSymbolInfo(position.symbol);
  const quote = useQuote(position.symbol);
  // prices with the instrument's own tick (4 decimals while it is unknown)
  const tick = info?.min_price_tick;
  const available = availableVolume(position);
  // Without instrument data only 0 < quantity ≤ available is checked.
  const rule: QuantityRule = info
    ? closeQuantityRule(info, available)
    : { min: 0, max: available, step: 0 };
  const [quantity, setQuantity] = useState<number | null>(available);
  const [closing, setClosing] = useState(false);
  // The rule's message; an empty or unreadable quantity is 'Invalid quantity'.
  const error = validateQuantity(quantity ?? Number.NaN, rule);
  const full = quantity !== null && isFullClose(quantity, available);
  // a replay's position closes at the replay's price, never the live one
  const market =
    !isTargetAccount(position.uuid) && quote && quote.bid !== null && quote.ask !== null
      ? closingPrice(sideOfCmd(position.cmd), { bid: quote.bid, ask: quote.ask })
      : position.marketPrice;

  const submit = async () => {
    if (error !== null || quantity === null || closing) return;
    setClosing(true);
    try {
      const outcome = await closePosition(position, quantity);
      if (outcome.success) dismissClosePosition();
    } finally {
      setClosing(false);
    }
  };

  return (
    <Modal
      open
      title={c.title}
      onCancel={dismissClosePosition}
      centered
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={dismissClosePosition} disabled={closing}>
          {c.cancel}
        </Button>,
        <Button
          key="ok"
          type="primary"
          danger
          loading={closing}
          // disabled while the quantity breaks a rule; its message shows under the input
          disabled={error !== null}
          onClick={() => void submit()}
        >
          {c.confirm}
        </Button>,
      ]}
    >
      <Descriptions
        size="small"
        column={1}
        className="close-position-figures"
        items={[
          { key: 'symbol', label: c.symbol, children: position.symbol },
          { key: 'direction', label: c.direction, children: <SideText cmd={position.cmd} /> },
          {
            key: 'open',
            label: c.openPrice,
            children: <span className="num">{formatPrice(position.price, tick)}</span>,
          },
          {
            key: 'market',
            label: c.marketPrice,
            children: <span className="num">{formatPrice(market, tick)}</span>,
          },
          {
            key: 'available',
            label: c.availableVolume,
            children: <span className="num">{formatLots(available)}</span>,
          },
        ]}
      />
      <label className="close-position-label" htmlFor={`${id}-qty`}>
        {c.quantity}
      </label>
      <div className="close-position-row">
        <InputNumber
          id={`${id}-qty`}
          className="close-position-input"
          status={error ? 'error' : undefined}
          aria-invalid={error ? true : undefined}
          step={rule.step > 0 ? rule.step : 1}
          precision={rule.step > 0 ? tickDecimals(rule.step) : undefined}
          value={quantity}
          onChange={setQuantity}
          onPressEnter={() => void submit()}
        />
        <Button onClick={() => setQuantity(available)}>{c.all}</Button>
        <Tag color={full ? 'red' : 'blue'}>{full ? c.full : c.partial}</Tag>
      </div>
      {error && (
        <div className="ticket-error" role="alert">
          {error}
        </div>
      )}
    </Modal>
  );
}

function CancelPendingConfirm({ pending }: { pending: PendingView }) {
  const tick = useSymbolInfo(pending.symbol)?.min_price_tick;
  const [canceling, setCanceling] = useState(false);
  const confirm = async () => {
    setCanceling(true);
    try {
      const outcome = await cancelPendingOrder(pending);
      if (outcome.success) dismissCancelPending();
    } finally {
      setCanceling(false);
    }
  };
  return (
    <Modal
      open
      title={p.title}
      onCancel={dismissCancelPending}
      centered
      destroyOnHidden
      footer={[
        <Button key="keep" onClick={dismissCancelPending} disabled={canceling}>
          {p.keep}
        </Button>,
        <Button key="ok" type="primary" danger loading={canceling} onClick={() => void confirm()}>
          {p.confirm}
        </Button>,
      ]}
    >
      <p>{p.question}</p>
      <p className="num">
        <SideText cmd={pending.cmd} /> {formatLots(pending.volume)} {pending.symbol} @{' '}
        {formatPrice(pending.pendPrice, tick)} · {pending.expireType}
        {pending.tp > 0 ? ` · TP ${formatTriggerLevel(pending.tp, tick)}` : ''}
        {pending.sl > 0 ? ` · SL ${formatTriggerLevel(pending.sl, tick)}` : ''}
      </p>
    </Modal>
  );
}

/** The Close Position modal and the Cancel Pending Order confirmation, when open. */
export function TradingDialogs() {
  const closing = useTradingDialogs((s) => s.closePosition);
  const canceling = useTradingDialogs((s) => s.cancelPending);
  return (
    <>
      {closing && <ClosePositionForm key={closing.orderId} position={closing} />}
      {canceling && <CancelPendingConfirm key={canceling.pId} pending={canceling} />}
    </>
  );
}
