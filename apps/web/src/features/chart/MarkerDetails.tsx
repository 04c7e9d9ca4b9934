import type { Period } from '@ct/domain';
import { CloseOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { messages } from '../../i18n/firstScreen';
import type { MarkerDetails as Details } from './ChartController';
import { formatBarTime } from './periods';
import { useLanguage } from '../../shared/language';
import { intlLocaleOf } from '../../i18n/texts';

const t = messages.chartTrades;

/** At most this many lines; the rest are counted. */
const MAX_LINES = 8;
/** Distance of the box from the pointer. */
const OFFSET_PX = 14;

/**
 * The details of the markers under the pointer (or of the bar clicked, pinned until the
 * next click, its × or Escape): each marker's full text, colour-matched, under the bar's
 * time. It sits beside the pointer, on the side with more room.
 */
export function MarkerDetails({
  store,
  period,
  width,
  onClose,
}: {
  store: StoreApi<Details | null>;
  period: Period;
  /** The chart's width in px (the box goes left of the pointer in its right half). */
  width: number | null;
  onClose: () => void;
}) {
  const details = useStore(store);
  const locale = intlLocaleOf(useLanguage());
  const pinned = details?.pinned ?? false;
  useEffect(() => {
    if (!pinned) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pinned, onClose]);
  if (!details || details.markers.length === 0) return null;

  const { markers, x, y } = details;
  const times = [...new Set(markers.map((m) => m.time))];
  const left = width === null || x < width / 2;
  const style: React.CSSProperties = {
    top: Math.max(y - OFFSET_PX, 28),
    ...(left ? { left: x + OFFSET_PX } : { right: (width ?? 0) - x + OFFSET_PX }),
  };
  const shown = markers.slice(0, MAX_LINES);
  return (
    <div
      className={
        pinned ? 'chart-marker-details chart-marker-details-pinned' : 'chart-marker-details'
      }
      role="tooltip"
      aria-label={t.markerDetails}
      style={style}
    >
      <div className="chart-marker-details-head">
        <span>{times.map((time) => formatBarTime(time, period, locale)).join(', ')}</span>
        {pinned && (
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label={t.closeDetails}
            onClick={onClose}
          />
        )}
      </div>
      <ul>
        {shown.map((m, i) => (
          <li key={i}>
            <span
              className="chart-marker-details-arrow"
              style={{ color: m.color }}
              aria-hidden="true"
            >
              {m.shape === 'arrowUp' ? '▲' : '▼'}
            </span>
            {m.detail ?? m.text}
          </li>
        ))}
        {markers.length > shown.length && <li>{t.moreMarkers(markers.length - shown.length)}</li>}
      </ul>
    </div>
  );
}
