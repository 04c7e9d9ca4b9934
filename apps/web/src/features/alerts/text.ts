import type { Alert, IndicatorLine } from '@ct/domain';
import { alerts as messages } from '../../i18n/defaults/alerts';
import { indicatorLabel } from '../../shared/indicatorLabel';

const a = messages.alerts;

/** An indicator line's name: 'RSI 14', 'SMA 20', 'MACD 12 26 9 signal'. */
export function indicatorLineText(line: IndicatorLine): string {
  return a.lineOf(indicatorLabel(line), line.line);
}

/**
 * What an alert waits for, in words: 'BTCUSDT Crossing up 50100', 'BTCUSDT Entering channel
 * 49000–51000', 'BTCUSDT Crossing drawn line', 'BTCUSDT RSI 14 Crossing up 70',
 * 'BTCUSDT SMA 10 Crossing SMA 20'.
 */
export function alertText(alert: Alert): string {
  const condition = a.conditions[alert.condition];
  switch (alert.kind) {
    case 'channel':
      return a.alertRow(alert.symbol_id, condition, `${alert.lower ?? ''}–${alert.upper ?? ''}`);
    case 'drawing':
      return a.alertRow(alert.symbol_id, condition, a.drawnLine);
    case 'indicator': {
      const indicator = alert.indicator;
      if (!indicator) return a.alertRow(alert.symbol_id, condition, '');
      const against = indicator.other
        ? indicatorLineText(indicator.other)
        : String(indicator.threshold ?? '');
      return a.indicatorRow(alert.symbol_id, indicatorLineText(indicator.line), condition, against);
    }
    default:
      return a.alertRow(
        alert.symbol_id,
        condition,
        alert.level === null ? '' : String(alert.level),
      );
  }
}
