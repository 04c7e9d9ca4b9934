import type { AiSegmentResult } from '@ct/domain';
import type { Failed, TaskData, TaskRun } from './deps.ts';
import { fail, say } from './record.ts';
import { summary } from './report.ts';
import { check } from './sandbox.ts';

/*
 * The validation step: the code run in the sandbox on the in-sample bars only, where it must
 * keep the strategy contract and trade; its in-sample backtest is kept in the conversation.
 * An unavailable sandbox ends the task FAILED (a fix prompt cannot help).
 */

/** The in-sample result, an error to feed back, or 'ended' (the task FAILED). */
export async function validate(
  run: TaskRun,
  code: string,
  data: TaskData,
): Promise<{ ok: true; result: AiSegmentResult } | Failed | 'ended'> {
  const { inSample, inSpan, period } = data;
  const checked = await check(run, code, inSample, period);
  if (!checked.ok && checked.kind === 'unavailable') {
    await say(run, 'ai', 'error', checked.error, { stage: 'sandbox' });
    await fail(run, checked.error);
    return 'ended';
  }
  if (!checked.ok || checked.trades.length === 0) {
    const error = checked.ok
      ? `The strategy made no trades on the data (${inSample.length} bars from ${inSpan.from} to ${inSpan.to}); it must trade.`
      : checked.error;
    return { ok: false, error };
  }
  await say(
    run,
    'ai',
    'validation',
    `The code runs in the sandbox and keeps the contract on the in-sample data (${inSample.length} bars from ${inSpan.from} to ${inSpan.to}): ${checked.trades.length} trades.`,
    { passed: true, bars: inSample.length, trades: checked.trades.length, code },
  );
  const result: AiSegmentResult = {
    ...inSpan,
    bar_count: inSample.length,
    trade_count: checked.deals.length,
    performance: checked.performance,
  };
  await say(run, 'ai', 'backtest', `In-sample backtest: ${summary(checked.performance)}.`, {
    segment: 'in_sample',
    ...result,
  });
  return { ok: true, result };
}
