import type { FastifyInstance } from 'fastify';

/*
 * Graceful shutdown of one node (SIGTERM from systemd, docker or an orchestrator):
 *   1. `/readyz` turns 503 and new HTTP requests are answered 503 with `Connection: close`;
 *      the listening socket closes, so new connections are refused (a balancer tries the
 *      next node) and idle keep-alive connections are closed;
 *   2. live WebSockets are closed with 3001 "shutdown", a code on which the Centrifuge client
 *      reconnects (to another node through the balancer) and resubscribes;
 *   3. running requests (orders among them: each commits or rolls back as a whole), the
 *      trigger engine's work and backtests (running and queued) are given `graceMs` to end;
 *   4. then the app closes (what is still running is stopped: sandboxes are killed, AI tasks
 *      are handed back), and the caller closes the database and exits.
 */

/** What was still busy when the drain ended (all zero after a clean drain). */
export type Busy = { requests: number; backtests: number };

export type DrainReport = {
  /** Milliseconds the drain took. */
  ms: number;
  /** True when the grace ran out with work left (`left`). */
  timedOut: boolean;
  left: Busy;
};

export type DrainOptions = {
  /** Longest wait for running work (SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** How often the remaining work is counted while waiting. */
  pollMs?: number;
};

function busyOf(app: FastifyInstance): Busy {
  const { sandbox } = app.services.backtest;
  return {
    requests: app.operations.inFlight(),
    backtests: sandbox.runningCount() + sandbox.queuedCount(),
  };
}

const idle = (b: Busy) => b.requests === 0 && b.backtests === 0;

/** Steps 1–3 above; resolves once the node is idle or the grace has run out. */
export async function drain(app: FastifyInstance, options: DrainOptions): Promise<DrainReport> {
  const started = performance.now();
  const deadline = started + options.graceMs;
  app.operations.startDraining();
  if (app.server.listening) {
    // stop listening now; Fastify's close() later tolerates the server being closed already
    app.server.close();
    app.server.closeIdleConnections();
  }
  app.services.hub.close();

  const pollMs = options.pollMs ?? 50;
  let busy = busyOf(app);
  while (!idle(busy) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    busy = busyOf(app);
  }
  // the trigger engine's current work (a fill, a TP/SL close) is short: let it end
  const engineIdle = app.services.trading.engine.whenIdle();
  const rest = Math.max(0, deadline - performance.now());
  let timer: NodeJS.Timeout | undefined;
  const engineDone = await Promise.race([
    engineIdle.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), rest);
    }),
  ]);
  clearTimeout(timer);
  busy = busyOf(app);
  return {
    ms: Math.round(performance.now() - started),
    timedOut: !idle(busy) || !engineDone,
    left: busy,
  };
}

export type ShutdownOptions = DrainOptions & {
  /** Closes what the app does not own (the database); runs after the app has closed. */
  closeResources: () => Promise<void>;
};

/** Drains the node, closes the app, then `closeResources`. Logs what the drain left. */
export async function shutdown(app: FastifyInstance, options: ShutdownOptions): Promise<void> {
  const report = await drain(app, options);
  if (report.timedOut) {
    app.log.warn(
      { ...report.left, graceMs: options.graceMs },
      'shutdown: the grace ran out; stopping what is still running',
    );
  } else {
    app.log.info({ ms: report.ms }, 'shutdown: drained');
  }
  await app.close();
  await options.closeResources();
}

/**
 * SIGTERM and SIGINT start `shutdown` and exit 0 when it is done (1 when it failed); a second
 * signal exits 1 at once (a second Ctrl-C does not wait any longer). Returns the function
 * that removes the signal handlers (tests).
 */
export function shutdownOnSignals(
  app: FastifyInstance,
  options: ShutdownOptions & { exit?: (code: number) => void },
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return exit(1);
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    shutdown(app, options).then(
      () => exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
}
