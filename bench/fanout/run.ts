import { fork, type ChildProcess } from 'node:child_process';
import { merge, percentile, type Histogram } from './latency.ts';

/**
 * The server measured: our gateway, the gateway of another checkout (`reference`, its entry
 * given by `--reference`: before and after a change in the same run), or a bare `ws`
 * broadcast sending each publication as its own message (`ws`) or one message per socket and
 * event-loop turn (`ws-turn`).
 */
export type FanoutMode = 'gateway' | 'reference' | 'ws' | 'ws-turn';

/** Speaks the gateway's protocol (its clients connect and subscribe). */
export const isGateway = (mode: FanoutMode) => mode === 'gateway' || mode === 'reference';

export type FanoutResult = {
  mode: FanoutMode;
  connections: number;
  publications: number;
  expected: number;
  received: number;
  messagesPerSecond: number;
  /** Publish-to-receive latency of the sampled connections (official client on the gateway). */
  p50Ms: number;
  p99Ms: number;
  /** How many connections were sampled; the others are light raw-protocol clients. */
  sampled: number;
  /** The light clients' latency. */
  lightP50Ms: number;
  lightP99Ms: number;
  /** The server's CPU time (user + system) per 1,000 messages delivered. */
  serverCpuMsPer1000: number;
  /** Server pings the light clients got while measuring (none on the bare baselines). */
  pings: number;
  /** The client processes the connections were spread over. */
  clientProcesses: number;
  /** Every client process received all its messages before the drain deadline. */
  drained: boolean;
  /** Connections closed since the side connected (reconnections of official clients too). */
  closed: number;
  /** The close codes seen, e.g. `3012 × 4950`. */
  closeCodes: string;
  /** The busiest client process's event-loop utilisation over the slice (0–1). */
  clientBusy: number;
};

type Message = { type: string; [key: string]: unknown };

