import {
  MAX_CHAT_CONTEXT_CODE_CHARS,
  MAX_CHAT_CONTEXT_ERROR_CHARS,
  type ChatContext,
  type Performance,
  type Period,
} from '@ct/domain';

/** Most metrics one chat carries (the server's limit). */
const MAX_METRICS = 50;

/** The plain metrics of a run (numbers, texts, flags); curves and nested settings are left out. */
export function metricsForChat(
  performance: Performance,
): Record<string, number | string | boolean | null> {
  const metrics: Record<string, number | string | boolean | null> = {};
  for (const [key, value] of Object.entries(performance)) {
    if (Object.keys(metrics).length >= MAX_METRICS) break;
    if (value === null || ['number', 'boolean'].includes(typeof value)) {
      metrics[key] = value as number | boolean | null;
    } else if (typeof value === 'string' && value.length <= 200) {
      metrics[key] = value;
    }
  }
  return metrics;
}

export type ContextSources = {
  chart: { symbol: string | null; period: Period } | null;
  /** The Python Code Editor's text; null when it was never opened. */
  code: string | null;
  lastBacktest: {
    strategyName: string | null;
    performance: Performance | null;
    error: string | null;
  } | null;
};

/**
 * What the chat tells the model about the page: the active chart, the editor's code and the
 * last backtest's metrics or error, each only when known and within the server's limits (an
 * error keeps its end, where the exception is).
 */
export function buildChatContext({ chart, code, lastBacktest }: ContextSources): ChatContext {
  const context: ChatContext = {};
  if (chart?.symbol) {
    context.symbol = chart.symbol;
    context.period = chart.period;
  }
  if (code?.trim() && code.length <= MAX_CHAT_CONTEXT_CODE_CHARS) context.code = code;
  if (lastBacktest) {
    if (lastBacktest.strategyName) context.strategyName = lastBacktest.strategyName;
    if (lastBacktest.error?.trim()) {
      context.backtest = { error: lastBacktest.error.slice(-MAX_CHAT_CONTEXT_ERROR_CHARS) };
    } else if (lastBacktest.performance) {
      context.backtest = { metrics: metricsForChat(lastBacktest.performance) };
    }
  }
  return context;
}
