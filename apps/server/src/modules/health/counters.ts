/**
 * Process-wide event counts that `/metrics` turns into Prometheus counters. Plain numbers,
 * so that the code that counts (the trading pipeline) needs no metrics library; like
 * prom-client's default registry they belong to the process, not to one app instance.
 */
export const operationCounts = {
  /** Account commands of the trading API (place, close, cancel, change) that committed. */
  orders: 0,
};
