import type { Period } from '@ct/domain';
import type { LiveRunRow } from '../../../db/schema.ts';
import { feedsAtClose, runStrategy, type StrategyOutcome } from '../evaluate.ts';
import type { ClosedBar, LiveRunnerOptions, Say } from './deps.ts';

/* The strategy step: `main(data_array)` on the closed window, in the sandbox. */

/** Printed lines an evaluation keeps (all are streamed). */
const MAX_KEPT_LINES = 200;
const MAX_KEPT_LINE_CHARS = 1000;

/** A runner's sandbox slots: at most `size` strategies of its runs at once, the rest wait. */
export class Slots {
  private readonly waiting: (() => void)[] = [];
  private active = 0;

  constructor(private readonly size: number) {}

  /** Runs `work` when a slot is free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

/** The strategy on the window, in one of the runner's slots; the printed lines kept. */
export async function runCode(
  options: Pick<LiveRunnerOptions, 'pool' | 'market' | 'settings' | 'now'>,
  slots: Slots,
  row: LiveRunRow,
  closed: ClosedBar,
  say: Say,
): Promise<{ outcome: StrategyOutcome; printed: string[] }> {
  const printed: string[] = [];
  const outcome = await slots.run(() =>
    runStrategy(
      options.pool,
      {
        code: row.code,
        filename: `${row.strategyName}.py`,
        symbol: row.symbol,
        period: row.period,
        bars: closed.bars,
        ...(row.feeds
          ? {
              feeds: feedsAtClose(
                options.market,
                { code: row.symbol, period: row.period as Period, bars: closed.bars },
                row.feeds,
                closed.closeMs,
                options.settings.windowBars,
                options.now(),
              ),
            }
          : {}),
      },
      `live:${row.userId}`,
      (line) => {
        if (printed.length < MAX_KEPT_LINES) printed.push(line.slice(0, MAX_KEPT_LINE_CHARS));
        say(line);
      },
    ),
  );
  return { outcome, printed };
}
