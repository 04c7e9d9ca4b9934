/*
 * Strategies and model answers for the AI task tests (server tests and their helpers) and the
 * AI task benchmark (bench/ai/tasks.ts, as `@ct/server/ai-strategies`):
 * Python sources the local OpenAI-compatible test server answers with.
 */

/** A 10/30 moving-average crossover, always in the market: decides on closes up to bar i. */
export const GOOD_STRATEGY = `def main(data_array):
    closes = [row[6] for row in data_array]
    trades = []
    position = None
    for i in range(30, len(data_array)):
        fast = sum(closes[i - 9:i + 1]) / 10
        slow = sum(closes[i - 29:i + 1]) / 30
        side = 1 if fast > slow else -1
        if position is None or position['lots'] * side < 0:
            if position is not None:
                position['close_date'] = data_array[i][0]
                position['close_price'] = closes[i]
                position['status'] = 'YES'
                trades.append(position)
            position = {'open_date': data_array[i][0], 'open_price': closes[i], 'lots': side,
                        'close_date': None, 'close_price': None, 'status': 'NOT'}
    if position is not None:
        trades.append(position)
    return trades`;

/** The same strategy with a misspelt name: a NameError at run time. */
export const BROKEN_STRATEGY = GOOD_STRATEGY.replace(
  'slow = sum(closes[i - 29:i + 1]) / 30',
  'slow = sum(closes_all[i - 29:i + 1]) / 30',
);

/** Runs and keeps the contract, but never trades. */
export const IDLE_STRATEGY = `def main(data_array):
    return []`;

/** Buys a bar when the NEXT bar's close is higher: it peeks into the future. */
export const LOOKAHEAD_STRATEGY = `def main(data_array):
    trades = []
    for i in range(len(data_array) - 1):
        if data_array[i + 1][6] > data_array[i][6]:
            trades.append({'open_date': data_array[i][0], 'open_price': data_array[i][6], 'lots': 1,
                           'close_date': data_array[i + 1][0], 'close_price': data_array[i + 1][6],
                           'status': 'YES'})
    return trades`;

/** A model's markdown answer holding `code` in a python block. */
export function answerWith(code: string): string {
  return `Here is the strategy:\n\n\`\`\`python\n${code}\n\`\`\`\n\nIt follows the contract.`;
}
