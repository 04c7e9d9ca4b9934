import type {} from '@fastify/websocket';
import {
  CLIENT_ID_PATTERN,
  CODE_RATE_LIMITED,
  DEFAULT_LOADED_BARS,
  backtestCodeRequestSchema,
  backtestRunRequestSchema,
  historicalLength,
  parsePeriod,
  type Bar,
  type HistoricalData,
} from '@ct/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, BadRequestError, NotFoundError } from '../../http/errors.ts';
import { JsonPieces, sendJsonStream } from '../../http/json-stream.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { sessionOf } from '../auth/guard.ts';
import { originGuard } from '../gateway/routes.ts';
import { feedsAround, resolveFeeds } from './feeds.ts';
import { historicalBarsOf, inferredPeriodOf } from './historical.ts';
import type { LogHub } from './log-hub.ts';
import type { SandboxPool } from './sandbox/pool.ts';
import type { BacktestService, RunResult } from './service.ts';

/** Path of the run helper (the spec leaves it to us). */
export const RUN_HELPER_PATH = '/api/backtest/run';
/** Bodies with 200,000 bars of historical_data are about 20 MiB. */
export const BACKTEST_BODY_LIMIT = 48 * 1024 * 1024;
/** First line every log socket receives (spec section 8). */
export const LOG_SOCKET_GREETING = 'Connection established, waiting for logs...';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The strategy file name shown in tracebacks: a base name ending in .py. */
function strategyFilename(filename: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  if (base === '') return 'strategy.py';
  return base.endsWith('.py') ? base : `${base}.py`;
}

function clientIdOf(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (!CLIENT_ID_PATTERN.test(value)) {
    throw new BadRequestError(`${field}: must be 1-128 letters, digits or _ . : -`);
  }
  return value;
}

/** One more log socket over a cap (per user, per client id). */
export class TooManyLogSocketsError extends AppError {
  constructor(message: string) {
    super(CODE_RATE_LIMITED, message, 429);
  }
}

/** A slow reader's socket is given this long to take its close frame, then destroyed. */
const CLOSE_GRACE_MS = 1000;

/** The answer of a run refused as busy before its body was read. */
function busyResult(error: string): RunResult {
  return {
    symbol: '',
    period: '',
    bar_count: 0,
    run_id: null,
    deals: [],
    performance: null,
    error,
    error_kind: 'busy',
    logs: [],
    elapsed_ms: 0,
    strategy_ms: null,
  };
}

/** Settles once the reply has been written, or its connection has gone (a run is stored then). */
function answeredOf(reply: FastifyReply): Promise<void> {
  return new Promise((resolve) => {
    reply.raw.once('finish', () => resolve());
    reply.raw.once('close', () => resolve());
  });
}

function historicalBars(rows: HistoricalData): Bar[] {
  const converted = historicalBarsOf(rows);
  if (!converted.ok) throw new BadRequestError(converted.error);
  return converted.bars;
}

