import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { HistoricalBar } from '@ct/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { BuiltUser } from './factories.ts';
import { buildUser, loginAs } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { UID_RANGE } from '../modules/backtest/sandbox/pool.ts';
import {
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxSettings,
} from '../modules/backtest/sandbox/settings.ts';

/** Sandbox settings for tests: short wall time, a uid range of the test file's own. */
export function testSandbox(overrides: Partial<SandboxSettings>): SandboxSettings {
  return { ...DEFAULT_SANDBOX_SETTINGS, warm: 1, timeoutMs: 5000, ...overrides };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Daily bars from 2024-01-01 in the client's format, a wave around 100 (crossovers guaranteed). */
export function dailyBars(count: number, start = Date.UTC(2024, 0, 1)): HistoricalBar[] {
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(start + i * 86_400_000);
    const close = 100 + 10 * Math.sin(i / 8) + i * 0.01;
    return {
      Time: `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} 00:00:00`,
      Open: close - 0.5,
      High: close + 1,
      Low: close - 1,
      Close: close,
      Volume: 1000 + i,
    };
  });
}

/** A strategy returning one closed trade per bar but the last: `bars - 1` records. */
export const TRADE_EVERY_BAR = [
  'def main(d):',
  '    return [{"open_date": d[i][0], "close_date": d[i + 1][0], "open_price": d[i][6],',
  '             "close_price": d[i + 1][6], "lots": 1, "status": "YES"} for i in range(len(d) - 1)]',
  '',
].join('\n');

/** A strategy returning a closed trade per bar but the last on every instrument of the feeds. */
export const TRADE_EVERY_BAR_OF_EACH = [
  'def main(d):',
  '    rows = {}',
  '    for row in d:',
  '        rows.setdefault(row[1], []).append(row)',
  '    out = []',
  '    for code, r in rows.items():',
  '        out.extend({"code": code, "open_date": r[i][0], "close_date": r[i + 1][0],',
  '                    "open_price": r[i][6], "close_price": r[i + 1][6], "lots": 1,',
  '                    "status": "YES"} for i in range(len(r) - 1))',
  '    return out',
  '',
].join('\n');

export type Session = { cookie: string; user: BuiltUser };

/** Calls the API as a logged-in user. */
export function caller(app: FastifyInstance, cookie: string) {
  return (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      cookies: { ct_sid: cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

export async function login(app: FastifyInstance, user: BuiltUser): Promise<Session> {
  const { cookie } = await loginAs(app, user);
  return { cookie, user };
}

/**
 * A listening test app with `sandbox`, its pool started, and two logged-in users; `base` is
 * the address of its log sockets (`${base}/ws/{client_id}`).
 */
export async function sandboxApp(
  sandbox: SandboxSettings,
): Promise<{ t: TestApp; alice: Session; bob: Session; base: string }> {
  const t = await createTestApp({ config: { sandbox } });
  const alice = await login(t.app, await buildUser(t.db));
  const bob = await login(t.app, await buildUser(t.db));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await t.app.services.backtest.sandbox.start();
  return { t, alice, bob, base };
}

/** Live (not zombie) host processes under the sandbox uids base … base + 999. */
export function sandboxProcesses(uidBase: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      const zombie = /^State:\s+Z/m.test(status);
      if (uid >= uidBase && uid < uidBase + UID_RANGE && !zombie) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
