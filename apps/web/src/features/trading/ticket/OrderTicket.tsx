import {
  checkTicket,
  type ExpireType,
  formatLots,
  formatPrice,
  nearestValidLimitPrice,
  type OrderType,
  quantityRule,
  type Side,
  tickDecimals,
  tickOfSymbol,
} from '@ct/domain';
import { LoadingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Form, InputNumber, Radio, Typography } from 'antd';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { notify } from '../../../shared/notify';
import { trading as messages } from '../../../i18n/defaults/trading';
import { watchSymbol } from '../../../realtime/live';
import { useQuote, useQuoteStore } from '../../../realtime/quotes';
import { useAuthStore } from '../../auth';
import { useInstrumentCatalogue, useSymbolInfo } from '../../../market/instruments';
import { useChartTradeStore } from '../../../shared/tradeAction';
import { placeOrder } from '../actions';
import type { TradingTarget } from '../target';
import {
  exitView,
  initialTicket,
  marginOf,
  orderPriceOf,
  ticketReducer,
  type ExitKind,
  type TicketAction,
  type TicketContext,
  type TicketState,
} from './ticketState';

const t = messages.trading;

// The newest chart trade action a ticket has taken, so a ticket mounted later does not
// take it again.
let appliedTradeAction: object | null = null;

function chartSideFor(symbol: string): Side | null {
  const { action } = useChartTradeStore.getState();
  return action && action.symbol === symbol && action !== appliedTradeAction
    ? action.tradeAction
    : null;
}

/** The error line under a field; empty lines keep their height out of the layout. */
function FieldError({ id, error }: { id: string; error: string | null }) {
  if (!error) return null;
  return (
    <div id={id} className="ticket-error" role="alert">
      {error}
    </div>
  );
}

/**
 * The limit price's error, and a link that puts the nearest valid price in the field: the
 * default (the reference price) lies between the two allowed ranges, so one click fixes it.
 */
function LimitPriceHelp({
  error,
  nearest,
  tick,
  onUse,
}: {
  error: string;
  nearest: number | null;
  tick: number;
  onUse: (price: number) => void;
}) {
  return (
    <span className="ticket-limit-help">
      <span>{error}</span>
      {nearest !== null && (
        <>
          {' '}
          <Button
            type="link"
            size="small"
            className="ticket-limit-use"
            onClick={() => onUse(nearest)}
          >
            {t.useLimitPrice(formatPrice(nearest, tick))}
          </Button>
        </>
      )}
    </span>
  );
}

function ExitFields({
  kind,
  state,
  orderPrice,
  tick,
  error,
  dispatch,
}: {
  kind: ExitKind;
  state: TicketState;
  orderPrice: number | null;
  tick: number;
  error: string | null;
  dispatch: (action: TicketAction) => void;
}) {
  const id = useId();
  const exit = state[kind];
  const view = exitView(kind, exit, state.side, orderPrice, tick);
  const label = kind === 'tp' ? t.takeProfit : t.stopLoss;
  return (
    <fieldset className={`ticket-exit ticket-exit-${kind}`}>
      <legend className="visually-hidden">{label}</legend>
      <Checkbox
        checked={exit.enabled}
        onChange={(e) => dispatch({ type: 'exitEnabled', kind, enabled: e.target.checked })}
      >
        {label}
      </Checkbox>
      {exit.enabled && (
        <>
          <div className="ticket-exit-inputs">
            <label className="ticket-sub-label" htmlFor={`${id}-ticks`}>
              {t.ticks}
            </label>
            <InputNumber
              id={`${id}-ticks`}
              aria-label={kind === 'tp' ? t.tpTicks : t.slTicks}
              size="small"
              min={0}
              step={1}
              precision={0}
              value={view.ticks}
              onChange={(value) => dispatch({ type: 'exitTicks', kind, ticks: value })}
            />
            <label className="ticket-sub-label" htmlFor={`${id}-price`}>
              {t.price}
            </label>
            <InputNumber
              id={`${id}-price`}
              aria-label={kind === 'tp' ? t.tpPrice : t.slPrice}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              status={error ? 'error' : undefined}
              size="small"
              min={0}
              step={tick}
              precision={tickDecimals(tick)}
              value={view.price}
              onChange={(value) => dispatch({ type: 'exitPrice', kind, price: value })}
            />
          </div>
          <FieldError id={`${id}-error`} error={error} />
        </>
      )}
    </fieldset>
  );
}

/**
 * The order ticket (spec sections 4 and 5): side with the live reference price, Market or
 * Limit, time in force, quantity, limit price, margin, TP/SL by ticks or price, and the
 * place button, enabled exactly when the spec allows an order. With a `target` (a replay's
 * account) the ticket quotes the target's price and places its orders there instead of on
 * the trader's account; the rules are the same.
 */
