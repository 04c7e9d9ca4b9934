import type { Alert } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { alertText } from './text';

const base: Alert = {
  id: 1,
  symbol_id: 'BTCUSDT',
  kind: 'price',
  condition: 'crossing_up',
  level: 50_100,
  upper: null,
  lower: null,
  drawing_id: null,
  indicator: null,
  period: '1m',
  frequency: 'once',
  expires_at: null,
  message: '',
  webhook_url: null,
  status: 'active',
  fired_count: 0,
  last_fired_at: null,
  created_at: 1,
  updated_at: 1,
};

describe('alertText', () => {
  it('words each kind of alert', () => {
    expect(alertText(base)).toBe('BTCUSDT Crossing up 50100');
    expect(
      alertText({ ...base, kind: 'channel', condition: 'exiting', upper: 51_000, lower: 49_000 }),
    ).toBe('BTCUSDT Exiting channel 49000–51000');
    expect(alertText({ ...base, kind: 'drawing', condition: 'crossing', drawing_id: 4 })).toBe(
      'BTCUSDT Crossing drawn line',
    );
    expect(
      alertText({
        ...base,
        kind: 'indicator',
        level: null,
        indicator: { line: { kind: 'rsi', params: { period: 14 }, line: 'value' }, threshold: 70 },
      }),
    ).toBe('BTCUSDT RSI 14 Crossing up 70');
    expect(
      alertText({
        ...base,
        kind: 'indicator',
        condition: 'crossing',
        level: null,
        indicator: {
          line: { kind: 'sma', params: { period: 10 }, line: 'value' },
          other: { kind: 'sma', params: { period: 20 }, line: 'value' },
        },
      }),
    ).toBe('BTCUSDT SMA 10 Crossing SMA 20');
    expect(
      alertText({
        ...base,
        kind: 'indicator',
        level: null,
        indicator: {
          line: { kind: 'macd', params: {}, line: 'macd' },
          other: { kind: 'macd', params: {}, line: 'signal' },
        },
      }),
    ).toBe('BTCUSDT MACD 12 26 9 macd Crossing up MACD 12 26 9 signal');
  });
});
