import { BellOutlined } from '@ant-design/icons';
import { formatPrice, type Alert, type Period } from '@ct/domain';
import { LineStyle } from 'lightweight-charts';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { alerts as messages } from '../../../i18n/defaults/alerts';
import {
  openAddAlert,
  useAlertDialog,
  useAlertsLive,
  changeAlert,
  useAlertList,
} from '../../alerts';
import type { ChartController } from '../ChartController';
import { TradeLinesLayer, type LinePlaces } from '../trades/TradeLinesLayer';
import './alerts.css';
import { loadAddAlertDialog } from '../../alerts/lazy';

const a = messages.alerts;

// the dialog (a Modal with its form) loads when "Add alert" is chosen
const AddAlertDialog = lazy(() => loadAddAlertDialog());

/** The alert line colour: an orange that reads on the light and the dark chart alike. */
const ALERT_COLOR = '#ef6c00';
const lineIdOf = (alert: Alert) => `alert-${alert.id}`;
const alertIdOf = (lineId: string) => Number(lineId.slice('alert-'.length));

type Menu = { x: number; y: number; price: number };

function DialogHost() {
  const open = useAlertDialog((s) => s.draft !== null);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <AddAlertDialog />
    </Suspense>
  );
}

/**
 * The user's price alerts on one chart: a dashed line with a bell label per active or paused
 * alert of the chart's instrument, dragged (line or label) to move its level; and the chart's
 * context menu, whose "Add alert at …" opens the Add alert dialog at the price under the
 * pointer. The alerts are the query cache's list (features/alerts), so a fire, an edit in the
 * Alerts panel or on another chart shows here at once.
 */
export function ChartAlerts({
  controller,
  symbol,
  tick,
  period,
}: {
  controller: ChartController;
  symbol: string;
  tick: number;
  period?: Period;
}) {
  useAlertsLive();
  const list = useAlertList();
  const alerts = useMemo(
    () =>
      (list.data ?? []).filter(
        (x) =>
          x.symbol_id === symbol &&
          x.kind === 'price' &&
          x.level !== null &&
          (x.status === 'active' || x.status === 'paused'),
      ),
    [list.data, symbol],
  );
  const [places, setPlaces] = useState<LinePlaces>(new Map());
  const [dragging, setDragging] = useState<{ id: string; price: number } | null>(null);
  const [menu, setMenu] = useState<Menu | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  const [layer] = useState(
    () =>
      new TradeLinesLayer({
        place: (next) => setPlaces(next),
        dragMove: (id, price) => setDragging({ id, price }),
        drop: (id, price) => {
          setDragging({ id, price });
          void changeAlert(alertIdOf(id), { level: price }).then(() => setDragging(null));
        },
        dragCancel: () => setDragging(null),
      }),
  );
  useEffect(() => controller.addLayer(layer), [controller, layer]);
  useEffect(() => layer.setTick(tick), [layer, tick]);
  useEffect(() => {
    layer.setLines(
      alerts.map((alert) => ({
        id: lineIdOf(alert),
        price: alert.level ?? 0,
        color: ALERT_COLOR,
        lineStyle: LineStyle.Dashed,
        draggable: true,
      })),
    );
  }, [layer, alerts]);

  // the chart's context menu: "Add alert at <price under the pointer>"
  useEffect(() => {
    const wrap = rootRef.current?.parentElement;
    if (!wrap) return;
    const onContextMenu = (event: MouseEvent) => {
      const canvas = wrap.querySelector('.chart-canvas');
      if (!canvas || !canvas.contains(event.target as Node)) return;
      const box = canvas.getBoundingClientRect();
      const price = layer.priceAt(event.clientY - box.top);
      if (price === null || !(price > 0)) return;
      event.preventDefault();
      const outer = wrap.getBoundingClientRect();
      setMenu({ x: event.clientX - outer.left, y: event.clientY - outer.top, price });
    };
    wrap.addEventListener('contextmenu', onContextMenu);
    return () => wrap.removeEventListener('contextmenu', onContextMenu);
  }, [layer]);
  useEffect(() => {
    if (!menu) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent && event.key !== 'Escape') return;
      if (event.target instanceof Node && rootRef.current?.contains(event.target)) return;
      setMenu(null);
    };
    window.addEventListener('pointerdown', close, true);
    window.addEventListener('keydown', close, true);
    return () => {
      window.removeEventListener('pointerdown', close, true);
      window.removeEventListener('keydown', close, true);
    };
  }, [menu]);

  return (
    <div ref={rootRef} className="chart-alerts" role="group" aria-label={a.lines}>
      {alerts.map((alert) => {
        const id = lineIdOf(alert);
        const y = places.get(id);
        if (y === null || y === undefined) return null;
        const price = dragging?.id === id ? dragging.price : (alert.level ?? 0);
        const priceText = formatPrice(price, tick);
        return (
          <div
            key={id}
            className={[
              'chart-alert-label',
              alert.status === 'paused' ? 'chart-alert-paused' : '',
              dragging?.id === id ? 'chart-alert-active' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            role="group"
            aria-label={a.lineLabel(a.conditions[alert.condition], priceText)}
            data-price={price}
            style={{ top: y - 10 }}
            onPointerDown={(event) => layer.grab(id, event.nativeEvent)}
          >
            <BellOutlined aria-hidden="true" />
            <span className="num">{priceText}</span>
          </div>
        );
      })}
      {menu && (
        <div
          className="chart-alert-menu"
          role="menu"
          aria-label={a.chartMenu}
          style={{ left: menu.x, top: menu.y }}
        >
          <button
            type="button"
            role="menuitem"
            ref={(el) => el?.focus({ preventScroll: true })}
            onClick={() => {
              openAddAlert({ symbol, price: menu.price, tick, period });
              setMenu(null);
            }}
          >
            <BellOutlined aria-hidden="true" /> {a.addAlertAt(formatPrice(menu.price, tick))}
          </button>
        </div>
      )}
      <DialogHost />
    </div>
  );
}
