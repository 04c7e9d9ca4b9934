import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { type Database, openPglite } from '../db/connect.ts';
import type { Db } from '../db/types.ts';
import './provided.ts';
import { testTmpDir } from './tmp-dir.ts';

/** A clock tests move by hand; starts on a fixed date so runs are repeatable. */
export type TestClock = {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
};

export function createClock(startMs = Date.UTC(2026, 0, 5, 9, 0, 0)): TestClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: path.join(os.tmpdir(), 'ct-unused-data-dir'),
    databaseUrl: null,
    demoPassword: 'demo1234',
    sessionTtlHours: 168,
    webDist: path.join(os.tmpdir(), 'ct-no-web-dist'),
    logLevel: 'silent',
    marketSeed: 1,
    liveTokenSecret: 'test-live-token-secret',
    ...overrides,
  };
}

export type TestDatabase = {
  database: Database;
  db: Db;
  /** The directory holding the copy (DATA_DIR layout: `<dataDir>/pglite`). */
  dataDir: string;
  /** Milliseconds spent copying the template and opening PGlite on the copy. */
  openedInMs: number;
  close: () => Promise<void>;
};

/** Copies the run's migrated template and opens PGlite on the copy: a private, empty database. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const started = performance.now();
  const dataDir = fs.mkdtempSync(path.join(testTmpDir(), 'ct-server-test-'));
  fs.cpSync(inject('pgTemplateDir'), path.join(dataDir, 'pglite'), { recursive: true });
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const openedInMs = performance.now() - started;
  return {
    database,
    db: database.db,
    dataDir,
    openedInMs,
    close: async () => {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = TestDatabase & {
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
};

/** A private database and an app on it with a hand-moved clock; close it in afterAll. */
export async function createTestApp(
  options: { config?: Partial<Config>; clock?: TestClock } = {},
): Promise<TestApp> {
  const testDb = await openTestDatabase();
  const clock = options.clock ?? createClock();
  const config = testConfig(options.config);
  const app = await buildApp({ db: testDb.db, config, now: clock.now });
  return {
    ...testDb,
    app,
    clock,
    config,
    close: async () => {
      await app.close();
      await testDb.close();
    },
  };
}

/** The body of an inject response as JSON. */
export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json<T>();
}

/** The `ct_sid` value a response set, if any. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === 'ct_sid')?.value;
}
