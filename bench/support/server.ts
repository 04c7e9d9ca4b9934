import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * What the benchmarks that drive the real server as a process share: starting and stopping
 * children (the product, the local OpenAI-compatible test server), JSON calls, the demo
 * login and pointing the product's AI settings at the test server.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Starts a child that prints a line matching `pattern` once it listens; resolves the match. */
export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = pattern.exec(stdout);
      if (match) resolve({ child, match });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before it ran`)));
  });
}

export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function postJson(url: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(cookie ? { cookie: `ct_sid=${cookie}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** Starts the local OpenAI-compatible test server; `base` is its `…/v1` URL. */
export async function startTestModel(): Promise<{ child: ChildProcess; base: string }> {
  const test = await startChild(
    ['apps/server/src/test/openai-test-server.ts', '--port', '0'],
    {},
    /test server at (http:\/\/\S+\/v1)/,
  );
  return { child: test.child, base: test.match[1] ?? '' };
}

/**
 * Starts the product (apps/server/src/main.ts) on a free port with its data in `dataDir`,
 * warnings-only logs and no web build, plus `env`; `origin` is where it listens.
 */
export async function startProduct(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; origin: string }> {
  const product = await startChild(
    ['apps/server/src/main.ts'],
    {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...env,
    },
    /running at (http:\/\/[^\s]+)/,
  );
  return { child: product.child, origin: product.match[1] ?? '' };
}

/** Logs the demo user in: the answer (body unread) and its session cookie, if one was set. */
export async function loginDemo(
  origin: string,
): Promise<{ login: Response; cookie: string | undefined }> {
  const login = await postJson(`${origin}/user/api/v1/account/login`, {
    channel: 1,
    login_type: 2,
    user_name: 'demo@example.com',
    password: process.env.DEMO_PASSWORD ?? 'demo1234',
    device: 1,
  });
  return { login, cookie: /ct_sid=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] };
}

/** Saves the demo user's AI settings: provider `ollama` at the test server `base`. */
async function useTestModel(origin: string, base: string, cookie: string): Promise<void> {
  const saved = await postJson(
    `${origin}/api/settings`,
    { provider: 'ollama', baseURL: base, model: 'test-model', apiKey: '' },
    cookie,
  );
  if (!saved.ok) throw new Error(`settings refused: ${await saved.text()}`);
}

/**
 * Runs `body` against a fresh product pointed at the local test model: a temporary data
 * directory named from `prefix`, the test server, the product with `env`, and the demo user
 * logged in with the test model as its AI settings. Stops both children and removes the
 * directory afterwards, whether `body` succeeded or not.
 */
export async function withTestModelProduct<T>(
  prefix: string,
  env: NodeJS.ProcessEnv,
  body: (product: { origin: string; base: string; cookie: string }) => Promise<T>,
): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let upstream: ChildProcess | undefined;
  let server: ChildProcess | undefined;
  try {
    const test = await startTestModel();
    upstream = test.child;
    const base = test.base;
    const product = await startProduct(root, { OLLAMA_BASE_URL: base, ...env });
    server = product.child;
    const origin = product.origin;
    const { login, cookie } = await loginDemo(origin);
    if (!cookie) throw new Error(`demo login failed: ${await login.text()}`);
    await useTestModel(origin, base, cookie);
    return await body({ origin, base, cookie });
  } finally {
    await stopChild(server);
    await stopChild(upstream);
    fs.rmSync(root, { recursive: true, force: true });
  }
}
