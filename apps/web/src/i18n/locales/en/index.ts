import { MSG_TOKEN_INVALID } from '@ct/domain';
import type { Messages } from '../../messages';
import type { Texts } from '../../texts';
import { formatNumber } from '../../intl';

type Some<S extends keyof Messages, K extends keyof Texts<Messages[S]>> = Pick<
  Texts<Messages[S]>,
  K
>;

/**
 * English: the default texts are English except the ones the spec gives in Chinese; these are
 * those texts in English, section by section (a section's other texts are the default ones).
 * The unit test checks that English shows no Chinese text anywhere.
 */
export const en: {
  http: Some<'http', 'tokenInvalid' | 'serverText'>;
  bottomPanel: Some<
    'bottomPanel',
    'emptyPositions' | 'emptyOrders' | 'emptyPending' | 'emptyOrderLogs'
  >;
  trading: Some<
    'trading',
    | 'noCurrentTrader'
    | 'positionsFailed'
    | 'orderLogsFailed'
    | 'settlesFailed'
    | 'pendingsFailed'
    | 'orderFailedDefault'
    | 'pendingFailedDefault'
    | 'tpslFailedDefault'
    | 'closeFailedDefault'
    | 'cancelFailedDefault'
  >;
  perfTest: Texts<Messages['perfTest']>;
} = {
  http: {
    tokenInvalid: 'Token verification failed',
    // the server's texts are English but the token's (spec section 8)
    serverText: (text: string) => (text === MSG_TOKEN_INVALID ? 'Token verification failed' : text),
  },
  bottomPanel: {
    emptyPositions: 'No positions',
    emptyOrders: 'No orders',
    emptyPending: 'No pending orders',
    emptyOrderLogs: 'No order logs',
  },
  trading: {
    noCurrentTrader: 'No current trading account found',
    positionsFailed: 'Failed to get positions',
    orderLogsFailed: 'Failed to get the order list',
    settlesFailed: 'Failed to get the settlement list',
    pendingsFailed: 'Failed to get pending orders',
    orderFailedDefault: 'Order failed',
    pendingFailedDefault: 'Pending order failed',
    tpslFailedDefault: 'Failed to modify take profit / stop loss',
    closeFailedDefault: 'Failed to close the position',
    cancelFailedDefault: 'Failed to cancel the pending order',
  },
  perfTest: {
    title: 'Performance Test',
    heading: 'Live data performance test',
    back: 'Back to home',
    symbols: 'Test instruments',
    subscribe: 'Subscribe to test instruments',
    unsubscribe: 'Unsubscribe',
    subscribed: 'Subscribed',
    notSubscribed: 'Not subscribed',
    live: 'Live',
    simulated: 'Simulated data',
    monitoring: 'Performance monitoring',
    startMonitoring: 'Start monitoring',
    stopMonitoring: 'Stop monitoring',
    monitoringOn: (seconds: number) => `Monitoring, reporting every ${seconds} s`,
    monitoringOff: 'Monitoring stopped',
    panelTitle: 'Performance monitor panel',
    openPanel: 'Open the monitor panel (Alt+Shift+P, reports every 5 s)',
    closePanel: 'Close the monitor panel',
    stats: 'Live statistics',
    messagesPerSecond: 'Messages received/s',
    updatesPerSecond: 'Updates applied/s',
    coalescedPerSecond: 'Coalesced or dropped/s',
    batchSize: 'Average batch size',
    maxBatch: 'Largest batch',
    longTasks: 'Long tasks (>50ms)',
    longTaskTime: 'Long task time',
    frameRate: 'Frame rate',
    memory: 'Memory',
    notReported: 'Not reported by the browser',
    frameMessages: 'Frame messages in/out',
    ignoredMessages: 'Ignored messages',
    waitingReport: 'Waiting for the first report…',
    controlPanel: 'Performance control panel',
    priceUpdateDelay: 'Price update delay',
    chartDataUpdateDelay: 'Chart data update delay',
    maxDataPoints: 'Max data points',
    presets: 'Presets',
    presetNames: { highPerformance: 'High performance', balanced: 'Balanced', low: 'Low' },
    applied: 'Applied',
    presetTest: 'Preset performance test',
    runPresetTest: 'Run preset test',
    stopPresetTest: 'Stop test',
    presetDuration: 'Each preset runs',
    seconds: (n: number) => `${n} s`,
    presetRunning: (name: string, left: number) => `Testing “${name}”, ${left} s left`,
    presetColumns: {
      preset: 'Preset',
      delays: 'Price/chart delay (ms)',
      maxPoints: 'Max data points',
      messages: 'Messages/s',
      updates: 'Updates/s',
      coalesced: 'Coalesced',
      longTasks: 'Long tasks',
      fps: 'Frame rate',
    },
    presetEmpty: 'No test run yet',
    load: 'Server load',
    loadRate: 'Pushes per instrument per second',
    loadRateOption: (n: number) => `${n}/s`,
    startLoad: 'Start load',
    stopLoad: 'Stop load',
    loadRunning: (rate: number, left: number) =>
      `Load running: ${rate}/s per instrument, ${left} s left`,
    loadIdle: 'No load running (quotes at their normal rate)',
    loadUnavailable: 'The server has no load control (MARKET_LOAD_CONTROL=1)',
    loadFailed: 'The load control request failed',
    charts: 'Price charts',
    lineChart: (symbol: string) => `${symbol} line chart`,
    candleChart: (symbol: string) => `${symbol} candlestick chart`,
    volumeChart: 'Volume chart (random data)',
    embedded: 'Embedded chart pages',
    embeddedHint:
      'Chart pages in two child frames; this page pushes prices to them with PRICE_UPDATE messages',
    priceUpdatesSent: (n: number) => `PRICE_UPDATE sent: ${formatNumber(n)}`,
    embeddedTitle: (symbol: string) => `${symbol} embedded chart`,
  },
};