function start(script: string, args: string[]): ChildProcess {
  return fork(new URL(script, import.meta.url).pathname, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function next(child: ChildProcess, type: string, timeoutMs = 300_000): Promise<Message> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting for ${type}`));
    }, timeoutMs);
    const onMessage = (message: Message) => {
      if (message.type !== type) return;
      done();
      resolve(message);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`process exited (${code}) before ${type}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * How many connections each of `processes` client processes opens: the light ones shared out
 * evenly, the `sample` all in the first (the official clients are heavier: one process keeps
 * their cost the same whatever the layout).
 */
function clientShares(connections: number, sample: number, processes: number): number[] {
  const sampled = Math.min(connections, sample);
  const lights = connections - sampled;
  const count = Math.max(1, Math.min(processes, lights || 1));
  return Array.from(
    { length: count },
    (_, i) => Math.floor(lights / count) + (i < lights % count ? 1 : 0) + (i === 0 ? sampled : 0),
  );
}

type ClientProcess = { process: ChildProcess; connections: number };

/**
 * One side of the comparison, started once and measured in slices: a server (`mode`) and N
 * clients subscribed to its 5 channels, spread over `clientProcesses` other processes,
 * `sample` of them measuring the latency (the official centrifuge client on the gateway,
 * plain `ws` on the baselines), the others light raw-protocol clients (clients.ts). Sides stay
 * connected between slices, so the slices of the gateway and of a baseline can alternate
 * within seconds of each other.
 */
export class FanoutSide {
  private constructor(
    readonly mode: FanoutMode,
    readonly connections: number,
    private readonly server: ChildProcess,
    private readonly clients: ClientProcess[],
  ) {}

  static async start(
    mode: FanoutMode,
    connections: number,
    sample = 50,
    reference = '',
    clientProcesses = 1,
  ): Promise<FanoutSide> {
    const server = start('./server.ts', [mode, reference]);
    const clients: ClientProcess[] = [];
    try {
      const ready = await next(server, 'ready');
      const path = isGateway(mode) ? '/connection/websocket' : '/';
      const url = `ws://127.0.0.1:${String(ready.port)}${path}`;
      for (const [i, share] of clientShares(connections, sample, clientProcesses).entries()) {
        const args = [mode, String(share), url, String(i === 0 ? sample : 0)];
        clients.push({ process: start('./clients.ts', args), connections: share });
      }
      // connecting in parallel: each process opens its share 100 at a time
      await Promise.all(clients.map((client) => next(client.process, 'connected')));
      return new FanoutSide(mode, connections, server, clients);
    } catch (error) {
      for (const client of clients) client.process.kill();
      server.kill();
      throw error;
    }
  }

  /**
   * One slice: the server publishes `ratePerChannel` messages a second on each channel for
   * `seconds`; measured until every message was received (or `drainMs` after the publishing
   * ended: what comes later is counted as not delivered).
   */
  async slice(ratePerChannel: number, seconds: number, drainMs = 30_000): Promise<FanoutResult> {
    const { server, clients, connections, mode } = this;
    for (const client of clients) client.process.send({ type: 'start' });
    server.send({ type: 'publish', ratePerChannel, seconds });
    const cpuReport = next(server, 'cpu');
    cpuReport.catch(() => undefined); // awaited below; a failure before is reported by then
    const published = await next(server, 'published');
    const publications = Number(published.publications);
    // each process drains its own share; the slice has drained when they all have
    const drains = Promise.allSettled(
      clients.map((client) => {
        const drained = next(client.process, 'drained', drainMs);
        client.process.send({ type: 'expect', expected: publications * client.connections });
        return drained;
      }),
    );
    const drained = (await drains).every((drain) => drain.status === 'fulfilled');
    const reports = await Promise.all(
      clients.map((client) => {
        const report = next(client.process, 'report');
        client.process.send({ type: 'stop' });
        return report;
      }),
    );
    const report = mergeReports(reports);
    const cpuMs = Number((await cpuReport).cpuMs);
    const received = report.received;
    return {
      mode,
      connections,
      publications,
      expected: publications * connections,
      received,
      // over the seconds the publishing took (longer than `seconds` when it fell behind)
      messagesPerSecond: received / Math.max(seconds, Number(published.elapsedMs) / 1000),
      p50Ms: percentile(report.sampledLatencies, 0.5),
      p99Ms: percentile(report.sampledLatencies, 0.99),
      sampled: report.sampled,
      lightP50Ms: percentile(report.lightLatencies, 0.5),
      lightP99Ms: percentile(report.lightLatencies, 0.99),
      serverCpuMsPer1000: (1000 * cpuMs) / Math.max(1, received),
      pings: report.pings,
      clientProcesses: clients.length,
      drained,
      clientBusy: report.busy,
      closed: Object.values(report.closes).reduce((sum, n) => sum + n, 0),
      closeCodes: Object.entries(report.closes)
        .map(([code, n]) => `${code} × ${String(n)}`)
        .join(', '),
    };
  }

  close(): void {
    for (const client of this.clients) client.process.kill();
    this.server.kill();
  }
}

/** What a client process reports at the end of a slice (clients.ts). */
type ClientReport = {
  received: number;
  sampled: number;
  sampledLatencies: Histogram;
  lightLatencies: Histogram;
  pings: number;
  closes: Record<string, number>;
  busy: number;
};

/** The client processes' reports as one: counts summed, latencies over the union. */
function mergeReports(messages: readonly Message[]): ClientReport {
  const reports = messages as unknown as ClientReport[];
  const sum = (field: 'received' | 'sampled' | 'pings') =>
    reports.reduce((total, report) => total + report[field], 0);
  const closes: Record<string, number> = {};
  for (const report of reports) {
    for (const [code, n] of Object.entries(report.closes)) closes[code] = (closes[code] ?? 0) + n;
  }
  return {
    received: sum('received'),
    sampled: sum('sampled'),
    sampledLatencies: merge(reports.map((report) => report.sampledLatencies)),
    lightLatencies: merge(reports.map((report) => report.lightLatencies)),
    pings: sum('pings'),
    closes,
    busy: Math.max(...reports.map((report) => report.busy)),
  };
}

/** A side started, measured in one slice and stopped. */
export async function runFanout(
  mode: FanoutMode,
  connections: number,
  ratePerChannel: number,
  seconds: number,
  sample = 50,
): Promise<FanoutResult> {
  const side = await FanoutSide.start(mode, connections, sample);
  try {
    return await side.slice(ratePerChannel, seconds);
  } finally {
    side.close();
  }
}