export function backtestRoutes(
  root: FastifyInstance,
  service: BacktestService,
  hub: LogHub,
  pool: SandboxPool,
  publicOrigins: readonly string[] = [],
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const guard = { preHandler: app.requireSession };
  const checkOrigin = originGuard(publicOrigins);

  // A user's body is admitted (or refused) by the user's backtest slots before it is read
  // and parsed: a user cannot have more bodies in memory than backtests running and waiting.
  const admitted = new Map<number, number>();
  const limit = () => pool.settings.maxPerUser + pool.settings.maxQueuedPerUser;
  const ADMITTED = Symbol('admitted backtest body');
  type Admitted = FastifyRequest & { [ADMITTED]?: number };
  const release = async (request: FastifyRequest) => {
    const userId = (request as Admitted)[ADMITTED];
    if (userId === undefined) return;
    delete (request as Admitted)[ADMITTED];
    const left = (admitted.get(userId) ?? 1) - 1;
    if (left > 0) admitted.set(userId, left);
    else admitted.delete(userId);
  };
  const admission = {
    bodyLimit: BACKTEST_BODY_LIMIT,
    config: { bodyInWorker: true },
    preParsing: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const session = await app.sessionIfAny(request);
      if (!session) return payload; // the session guard refuses it, as before
      const count = admitted.get(session.userId) ?? 0;
      if (count >= limit()) {
        // the service's 'busy' answer, without what only the unread body would tell
        const refused = busyResult(
          `You already have ${count} backtests running or waiting; wait for one to finish`,
        );
        const helper = request.routeOptions.url === RUN_HELPER_PATH;
        await reply.send(
          helper ? { success: false, reason: refused.error, data: refused } : refused,
        );
        return payload;
      }
      admitted.set(session.userId, count + 1);
      (request as Admitted)[ADMITTED] = session.userId;
      return payload;
    },
    onResponse: release,
    onRequestAbort: release,
  };

  app.post(
    '/api/backtest/code',
    { ...guard, ...admission, schema: { body: backtestCodeRequestSchema } },
    async (request, reply) => {
      const body = request.body;
      const clientId = clientIdOf(body.client_id, 'client_id');
      const userId = sessionOf(request).userId;
      if (body.feeds) {
        const feeds = await resolveFeeds(service, userId, { ...body, feeds: body.feeds });
        const first = feeds[0] as (typeof feeds)[number];
        const result = await service.run({
          userId,
          clientId,
          code: body.code,
          filename: strategyFilename(body.filename),
          bars: first.bars,
          symbol: first.code,
          period: first.period,
          strategyName: body.strategy_name ?? null,
          initialCapital: body.initial_capital,
          answered: answeredOf(reply),
          // one feed runs exactly as a plain backtest does
          ...(feeds.length > 1 ? { feeds } : {}),
        });
        const answer =
          feeds.length > 1 || result.performance === null
            ? result
            : {
                ...result,
                per_symbol: { [first.code]: result.performance },
                feeds: [
                  { symbol_id: first.code, period: first.period, bar_count: first.bars.length },
                ],
              };
        return sendJsonStream(reply, answer);
      }
      const rows = body.historical_data ?? [];
      const bars = historicalBars(rows);
      const periodText = body.period ?? '';
      const period =
        periodText === ''
          ? (inferredPeriodOf(rows, bars) ?? '')
          : (parsePeriod(periodText) ?? periodText);
      // the answer (tens of megabytes for many trades) is written a piece at a time
      const result = await service.run({
        userId,
        clientId,
        code: body.code,
        filename: strategyFilename(body.filename),
        bars,
        symbol: body.symbol ?? body.symbol_id ?? '',
        period,
        strategyName: body.strategy_name ?? null,
        initialCapital: body.initial_capital,
        answered: answeredOf(reply),
      });
      return sendJsonStream(reply, result);
    },
  );

  const runHelper = { body: backtestRunRequestSchema };
  app.post(
    RUN_HELPER_PATH,
    { ...guard, ...admission, schema: runHelper },
    async (request, reply) => {
      const body = request.body;
      const clientId = clientIdOf(body.clientId, 'clientId');
      const userId = sessionOf(request).userId;
      let bars: Bar[] = [];
      let period: string = body.period;
      const given =
        body.historical_data !== undefined && historicalLength(body.historical_data) > 0;
      const limit = body.limit ?? DEFAULT_LOADED_BARS;
      // room for the bars in the server's memory before they are loaded (all users' runs
      // share it): a run past it waits its turn here, told its place
      const reservation = given ? undefined : await service.reserveBars(userId, clientId, limit);
      let handedOver = false;
      try {
        if (given) {
          bars = historicalBars(body.historical_data ?? []);
          period = parsePeriod(body.period) ?? body.period;
        } else if (typeof reservation === 'function') {
          const loaded = await service.loadBars(userId, body.symbol, body.period, limit);
          if (!loaded.ok) return { success: false, reason: loaded.reason, data: null };
          bars = loaded.bars;
          period = loaded.period;
        }
        const own = parsePeriod(period);
        const feeds =
          body.feeds && own && bars.length > 0
            ? await feedsAround(
                service,
                userId,
                // bars the server loaded: the run may take MAX_SERVER_LOADED_BARS in all
                { code: body.symbol, period: own, bars, loaded: !given },
                body.feeds,
              )
            : [];
        handedOver = true;
        const result = await service.run({
          userId,
          clientId,
          code: body.code,
          filename: strategyFilename(body.filename),
          bars,
          symbol: body.symbol,
          period,
          strategyName: body.strategy_name ?? null,
          initialCapital: body.initial_capital,
          answered: answeredOf(reply),
          ...(feeds.length > 1 ? { feeds } : {}),
          ...(reservation === undefined ? {} : { reservation }),
        });
        return sendJsonStream(reply, {
          success: result.error === null,
          reason: result.error,
          data: result,
        });
      } finally {
        // bars that could not be loaded (or a bad feed) give their room back
        if (!handedOver && typeof reservation === 'function') reservation();
      }
    },
  );

  app.get<{ Params: { runId: string } }>(
    '/api/backtest/runs/:runId',
    guard,
    async (request, reply) => {
      const { runId } = request.params;
      const run = UUID.test(runId) ? await service.findRun(sessionOf(request).userId, runId) : null;
      if (!run) throw new NotFoundError(`Run not found: ${runId}`);
      // the deals are read from the database and written a stored piece at a time
      return sendJsonStream(reply, {
        run_id: run.runId,
        client_id: run.clientId,
        strategy_name: run.strategyName,
        filename: run.filename,
        symbol: run.symbol,
        period: run.period,
        code: run.code,
        deals: new JsonPieces(run.dealPieces),
        performance: run.performance,
        // a run on several feeds: each instrument's figures and the feeds
        ...(run.feeds ? { per_symbol: run.perSymbol ?? {}, feeds: run.feeds } : {}),
        error: run.error,
        error_kind: run.errorKind,
        logs: run.logs,
        bar_count: run.barCount,
        elapsed_ms: run.elapsedMs,
        created_at: run.createdAt,
      });
    },
  );

  app.get('/api/backtest/status', guard, async () => {
    const status = await pool.start();
    const s = pool.settings;
    return {
      state: status.state,
      mode: status.mode,
      reason: status.reason,
      // runs in the sandbox now, all users together
      running: pool.runningCount(),
      limits: {
        timeout_ms: s.timeoutMs,
        memory_bytes: s.memoryBytes,
        max_processes: s.maxProcesses,
        max_open_files: s.maxOpenFiles,
        max_file_bytes: s.maxFileBytes,
        tmp_bytes: s.tmpBytes,
        max_log_bytes: s.maxLogBytes,
        max_result_bytes: s.maxResultBytes,
        max_concurrent: s.maxConcurrent,
        max_queued: s.maxQueued,
        max_per_user: s.maxPerUser,
        max_queued_per_user: s.maxQueuedPerUser,
        bars_budget: s.barsBudget,
      },
    };
  });

  // The log socket. A plain GET (no upgrade) is an unknown route, as before this existed.
  // The upgrade is refused before it happens: foreign origin 403, no session 401, bad client
  // id 400, over a cap 429.
  app.route<{ Params: { clientId: string } }>({
    method: 'GET',
    url: '/ws/:clientId',
    preHandler: async (
      request: FastifyRequest<{ Params: { clientId: string } }>,
      reply: FastifyReply,
    ) => {
      if (!request.ws) return;
      await checkOrigin(request);
      await app.requireSession.call(app, request, reply);
      if (reply.sent) return;
      const clientId = clientIdOf(request.params.clientId, 'clientId') ?? '';
      const refusal = hub.refusal(sessionOf(request).userId, clientId);
      if (refusal !== null) throw new TooManyLogSocketsError(refusal);
    },
    handler: async (request) => {
      throw new NotFoundError(`Route GET ${request.url.split('?')[0]} not found`);
    },
    wsHandler: (socket, request) => {
      // the socket belongs to the login session that opened it: its logout closes it
      const { userId, sessionId, expiresAt } = sessionOf(request);
      const owner = { sessionId, expiresAt };
      const remove = hub.add(
        userId,
        request.params.clientId,
        {
          send: (text) => socket.send(text),
          get bufferedAmount() {
            return socket.bufferedAmount;
          },
          close: (code, reason) => {
            socket.close(code, reason);
            // a client that does not read never takes the close frame: drop what is buffered
            setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
          },
        },
        owner,
      );
      if (!remove) return;
      socket.on('close', remove);
      socket.on('error', remove);
      socket.on('message', () => undefined); // the socket only speaks; client messages are ignored
      socket.send(LOG_SOCKET_GREETING);
    },
  });
}
