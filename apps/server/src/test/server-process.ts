import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { User } from '@ct/domain';
import { inject } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import './provided.ts';
import { testTmpDir } from './tmp-dir.ts';

/*
 * The real server as its own process (apps/server/src/main.ts), for tests that kill it:
 * every start of one `ServerProcesses` runs on the same data directory, made from the run's
 * migrated database template (initdb would cost seconds).
 */

export type StartedServer = { child: ChildProcess; url: string };

export type ServerProcesses = {
  dataDir: string;
  /** Starts the server with `env` added; resolves with its URL once it listens. */
  start(env?: Record<string, string>): Promise<StartedServer>;
  /** Kills every process still running and deletes the data directory (afterAll). */
  cleanUp(): void;
};

/** How long a server may take to start on a loaded machine before the test fails. */
const START_TIMEOUT_MS = 60_000;

export function serverProcesses(name: string): ServerProcesses {
  const dataDir = fs.mkdtempSync(path.join(testTmpDir(), `ct-${name}-`));
  fs.cpSync(inject('pgTemplateDir'), path.join(dataDir, 'pglite'), { recursive: true });
  const running = new Set<ChildProcess>();

  async function start(env: Record<string, string> = {}): Promise<StartedServer> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'warn',
        WEB_DIST: path.join(dataDir, 'no-web'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () => reject(new Error(`server did not start: ${stderr}`)),
        START_TIMEOUT_MS,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /Chart Terminal is running at (\S+)/.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code}): ${stderr}`));
      });
    });
    return { child, url };
  }

  return {
    dataDir,
    start,
    cleanUp() {
      for (const child of running) child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves when the process has ended (also when it already has: killed ones have no exitCode). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export type DemoLogin = { cookie: string; uuid: string; token: string };

/** Logs the demo user in over HTTP: its session cookie and first trading account. */
export async function loginDemo(url: string, timeoutMs = 30_000): Promise<DemoLogin> {
  const res = await fetch(`${url}/user/api/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
    body: JSON.stringify({
      channel: 1,
      login_type: 2,
      user_name: 'demo@example.com',
      password: 'demo1234',
      device: 1,
    }),
  });
  const cookie = /ct_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  const trader = ((await res.json()) as { data: User[] }).data[0]?.traders[0];
  if (!cookie || !trader) throw new Error('demo login failed');
  return { cookie, uuid: trader.uuid, token: trader.token };
}