export function OrderTicket({
  symbol,
  target = null,
}: {
  symbol: string;
  target?: TradingTarget | null;
}) {
  useInstrumentCatalogue();
  const info = useSymbolInfo(symbol);
  const liveQuote = useQuote(symbol);
  const quote = target ? target.quote : liveQuote;
  const hasTraderAccount = useAuthStore((s) => s.currentTrader !== null);
  const hasAccount = target !== null || hasTraderAccount;
  const targeted = target !== null;
  const tick = tickOfSymbol(info);
  // prices are shown with the instrument's own tick (4 decimals while it is unknown)
  const priceTick = info?.min_price_tick;
  const id = useId();

  const [state, setState] = useState<TicketState>(() =>
    initialTicket(chartSideFor(symbol) ?? 'buy'),
  );
  const [submitting, setSubmitting] = useState(false);

  const rule = info ? quantityRule(info, state.orderType) : null;
  const terms = info
    ? { volume_multiple: info.volume_multiple, margin_ratio_by_money: info.margin_ratio_by_money }
    : null;
  const ctx: TicketContext = {
    quote: quote ? { bid: quote.bid, ask: quote.ask } : null,
    tick,
    rule,
    terms,
  };
  const ctxRef = useRef(ctx);
  useEffect(() => {
    ctxRef.current = ctx;
  });
  const dispatch = useCallback((action: TicketAction, override: Partial<TicketContext> = {}) => {
    setState((prev) => ticketReducer(prev, action, { ...ctxRef.current, ...override }));
  }, []);

  // The ticket's instrument is watched while it is open (shared with its chart).
  useEffect(() => watchSymbol(symbol), [symbol]);

  // A limit ticket opened before any quote takes the reference price when one arrives
  // (a target's quote is there from the start: live quotes are not its prices).
  useEffect(() => {
    if (targeted) return;
    return useQuoteStore.subscribe((s) => {
      const q = s.quotes[symbol];
      if (q) dispatch({ type: 'quoteArrived' }, { quote: { bid: q.bid, ask: q.ask } });
    });
  }, [symbol, dispatch, targeted]);

  // A Buy or Sell from a chart of this instrument sets the side.
  useEffect(() => {
    appliedTradeAction = useChartTradeStore.getState().action;
    return useChartTradeStore.subscribe((s, prev) => {
      if (s.seq === prev.seq || !s.action || s.action.symbol !== symbol) return;
      appliedTradeAction = s.action;
      dispatch({ type: 'side', side: s.action.tradeAction });
    });
  }, [symbol, dispatch]);

  const orderPrice = orderPriceOf(state, ctx);
  const tpView = exitView('tp', state.tp, state.side, orderPrice, tick);
  const slView = exitView('sl', state.sl, state.side, orderPrice, tick);
  const check = checkTicket({
    side: state.side,
    orderType: state.orderType,
    quantity: state.quantity,
    limitPrice: state.limitPrice,
    quote: ctx.quote,
    hasAccount,
    terms: info ?? null,
    tick,
    tp: state.tp.enabled ? (tpView.price ?? Number.NaN) : null,
    sl: state.sl.enabled ? (slView.price ?? Number.NaN) : null,
  });
  const margin = marginOf(state, ctx);
  const isLimit = state.orderType === 'limit';
  const currency = info?.currency ?? 'USD';

  const submit = async () => {
    if (submitting) return;
    if (!check.canPlace) {
      // the button is disabled then; a click that still comes says why nothing was sent
      notify.error(
        check.quantityError ??
          check.priceError ??
          check.tpError ??
          check.slError ??
          (hasAccount ? t.noQuote : t.noAccountInfo),
      );
      return;
    }
    setSubmitting(true);
    try {
      const input = {
        symbol,
        side: state.side,
        orderType: state.orderType,
        quantity: state.quantity ?? 0,
        limitPrice: state.limitPrice,
        expireType: state.expireType,
        tp: state.tp.enabled ? tpView.price : null,
        sl: state.sl.enabled ? slView.price : null,
      };
      await (target ? target.place(input) : placeOrder(input));
    } finally {
      setSubmitting(false);
    }
  };

  const sideButton = (side: Side) => {
    const price = side === 'buy' ? quote?.ask : quote?.bid;
    const label = side === 'buy' ? t.buy : t.sell;
    return (
      <button
        type="button"
        role="radio"
        aria-checked={state.side === side}
        aria-label={label}
        className={`ticket-side ticket-side-${side}`}
        onClick={() => dispatch({ type: 'side', side })}
      >
        <span className="ticket-side-label">{label}</span>
        <span className="ticket-side-price num" aria-hidden="true">
          {formatPrice(price, priceTick)}
        </span>
        <span className="ticket-side-caption">{side === 'buy' ? t.ask : t.bid}</span>
      </button>
    );
  };

  return (
    <Form component={false} layout="vertical" size="small">
      <div
        className={targeted ? 'order-ticket order-ticket-target' : 'order-ticket'}
        role="group"
        aria-label={`${symbol} ${t.order}`}
      >
        <div className="ticket-sides" role="radiogroup" aria-label={t.side}>
          {sideButton('sell')}
          {sideButton('buy')}
        </div>
        {!quote && <Typography.Text type="secondary">{t.noQuote}</Typography.Text>}

        <Form.Item label={t.orderType} className="ticket-item">
          <Radio.Group
            aria-label={t.orderType}
            optionType="button"
            buttonStyle="solid"
            block
            value={state.orderType}
            onChange={(e) =>
              dispatch({
                type: 'orderType',
                orderType: e.target.value as OrderType,
                rule: info ? quantityRule(info, e.target.value as OrderType) : null,
              })
            }
            options={[
              { value: 'market', label: t.market },
              { value: 'limit', label: t.limit },
            ]}
          />
        </Form.Item>

        <Form.Item label={t.timeInForce} className="ticket-item">
          <Radio.Group
            aria-label={t.timeInForce}
            optionType="button"
            block
            // a replay's limit orders stay until filled or cancelled: GTC
            disabled={!isLimit || targeted}
            value={targeted ? 'GTC' : state.expireType}
            onChange={(e) =>
              dispatch({ type: 'expireType', expireType: e.target.value as ExpireType })
            }
            options={[
              { value: 'GFD', label: <span title={t.gfdTitle}>{t.gfd}</span> },
              { value: 'GTC', label: <span title={t.gtcTitle}>{t.gtc}</span> },
            ]}
          />
        </Form.Item>

        <Form.Item
          label={t.quantity}
          htmlFor={`${id}-qty`}
          className="ticket-item"
          validateStatus={check.quantityError ? 'error' : undefined}
          help={check.quantityError ?? undefined}
          extra={
            rule ? (
              <span className="ticket-hint">
                {t.quantityHint(formatLots(rule.min), formatLots(rule.max), formatLots(rule.step))}
              </span>
            ) : undefined
          }
        >
          <InputNumber
            id={`${id}-qty`}
            className="ticket-input"
            aria-invalid={check.quantityError ? true : undefined}
            step={rule?.step ?? 1}
            precision={rule ? tickDecimals(rule.step) : undefined}
            value={state.quantity}
            onChange={(value) => dispatch({ type: 'quantity', quantity: value })}
            onBlur={() => dispatch({ type: 'quantityBlur' })}
          />
        </Form.Item>

        {isLimit && (
          <Form.Item
            label={t.limitPrice}
            htmlFor={`${id}-price`}
            className="ticket-item"
            validateStatus={check.priceError ? 'error' : undefined}
            help={
              check.priceError ? (
                <LimitPriceHelp
                  error={check.priceError}
                  nearest={nearestValidLimitPrice(
                    state.side,
                    state.limitPrice,
                    check.reference,
                    tick,
                  )}
                  tick={tick}
                  onUse={(price) => dispatch({ type: 'limitPrice', price })}
                />
              ) : undefined
            }
          >
            <InputNumber
              id={`${id}-price`}
              className="ticket-input"
              aria-invalid={check.priceError ? true : undefined}
              step={tick}
              precision={tickDecimals(tick)}
              value={state.limitPrice}
              onChange={(value) => dispatch({ type: 'limitPrice', price: value })}
            />
          </Form.Item>
        )}

        <Form.Item
          label={t.margin(currency)}
          htmlFor={`${id}-margin`}
          className="ticket-item"
          extra={isLimit ? <span className="ticket-hint">{t.marginHint}</span> : undefined}
        >
          <InputNumber
            id={`${id}-margin`}
            className="ticket-input"
            disabled={!isLimit || !terms}
            min={0}
            precision={2}
            value={margin}
            onChange={(value) => dispatch({ type: 'margin', margin: value })}
            onBlur={() => dispatch({ type: 'marginBlur' })}
          />
        </Form.Item>

        <ExitFields
          kind="tp"
          state={state}
          orderPrice={orderPrice}
          tick={tick}
          error={state.tp.enabled ? check.tpError : null}
          dispatch={dispatch}
        />
        <ExitFields
          kind="sl"
          state={state}
          orderPrice={orderPrice}
          tick={tick}
          error={state.sl.enabled ? check.slError : null}
          dispatch={dispatch}
        />

        {orderPrice !== null && (
          <div className="ticket-summary num">
            {formatLots(state.quantity ?? 0)} {symbol} @{' '}
            {isLimit ? formatPrice(orderPrice, priceTick) : t.market}
          </div>
        )}

        <Button
          type="primary"
          block
          size="large"
          className={`ticket-place ticket-place-${state.side}`}
          disabled={!check.canPlace}
          // not antd's `loading`: its icon's leave motion can stay in the button after two
          // quick orders, and the button's accessible name then begins with 'loading'
          icon={submitting ? <LoadingOutlined /> : undefined}
          aria-busy={submitting}
          onClick={() => void submit()}
        >
          {t.place(state.side)}
        </Button>
      </div>
    </Form>
  );
}
