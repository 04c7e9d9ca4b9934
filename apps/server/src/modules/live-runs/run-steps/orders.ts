import {
  CLOSE_REASON,
  liveRunComment,
  type Bar,
  type HeldPosition,
  type LiveRunOrderView,
  type WantedPosition,
} from '@ct/domain';
import type { LiveRunRow, TraderRow } from '../../../db/schema.ts';
import { AppError } from '../../../http/errors.ts';
import { closePosition } from '../../trading/close-position.ts';
import { placeMarketOrder } from '../../trading/place-market-order.ts';
import { insertOrder, type NewLiveRunOrder } from '../store.ts';
import type { LiveRunnerOptions } from './deps.ts';

/*
 * The order step: one position to open or close, sent as a market order through the trading
 * pipeline like a person's, and kept as the run's order (filled or refused).
 */

type OrderOptions = Pick<LiveRunnerOptions, 'db' | 'trading' | 'now' | 'log' | 'afterOrderSent'>;

/** The idempotency key prefix of a run's orders (keys are per trading account). */
function prefix(runId: string): string {
  return `lr${runId.replaceAll('-', '').slice(0, 12)}`;
}

/** Opens a wanted position at `bar`'s close. */
export async function openPosition(
  options: OrderOptions,
  row: LiveRunRow,
  trader: TraderRow,
  want: WantedPosition & { volume: number },
  bar: Bar,
): Promise<LiveRunOrderView> {
  const [, , n] = want.key.split(':');
  // one key per strategy record for the whole run: a retry after a crash (even at a later
  // bar) replays the first answer instead of opening the position twice
  const clientOrderId = `${prefix(row.id)}-o${Math.floor(want.openTime / 1000)}-${want.cmd}-${n ?? 0}`;
  // the strategy's own price when it entered at this bar, else this bar's close (late)
  const strategyPrice = want.openTime >= bar.time ? want.openPrice : bar.close;
  const base = {
    action: 'open' as const,
    cmd: want.cmd,
    volume: want.volume,
    client_order_id: clientOrderId,
    strategy_price: strategyPrice,
  };
  let view: LiveRunOrderView;
  let reference: number | null = null;
  let commission = 0;
  try {
    const { data } = await placeMarketOrder(options.trading, trader, {
      uuid: trader.uuid,
      token: '',
      symbol: row.symbol,
      cmd: want.cmd,
      volume: want.volume,
      tp: 0,
      sl: 0,
      comment: liveRunComment(row.id),
      clientOrderId,
    });
    const order = data.order;
    // kline prices are bids: a buy fills at the ask (its view's market price is the bid)
    reference = want.cmd === 1 ? order.marketPrice : order.price;
    commission = order.commissionFee;
    view = {
      ...base,
      order_id: order.orderId,
      status: 'filled',
      price: order.price,
      message: '',
    };
  } catch (error) {
    view = {
      ...base,
      order_id: null,
      status: 'rejected',
      price: null,
      message: messageOf(error),
    };
    logUnexpected(options, error, row.id);
  }
  await options.afterOrderSent?.(row.id, clientOrderId);
  await insertOrder(options.db, orderRow(options, row, bar, view, want.key, reference, commission));
  return view;
}

/** Closes a held position at `bar`'s close. */
export async function closeHeld(
  options: OrderOptions,
  row: LiveRunRow,
  trader: TraderRow,
  held: HeldPosition,
  bar: Bar,
): Promise<LiveRunOrderView> {
  const clientOrderId = `${prefix(row.id)}-c${held.positionId}`;
  const cmd = held.cmd === 1 ? 2 : 1;
  const base = {
    action: 'close' as const,
    cmd: cmd as 1 | 2,
    volume: held.volume,
    client_order_id: clientOrderId,
    strategy_price: bar.close,
  };
  const quote = options.trading.feed.latestQuote(row.symbol);
  let view: LiveRunOrderView;
  let reference: number | null = null;
  let commission = 0;
  try {
    const { data } = await closePosition(
      options.trading,
      trader,
      {
        uuid: trader.uuid,
        token: '',
        orderId: held.positionId,
        volume: held.volume,
        closeTypeYT: 0,
        clientOrderId,
      },
      CLOSE_REASON.strategy,
    );
    const price = data.settle.closePrice;
    // closing a buy sells at the bid; closing a sell buys at the ask, a spread above the bid
    const spread = quote ? quote.ask - quote.bid : null;
    reference = held.cmd === 1 ? price : spread === null ? null : price - spread;
    commission = data.settle.closeCommission;
    view = { ...base, order_id: held.positionId, status: 'filled', price, message: '' };
  } catch (error) {
    view = {
      ...base,
      order_id: held.positionId,
      status: 'rejected',
      price: null,
      message: messageOf(error),
    };
    logUnexpected(options, error, row.id);
  }
  await options.afterOrderSent?.(row.id, clientOrderId);
  await insertOrder(options.db, orderRow(options, row, bar, view, null, reference, commission));
  return view;
}

function orderRow(
  options: OrderOptions,
  row: LiveRunRow,
  bar: Bar,
  view: LiveRunOrderView,
  wantedKey: string | null,
  reference: number | null,
  commission: number,
): NewLiveRunOrder {
  return {
    runId: row.id,
    clientOrderId: view.client_order_id,
    barTime: bar.time,
    action: view.action,
    cmd: view.cmd,
    volume: view.volume,
    wantedKey,
    positionId: view.order_id,
    status: view.status,
    price: view.price,
    reference,
    strategyPrice: view.strategy_price,
    commission,
    message: view.message,
    at: options.now(),
  };
}

function logUnexpected(options: OrderOptions, error: unknown, runId: string): void {
  if (error instanceof AppError) return;
  options.log.error({ err: error, run: runId }, 'a live run order failed unexpectedly');
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return 'The order could not be sent (internal error; see the server log)';
}
