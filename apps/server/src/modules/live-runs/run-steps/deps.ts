import type { Bar, LiveRunEvaluationView } from '@ct/domain';
import type { LiveRunRow, TraderRow } from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';
import type { LogHub } from '../../backtest/log-hub.ts';
import type { SandboxPool } from '../../backtest/sandbox/pool.ts';
import type { MarketFeed } from '../../market/feed.ts';
import type { MarketData } from '../../market/market-data.ts';
import type { TradingContext } from '../../trading/context.ts';
import type { LiveRunSettings } from '../settings.ts';

/* What every step of a live run's evaluation works with. */

/** Prefix of the lines the runner itself sends on a run's log socket. */
export const LIVE_LOG_PREFIX = '[live]';

export type EvaluatedEvent = {
  runId: string;
  /** The bar close, UTC ms. */
  closeMs: number;
  /** When each order filled (UTC ms, the trading clock). */
  fillsAt: number[];
  view: LiveRunEvaluationView;
};

export type LiveRunnerOptions = {
  db: Db;
  market: MarketData;
  feed: Pick<MarketFeed, 'onQuote'>;
  trading: TradingContext;
  pool: SandboxPool;
  logs: LogHub;
  now: () => number;
  settings: LiveRunSettings;
  log: {
    warn: (details: Record<string, unknown>, message: string) => void;
    error: (details: Record<string, unknown>, message: string) => void;
  };
  /** This runner's name in `lease_owner`; unique per start. */
  owner?: string;
  /** After a written evaluation that failed or stopped the run: tells the user. */
  onFailed?: (
    run: { id: string; userId: number; strategyName: string; symbol: string },
    barTimeMs: number,
    error: string | null,
    stoppedWith: string | null,
  ) => Promise<void>;
  /** Called after each written evaluation (the benchmark measures delays with it). */
  onEvaluated?: (event: EvaluatedEvent) => void;
  /**
   * Tests: called when the trading pipeline has answered an order and before the run keeps
   * it; a SimulatedCrash thrown there stands for the process dying between the two.
   */
  afterOrderSent?: (runId: string, clientOrderId: string) => Promise<void>;
};

/** A run held by this runner while its job is. */
export type HeldRun = {
  row: LiveRunRow;
  trader: TraderRow | null;
  busy: Promise<void> | null;
  /** A check came while busy: check again when done. */
  again: boolean;
  /** The bar in progress when the bars were last read and held no new closed bar. */
  lookedAt: number | null;
  /** Settles when the run is no longer held here (it ended, or its job was lost). */
  ended: Promise<void>;
  /** Ends the run's job handler (the run ended, or its job is no longer held here). */
  release: () => void;
};

/** The newest closed bar of a run (the window's last) and when it closed (UTC ms). */
export type ClosedBar = { bars: Bar[]; closeMs: number };

/** Sends a line on the run's log socket. */
export type Say = (line: string) => void;

/** A crash stand-in thrown by tests from `afterOrderSent`: nothing more of the evaluation is written. */
export class SimulatedCrash extends Error {}
