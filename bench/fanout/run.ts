import { fork, type ChildProcess } from 'node:child_process';

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
 * One side of the comparison, started once and measured in slices: a server (`mode`) and N
 * clients subscribed to its 5 channels in another process, `sample` of them measuring the
 * latency (the official centrifuge client on the gateway, plain `ws` on the baselines), the
 * others light raw-protocol clients (clients.ts). Sides stay connected between slices, so the
 * slices of the gateway and of a baseline can alternate within seconds of each other.
 */
export class FanoutSide {
  private constructor(
    readonly mode: FanoutMode,
    readonly connections: number,
    private readonly server: ChildProcess,
    private readonly clients: ChildProcess,
  ) {}

  static async start(
    mode: FanoutMode,
    connections: number,
    sample = 50,
    reference = '',
  ): Promise<FanoutSide> {
    const server = start('./server.ts', [mode, reference]);
    try {
      const ready = await next(server, 'ready');
      const path = isGateway(mode) ? '/connection/websocket' : '/';
      const clients = start('./clients.ts', [
        mode,
        String(connections),
        `ws://127.0.0.1:${String(ready.port)}${path}`,
        String(sample),
      ]);
      await next(clients, 'connected').catch((error: unknown) => {
        clients.kill();
        throw error;
      });
      return new FanoutSide(mode, connections, server, clients);
    } catch (error) {
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
    clients.send({ type: 'start' });
    server.send({ type: 'publish', ratePerChannel, seconds });
    const cpuReport = next(server, 'cpu');
    cpuReport.catch(() => undefined); // awaited below; a failure before is reported by then
    const published = await next(server, 'published');
    const publications = Number(published.publications);
    const drained = next(clients, 'drained', drainMs);
    clients.send({ type: 'expect', expected: publications * connections });
    await drained.catch(() => undefined); // not all delivered: shows as less than 100 %
    clients.send({ type: 'stop' });
    const report = await next(clients, 'report');
    const cpuMs = Number((await cpuReport).cpuMs);
    const received = Number(report.received);
    return {
      mode,
      connections,
      publications,
      expected: publications * connections,
      received,
      // over the seconds the publishing took (longer than `seconds` when it fell behind)
      messagesPerSecond: received / Math.max(seconds, Number(published.elapsedMs) / 1000),
      p50Ms: Number(report.p50),
      p99Ms: Number(report.p99),
      sampled: Number(report.sampled),
      lightP50Ms: Number(report.lightP50),
      lightP99Ms: Number(report.lightP99),
      serverCpuMsPer1000: (1000 * cpuMs) / Math.max(1, received),
      pings: Number(report.pings ?? 0),
    };
  }

  close(): void {
    this.clients.kill();
    this.server.kill();
  }
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
