import {
  closeReasonLabel,
  formatEpochSeconds,
  formatLots,
  orderActionLabel,
  orderStatusLabel,
  settlementLabel,
} from '@ct/domain';
import type { ReactNode } from 'react';
import { messages as firstScreen } from '../../../i18n/firstScreen';
import { trading } from '../../../i18n/defaults/trading';
import { FloatingPnlCell, LevelCell, MarketPriceCell, PnlText, PriceCell, SideCell } from './cells';
import { SymbolCell } from './columns';
import type { OrderLogRow, PendingOrderRow, PositionRow, SettledOrderRow } from './types';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...firstScreen, ...trading };

/*
 * The rows of the trade tables on a phone: two-line cards instead of columns that would
 * not fit. The first line says what (instrument, side, volume) and its outcome at the right
 * (P&L or status); the second line the prices, levels and time, and the row's id.
 */

const c = messages.columns;
const b = messages.bottomPanel;

function Card({
  what,
  outcome,
  details,
  id,
}: {
  what: ReactNode;
  outcome: ReactNode;
  details: ReactNode;
  id?: string;
}) {
  return (
    <div className="trade-card">
      <div className="trade-card-line">
        <span className="trade-card-what">{what}</span>
        <span className="trade-card-outcome">{outcome}</span>
      </div>
      <div className="trade-card-line trade-card-details">
        <span className="trade-card-facts">{details}</span>
        {id !== undefined && (
          <span className="trade-card-id" title={b.cardId}>
            <span className="trade-card-label">{b.cardId}</span>
            <span className="num">{id}</span>
          </span>
        )}
      </div>
    </div>
  );
}

/** A labelled figure of a card's second line ('TP 45600.0'). */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="trade-card-fact">
      <span className="trade-card-label">{label}</span>
      {children}
    </span>
  );
}

/** Instrument, side and volume: what a row is about. */
function What({ row, cmd, volume }: { row: { symbol: string }; cmd: number; volume: number }) {
  return (
    <>
      <SymbolCell row={row} />
      <SideCell cmd={cmd} />
      <span className="num">{formatLots(volume)}</span>
    </>
  );
}

/** From one price to another (open → market, open → close). */
function PriceMove({ title, from, to }: { title: string; from: ReactNode; to: ReactNode }) {
  return (
    <span className="trade-card-fact" title={title}>
      {from}
      <span aria-hidden="true" className="trade-card-label">
        →
      </span>
      {to}
    </span>
  );
}

function Levels({ symbol, tp, sl }: { symbol: string; tp: number; sl: number }) {
  return (
    <>
      <Fact label={c.tp}>
        <LevelCell symbol={symbol} value={tp} />
      </Fact>
      <Fact label={c.sl}>
        <LevelCell symbol={symbol} value={sl} />
      </Fact>
    </>
  );
}

export function PositionCard({ row }: { row: PositionRow }) {
  return (
    <Card
      what={<What row={row} cmd={row.cmd} volume={row.volume} />}
      outcome={
        <span title={c.floatProfit}>
          <FloatingPnlCell row={row} />
        </span>
      }
      details={
        <>
          <PriceMove
            title={`${c.openPrice} → ${c.marketPrice}`}
            from={<PriceCell symbol={row.symbol} value={row.price} />}
            to={<MarketPriceCell row={row} />}
          />
          <Levels symbol={row.symbol} tp={row.tp} sl={row.sl} />
        </>
      }
      id={row.orderId}
    />
  );
}

export function SettledOrderCard({ row }: { row: SettledOrderRow }) {
  return (
    <Card
      what={<What row={row} cmd={row.closeCmd} volume={row.settleVolume} />}
      outcome={
        <span title={c.settleProfit}>
          <PnlText value={row.settleProfit} />
        </span>
      }
      details={
        <>
          <PriceMove
            title={`${c.openPrice} → ${c.closePrice}`}
            from={<PriceCell symbol={row.symbol} value={row.openPrice} />}
            to={<PriceCell symbol={row.symbol} value={row.closePrice} />}
          />
          <span className="trade-card-status" title={c.settleStatus}>
            {c.domainLabel(settlementLabel(row.isSettled))}
          </span>
          <span className="trade-card-status" title={c.closeReason}>
            {c.domainLabel(closeReasonLabel(row.closeReason))}
          </span>
          <span className="num" title={c.closeTime}>
            {formatEpochSeconds(row.closeAt)}
          </span>
        </>
      }
      id={row.tradeId}
    />
  );
}

export function PendingOrderCard({ row }: { row: PendingOrderRow }) {
  return (
    <Card
      what={
        <>
          <What row={row} cmd={row.cmd} volume={row.volume} />
          <Fact label="@">
            <PriceCell symbol={row.symbol} value={row.pendPrice} />
          </Fact>
        </>
      }
      outcome={<span title={c.expireType}>{row.expireType}</span>}
      details={
        <>
          <Levels symbol={row.symbol} tp={row.tp} sl={row.sl} />
          <span className="num" title={c.createdAt}>
            {formatEpochSeconds(row.createdAt)}
          </span>
        </>
      }
      id={row.pId}
    />
  );
}

export function OrderLogCard({ row }: { row: OrderLogRow }) {
  const levels = row.tp > 0 || row.sl > 0;
  return (
    <Card
      what={
        <>
          <What row={row} cmd={row.cmd} volume={row.volume} />
          <span className="trade-card-status">
            {c.domainLabel(orderActionLabel(row.actionType, row.pId !== null))}
          </span>
        </>
      }
      outcome={
        <span className={`order-status order-status-${row.orderStatus}`} title={c.status}>
          {c.domainLabel(orderStatusLabel(row.orderStatus))}
        </span>
      }
      details={
        <>
          <Fact label={c.price}>
            <PriceCell symbol={row.symbol} value={row.price} />
          </Fact>
          {levels && <Levels symbol={row.symbol} tp={row.tp} sl={row.sl} />}
          <span className="num" title={c.createdAt}>
            {formatEpochSeconds(row.createdAt)}
          </span>
          {row.message && (
            <span className="log-message" title={messages.http.serverText(row.message)}>
              {messages.http.serverText(row.message)}
            </span>
          )}
        </>
      }
    />
  );
}
