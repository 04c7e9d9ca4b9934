import {
  MAX_TRADE_RECORDS,
  formatContractDate,
  validateTradeRecords,
  type Bar,
  type ValidTrade,
} from '@ct/domain';
import { payloadSchema } from '../backtest/service.ts';
import {
  SandboxBusyError,
  SandboxUnavailableError,
  type SandboxPool,
} from '../backtest/sandbox/pool.ts';
import { formatBytes } from '../backtest/sandbox/settings.ts';

/** What a strategy run on some bars gave: its validated trades, or why there are none. */
export type StrategyOutcome =
  { ok: true; trades: ValidTrade[]; wallMs: number } | { ok: false; error: string; wallMs: number };

/**
 * Runs `main(data_array)` in the sandbox on `bars` exactly as a backtest does (the same rows,
 * the same contract checks) and passes each printed line to `onLine` as it comes. The sandbox
 * pool's own queue and share per owner apply (`owner`).
 */
export async function runStrategy(
  pool: SandboxPool,
  job: { code: string; filename: string; symbol: string; period: string; bars: readonly Bar[] },
  owner: string,
  onLine: (line: string) => void,
): Promise<StrategyOutcome> {
  const rows = job.bars.map((bar) => [
    formatContractDate(bar.time),
    job.symbol,
    job.period,
    bar.open,
    bar.high,
    bar.low,
    bar.close,
    bar.volume,
  ]);
  let outcome;
  try {
    outcome = await pool.run({ code: job.code, filename: job.filename, rows }, onLine, { owner });
  } catch (error) {
    if (error instanceof SandboxUnavailableError || error instanceof SandboxBusyError) {
      return { ok: false, error: error.message, wallMs: 0 };
    }
    throw error;
  }
  const wallMs = Math.round(outcome.wallMs);
  if (outcome.kind === 'failed') return { ok: false, error: outcome.message, wallMs };
  const parsed = payloadSchema.safeParse(outcome.payload);
  if (!parsed.success) {
    return { ok: false, error: 'The strategy process returned a malformed result', wallMs };
  }
  const payload = parsed.data;
  if (!payload.ok) {
    const error =
      payload.kind === 'memory'
        ? `Memory limit exceeded (${formatBytes(pool.settings.memoryBytes)})`
        : payload.error;
    return { ok: false, error, wallMs };
  }
  if (payload.count !== null && payload.count > MAX_TRADE_RECORDS) {
    return {
      ok: false,
      error: `Invalid strategy result: main() returned ${payload.count} trade records; at most ${MAX_TRADE_RECORDS} are allowed`,
      wallMs,
    };
  }
  const checked = validateTradeRecords(
    payload.records,
    job.bars.map((bar) => bar.time),
  );
  if (!checked.ok) return { ok: false, error: `Invalid strategy result: ${checked.error}`, wallMs };
  return { ok: true, trades: checked.trades, wallMs };
}
