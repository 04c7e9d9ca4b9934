import { INDICATOR_PARAMS, resolveIndicatorParams, type IndicatorConfig } from '@ct/domain';
import { messages } from '../i18n/firstScreen';

/** An indicator's short label with its parameters: 'SMA 20', 'BB 20 2', 'MACD 12 26 9'. */
export function indicatorLabel(config: Pick<IndicatorConfig, 'kind' | 'params'>): string {
  const params = resolveIndicatorParams(config.kind, config.params);
  const values = INDICATOR_PARAMS[config.kind].map((spec) => String(params[spec.name]));
  return [messages.indicators.short[config.kind], ...values].join(' ');
}
