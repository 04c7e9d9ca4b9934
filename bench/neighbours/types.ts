/*
 * The noisy-neighbour bench (`npm run bench -- --only=neighbours`): the neighbour's health,
 * order and kline latencies (p50/p99) while another user runs each heavy operation, against
 * the same calls on the idle server, in the same run. Each heavy operation is a module in
 * `operations/` exporting `operation: HeavyOperation`.
 */

/** A logged-in user of the bench's server. */
export type BenchLogin = { email: string; cookie: string; uuid: string; token: string };

export type BenchContext = {
  /** The product's base URL (its own process, PGlite, as `npm start` runs it). */
  url: string;
  /** The user running the heavy operation. */
  heavy: BenchLogin;
  /** The OpenAI-compatible test model's `…/v1` base URL, when the operation asked for it. */
  modelBase?: string;
};

export type HeavyOperation = {
  /** As printed in the report, e.g. 'CSV import, 100,000 rows'. */
  name: string;
  /** Settings the server needs for it (added to its environment). */
  env?: Record<string, string>;
  /** Needs the local OpenAI-compatible test server (its base URL is in the context). */
  needsModel?: boolean;
  /** Runs the heavy operation once, to its end (the neighbour is measured meanwhile). */
  run(context: BenchContext): Promise<void>;
};
