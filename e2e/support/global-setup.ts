import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type {} from 'vitest';
import { startEmbedder } from './embedder.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    demoPassword: string;
    /** The OpenAI-compatible test server the product's Ollama provider calls (no `/v1`). */
    aiTestServerURL: string;
    /** Another origin's page that frames ours (support/embedder.ts), listed in FRAME_ANCESTORS. */
    embedderURL: string;
  }
}

const root = new URL('../..', import.meta.url).pathname;
const DEMO_PASSWORD = 'demo1234';

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the OpenAI-compatible test server as its own process (its documented standalone
 * mode, as the benchmark runs it): the journeys script it over HTTP only, so they need none
 * of the server's code. Resolves with its base URL (ending in `/v1`).
 */
function startAiTestServer(): Promise<{ child: ChildProcess; baseUrl: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/test/openai-test-server.ts', '--port', '0'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /test server at (http:\/\/\S+\/v1)/.exec(output);
      if (match?.[1]) resolve({ child, baseUrl: match[1] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      reject(new Error(`The AI test server exited with code ${code}. Output:\n${output}`));
    });
  });
}

/** Stops a child process and waits for its exit. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Starts the product with `npm start` and resolves with the URL it prints. */
function startProduct(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['start'], { cwd: root, env, detached: true });
    let output = '';
    const timer = setTimeout(() => {
      reject(new Error(`The product did not start within 200 s. Output:\n${output}`));
    }, 200_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The product exited with code ${code} before starting. Output:\n${output}`));
    });
  });
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ct-e2e-'));
  // The AI assistant's model: a scriptable OpenAI-compatible server, the product's Ollama.
  const aiServer = await startAiTestServer();
  // A page of another origin that may frame ours (frames.e2e.ts); same-origin frames and
  // every other journey are unaffected by the setting.
  const embedder = await startEmbedder();
  const port = await freePort();
  // Vitest sets NODE_ENV=test; the product runs (and `npm start` builds the web app) as it
  // does for users, so it must not inherit that (antd gives every element id 'test' then).
  const { NODE_ENV: _vitestMode, ...env } = process.env;
  const { child, url } = await startProduct({
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    OLLAMA_BASE_URL: aiServer.baseUrl,
    // the test-only feed control: journeys pin quotes (support/market.ts)
    MARKET_TEST_CONTROL: '1',
    FRAME_ANCESTORS: embedder.origin,
  }).catch(async (error: unknown) => {
    await embedder.close();
    await stopChild(aiServer.child);
    throw error;
  });
  project.provide('baseURL', url);
  project.provide('demoPassword', DEMO_PASSWORD);
  project.provide('aiTestServerURL', aiServer.baseUrl.replace(/\/v1$/, ''));
  project.provide('embedderURL', embedder.origin);

  return async () => {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((resolve) => {
        if (child.exitCode !== null) resolve(null);
        child.once('exit', resolve);
        setTimeout(resolve, 10_000);
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
    await embedder.close();
    await stopChild(aiServer.child);
  };
}
