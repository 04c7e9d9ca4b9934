import {
  exitRange,
  formatLots,
  formatPrice,
  startingEditExitPrice,
  tickDecimals,
} from '@ct/domain';
import { Button, Checkbox, Descriptions, InputNumber, Typography } from 'antd';
import { useId, useState } from 'react';
import { trading as messages } from '../../i18n/defaults/trading';
import { getQuote } from '../../realtime/quotes';
import { updateTpsl, type EditableOrder } from './actions';
import './trading.css';

const e = messages.editOrder;

type ExitKind = 'tp' | 'sl';

function ExitEditor({
  kind,
  order,
  enabled,
  price,
  onEnabled,
  onPrice,
}: {
  kind: ExitKind;
  order: EditableOrder;
  enabled: boolean;
  price: number | null;
  onEnabled: (enabled: boolean) => void;
  onPrice: (price: number | null) => void;
}) {
  const id = useId();
  const range = exitRange(kind, order.side, order.openPrice, order.tick);
  const rangeText = (kind === 'tp' ? e.tpRange : e.slRange)(
    formatPrice(range.min, order.tick),
    formatPrice(range.max, order.tick),
  );
  return (
    <div className={`edit-exit edit-exit-${kind}`}>
      <Checkbox checked={enabled} onChange={(event) => onEnabled(event.target.checked)}>
        {kind === 'tp' ? e.tp : e.sl}
      </Checkbox>
      {enabled && (
        <div className="edit-exit-body">
          <div className="edit-exit-row">
            <span className="edit-exit-tick num">
              {e.tick(formatPrice(order.tick, order.tick))}
            </span>
            <InputNumber
              id={`${id}-price`}
              aria-label={kind === 'tp' ? e.tpPrice : e.slPrice}
              aria-describedby={`${id}-range`}
              className="edit-exit-input"
              min={0}
              step={order.tick}
              precision={tickDecimals(order.tick)}
              value={price}
              onChange={onPrice}
            />
          </div>
          <Typography.Text type="secondary" id={`${id}-range`} className="edit-exit-range num">
            {rangeText}
          </Typography.Text>
        </div>
      )}
    </div>
  );
}

/**
 * The Edit Order panel (spec section 2): the order's figures, TP and SL checkboxes that
 * enable their price inputs with the tick and the allowed range, Save and Cancel, and an
 * inline red error. A successful save closes it.
 */
export function EditOrderPanel({
  order,
  onClose,
  showHeader = true,
}: {
  order: EditableOrder;
  onClose: () => void;
  /** The side panel shows its own title and Close button; a modal has them in its frame. */
  showHeader?: boolean;
}) {
  const [tpEnabled, setTpEnabled] = useState(order.tp > 0);
  const [slEnabled, setSlEnabled] = useState(order.sl > 0);
  // A set level starts at its value; one that was not set gets its start when it is enabled.
  const [tp, setTp] = useState<number | null>(order.tp > 0 ? order.tp : null);
  const [sl, setSl] = useState<number | null>(order.sl > 0 ? order.sl : null);
  const enable = (kind: ExitKind, enabled: boolean) => {
    (kind === 'tp' ? setTpEnabled : setSlEnabled)(enabled);
    const setPrice = kind === 'tp' ? setTp : setSl;
    // the default distance beyond the range's edge (and beyond the market, if it is past it)
    if (enabled && (kind === 'tp' ? tp : sl) === null) {
      const quote = getQuote(order.symbol);
      // a buy closes at the bid, a sell at the ask
      const close = (order.side === 'buy' ? quote?.bid : quote?.ask) ?? null;
      setPrice(startingEditExitPrice(kind, order.side, order.openPrice, order.tick, close));
    }
  };
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const level = (value: number) => (value > 0 ? formatPrice(value, order.tick) : e.notSet);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const outcome = await updateTpsl(order, { tp, sl, tpEnabled, slEnabled });
      if (outcome.success) onClose();
      else setError(outcome.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="edit-order">
      {showHeader && (
        <header className="side-panel-header">
          <Typography.Title level={5} className="side-panel-title">
            {e.title}
          </Typography.Title>
          <Button size="small" onClick={onClose}>
            {e.close}
          </Button>
        </header>
      )}
      <div className="edit-order-body">
        <Descriptions
          size="small"
          column={1}
          bordered
          className="edit-order-figures"
          items={[
            { key: 'symbol', label: e.symbol, children: order.symbol },
            {
              key: 'direction',
              label: e.direction,
              children: (
                <span className={order.side === 'buy' ? 'side-buy' : 'side-sell'}>
                  {order.side === 'buy' ? messages.trading.buy : messages.trading.sell}
                </span>
              ),
            },
            {
              key: 'available',
              label: e.availableVolume,
              children: <span className="num">{formatLots(order.availableVolume)}</span>,
            },
            {
              key: 'total',
              label: e.totalVolume,
              children: <span className="num">{formatLots(order.totalVolume)}</span>,
            },
            {
              key: 'open',
              label: e.openPrice,
              children: <span className="num">{formatPrice(order.openPrice, order.tick)}</span>,
            },
            {
              key: 'tp',
              label: e.currentTp,
              children: <span className="num">{level(order.tp)}</span>,
            },
            {
              key: 'sl',
              label: e.currentSl,
              children: <span className="num">{level(order.sl)}</span>,
            },
          ]}
        />
        <ExitEditor
          kind="tp"
          order={order}
          enabled={tpEnabled}
          price={tp}
          onEnabled={(enabled) => enable('tp', enabled)}
          onPrice={setTp}
        />
        <ExitEditor
          kind="sl"
          order={order}
          enabled={slEnabled}
          price={sl}
          onEnabled={(enabled) => enable('sl', enabled)}
          onPrice={setSl}
        />
        <div className="edit-order-error" role="alert" aria-live="polite">
          {error}
        </div>
        <div className="edit-order-actions">
          <Button type="primary" loading={saving} onClick={() => void save()}>
            {e.save}
          </Button>
          <Button onClick={onClose} disabled={saving}>
            {e.cancel}
          </Button>
        </div>
      </div>
    </div>
  );
}
