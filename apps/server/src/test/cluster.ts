import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../db/connect.ts';
import { createUser, planAccounts } from '../modules/users/service.ts';

/*
 * Real processes for the multi-node test and the cluster benchmark: a throwaway
 * redis-server on a Unix socket, a fresh database on a throwaway PostgreSQL server, nodes
 * of apps/server/src/main.ts with their ROLES, and a failover TCP proxy standing in for a
 * load balancer. Waits are on conditions with deadlines, never fixed sleeps.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Polls `check` until it returns something other than undefined/false, or throws at the deadline. */
export async function waitUntil<T>(
  what: string | (() => string),
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const text = typeof what === 'string' ? what : what();
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export type Stoppable = { stop(): Promise<void> };

/** The redis-server binary (scripts/ensure-redis.sh installs it), or null. */
export function redisServerBinary(): string | null {
  for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
    if (fs.existsSync(candidate)) return candidate;
  }
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : null;
}

/** A redis-server of its own on a Unix socket in a fresh directory (no TCP, no disk writes). */
export async function startRedis(): Promise<Stoppable & { url: string; pid: number }> {
  const binary = redisServerBinary();
  if (!binary) throw new Error('redis-server is missing: run scripts/ensure-redis.sh');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-redis-'));
  const socket = path.join(dir, 'redis.sock');
  const child = spawn(
    binary,
    [
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--unixsocketperm',
      '700',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  try {
    await waitUntil(`redis-server at ${socket}`, () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited: ${errors}`);
      return fs.existsSync(socket);
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `unix://${socket}`,
    pid: child.pid ?? 0,
    async stop() {
      await stopChild(child, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same server's `database`; accepts the `postgresql://user@/db?host=/socket` form. */
export function databaseUrl(serverUrl: string, database: string): string {
  const placeholder = 'no-host.invalid';
  const emptyHost = /^[a-z]+:\/\/[^/?#]*@\//i.test(serverUrl);
  const url = new URL(emptyHost ? serverUrl.replace('@/', `@${placeholder}/`) : serverUrl);
  url.pathname = `/${database}`;
  return emptyHost ? url.href.replace(`@${placeholder}/`, '@/') : url.href;
}

/** True when Debian's PostgreSQL binaries are there (scripts/ensure-postgres.sh). */
export function hasPostgres(): boolean {
  return (
    spawnSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin/initdb'], { stdio: 'ignore' })
      .status === 0
  );
}

/**
 * A fresh database: on TEST_DATABASE_URL's server when set (npm test starts one), else on
 * a throwaway server of its own (scripts/test-postgres.sh). Dropped / stopped by `stop`.
 */
export async function startPostgres(): Promise<Stoppable & { url: string; serverUrl: string }> {
  let serverUrl = process.env.TEST_DATABASE_URL || '';
  let ownDir: string | null = null;
  if (!serverUrl) {
    ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-cluster-pg-'));
    fs.chmodSync(ownDir, 0o755);
    const started = spawnSync('bash', ['scripts/test-postgres.sh', 'start', ownDir], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    if (started.status !== 0) throw new Error(`PostgreSQL did not start: ${started.stderr}`);
    serverUrl = started.stdout.trim();
  }
  const name = `ct_cluster_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  return {
    url: databaseUrl(serverUrl, name),
    serverUrl,
    async stop() {
      if (ownDir) {
        spawnSync('bash', ['scripts/test-postgres.sh', 'stop', ownDir], { cwd: REPO_ROOT });
        return;
      }
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/** Sends `signal` and waits for the exit (at once when it already exited). */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** A running node of the product (apps/server/src/main.ts) with its roles. */
/** What a node logs when it becomes the active feed (election.ts). */
const ACTIVE_FEED_LOG = 'this process is the active feed';

export class Node {
  output = '';
  port = 0;
  /** When (epoch ms) the node said it became the active feed; null until then. */
  activeFeedAt: number | null = null;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {}

  /**
   * Starts a node and resolves once it runs: an API node when it listens (its port), any
   * other when it says so. `env` adds to the common settings (DATABASE_URL, REDIS_URL…);
   * `nodeArgs` go to Node before the script (e.g. `--cpu-prof` to profile one node).
   */
  static async start(
    name: string,
    roles: string,
    env: NodeJS.ProcessEnv,
    timeoutMs = 60_000,
    nodeArgs: readonly string[] = [],
  ): Promise<Node> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ct-node-${name}-`));
    const args = [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'];
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        WEB_DIST: path.join(dataDir, 'no-web'),
        LOG_LEVEL: 'info',
        ...env,
        ROLES: roles,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const node = new Node(name, child);
    const collect = (chunk: Buffer) => {
      node.output += chunk.toString();
      if (node.activeFeedAt === null && node.output.includes(ACTIVE_FEED_LOG)) {
        node.activeFeedAt = Date.now();
      }
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
    await waitUntil(
      () => `node ${name} (${roles}) to start; its output:\n${node.output.slice(-3000)}`,
      () => {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`node ${name} exited at start:\n${node.output}`);
        }
        const port = /running at http:\/\/[^\s]+:(\d+)/.exec(node.output)?.[1];
        if (port) node.port = Number(port);
        return port !== undefined || /node is running \(no HTTP\)/.test(node.output);
      },
      timeoutMs,
      100,
    );
    return node;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** True once the node logged that it became the active feed. */
  get isActiveFeed(): boolean {
    return this.activeFeedAt !== null;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await stopChild(this.child, signal);
  }
}

/**
 * A TCP proxy in front of several API nodes, standing in for a load balancer: each new
 * connection goes to the first node that accepts it, so once a node is gone its clients'
 * reconnections land on the next one.
 */
export async function startFailoverProxy(
  ports: () => number[],
): Promise<Stoppable & { port: number }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const candidates = [...ports()];
    const tryNext = () => {
      const port = candidates.shift();
      if (port === undefined) {
        client.destroy();
        return;
      }
      const upstream = net.connect({ host: '127.0.0.1', port });
      upstream.once('error', () => {
        upstream.destroy();
        if (!client.destroyed && upstream.bytesRead === 0) tryNext();
      });
      upstream.once('connect', () => {
        sockets.add(upstream);
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
      });
    };
    tryNext();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type Reply = { status: number; body: string; cookie: string | undefined };

/** One HTTP call with a JSON body (and the session cookie). */
export function request(
  port: number,
  method: string,
  url: string,
  body?: unknown,
  cookie?: string,
  agent?: http.Agent,
): Promise<Reply> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(cookie ? { cookie: `ct_sid=${cookie}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const setCookie = res.headers['set-cookie']?.join(';') ?? '';
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            cookie: /ct_sid=([^;]+)/.exec(setCookie)?.[1],
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export type Trader = { uuid: string; token: string; level: number };

/** Logs a user in on `port`: the session cookie, the account of highest level and all of them. */
export async function loginAs(
  port: number,
  email: string,
  password: string,
): Promise<{ cookie: string; trader: Trader; traders: Trader[] }> {
  const login = await request(port, 'POST', '/user/api/v1/account/login', {
    channel: 1,
    login_type: 2,
    user_name: email,
    password,
    device: 1,
  });
  const traders = (JSON.parse(login.body) as { data?: { traders: Trader[] }[] }).data?.[0]?.traders;
  const top = traders?.reduce((best, t) => (t.level > best.level ? t : best));
  if (!login.cookie || !top)
    throw new Error(`login of ${email} failed: ${login.status} ${login.body}`);
  return { cookie: login.cookie, trader: top, traders: traders ?? [] };
}

/** Logs the demo user in on `port`: the session cookie, the demo VIP account and all three. */
export function loginDemo(
  port: number,
  password = 'demo1234',
): Promise<{ cookie: string; trader: Trader; traders: Trader[] }> {
  return loginAs(port, 'demo@example.com', password);
}

/**
 * Creates a user with `accounts` trading accounts (at most MAX_ACCOUNTS) in the migrated
 * database at `url`, as an operator's import would: the cluster bench spreads its clients
 * over accounts of their own, as a brokerage's traders are.
 */
export async function createUserWithAccounts(
  url: string,
  user: { email: string; password: string; accounts: number },
): Promise<void> {
  const database = await openPostgres(url, 1);
  try {
    await createUser(
      database.db,
      {
        email: user.email,
        password: user.password,
        nickName: 'Bench Trader',
        auditStatus: 1,
        accounts: planAccounts(user.accounts, 'Bench'),
      },
      Date.now(),
    );
  } finally {
    await database.close();
  }
}
