import type { ChatContext, ChatMessage } from '@ct/domain';

const ROLE = `You are the AI trading assistant of Chart Terminal, a paper-trading and charting \
terminal with a Python strategy backtester. Help the user write, explain and fix strategies \
and answer questions about trading.

The strategy contract: the strategy defines main(data_array). data_array is the list of bars, \
oldest first, each a list [date, code, period, open, high, low, close, volume] (date as \
'YYYY-MM-DD HH:MM:SS'). main returns a list of trade records (dicts) with open_date, \
close_date, open_price, close_price, lots and status: status 'NOT' means still open, 'YES' \
means closed; lots is positive for a buy, negative for a sell.

When you change or write a strategy, give the complete code in one \`\`\`python code block. \
Never invent backtest figures: the numbers come from the user's own backtests.`;

function fenced(language: string, text: string): string {
  // a fence longer than any backtick run inside, so the code cannot close it early
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/**
 * The system message of a chat: the assistant's role and the strategy contract, then what
 * the user is looking at (chart, editor code, last backtest), so that "why does this fail?"
 * is answered about the user's own strategy.
 */
export function systemMessage(context: ChatContext | null | undefined): string {
  const parts = [ROLE];
  if (!context) return ROLE;
  if (context.symbol || context.period) {
    const chart = [context.symbol, context.period && `period ${context.period}`]
      .filter(Boolean)
      .join(', ');
    parts.push(`The user's active chart: ${chart}.`);
  }
  if (context.code && context.code.trim() !== '') {
    const name = context.strategyName ? ` (strategy "${context.strategyName}")` : '';
    parts.push(`The code in the user's editor${name}:\n${fenced('python', context.code)}`);
  }
  const backtest = context.backtest;
  if (backtest?.error && backtest.error.trim() !== '') {
    parts.push(`The user's last backtest of this code failed with:\n${fenced('', backtest.error)}`);
  }
  if (backtest?.metrics && Object.keys(backtest.metrics).length > 0) {
    const lines = Object.entries(backtest.metrics).map(([k, v]) => `- ${k}: ${String(v)}`);
    parts.push(`The metrics of the user's last backtest of this code:\n${lines.join('\n')}`);
  }
  return parts.join('\n\n');
}

/**
 * The history as sent upstream: role and content only (reasoning is never sent back), with a
 * reasoning block a local model inlined as `<think>…</think>` removed from earlier answers.
 */
export function historyForProvider(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((m) =>
    m.role === 'assistant'
      ? { role: m.role, content: m.content.replace(/^\s*<think>[\s\S]*?<\/think>\s*/, '') }
      : { role: m.role, content: m.content },
  );
}
