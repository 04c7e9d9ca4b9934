// The walls of the strategy sandbox, tested against the real thing (bubblewrap + limits):
// every attempt is contained with a clear error or a harmless result, nothing of it is
// left running, and the server keeps serving other requests meanwhile.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../config.ts';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { defaultStrategyCode } from '../../strategy/template.ts';
import { caller, dailyBars, login, sandboxProcesses, testSandbox } from '../../../test/backtest.ts';

const UID_BASE = 61_000;
const SECRET = `escape-test-secret-${process.pid}`;
const THIS_FILE = fileURLToPath(import.meta.url);
const BARS = dailyBars(60);

type RunBody = {
  deals: unknown[];
  performance: Record<string, unknown> | null;
  error: string | null;
  error_kind: string | null;
  logs: string[];
};

let t: TestApp;
let run: (code: string) => Promise<RunBody>;
let listener: net.Server;
let connections = 0;
let port = 0;

beforeAll(async () => {
  // a secret in the server's own environment: no strategy may see it
  process.env.CT_ESCAPE_TEST_SECRET = SECRET;
  t = await createTestApp({
    config: {
      sandbox: testSandbox({ uidBase: UID_BASE, timeoutMs: 4000, maxConcurrent: 6, maxPerUser: 8 }),
    },
  });
  const session = await login(t.app, await buildUser(t.db));
  const as = caller(t.app, session.cookie);
  run = async (code) => {
    const res = await as('POST', '/api/backtest/code', {
      code,
      filename: 'escape.py',
      historical_data: BARS,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RunBody>();
  };
  listener = net.createServer((socket) => {
    connections += 1;
    socket.end('hello from the host\n');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as net.AddressInfo).port;
});

afterAll(async () => {
  delete process.env.CT_ESCAPE_TEST_SECRET;
  await new Promise((resolve) => listener.close(resolve));
  await t.close();
});

/** A strategy that tries things and prints what happened, one line each. */
function attempts(lines: string[]): string {
  return [
    'import os, sys, socket, subprocess',
    'def attempt(label, action):',
    '    try:',
    '        print(label, "->", repr(action())[:200])',
    '    except BaseException as error:',
    '        print(label, "-> blocked:", type(error).__name__)',
    'def main(data_array):',
    ...lines.map((line) => `    ${line}`),
    '    return []',
  ].join('\n');
}

describe('the file system', () => {
  it('shows none of the host: no /etc/passwd, no project files, no home', async () => {
    const result = await run(
      attempts([
        'attempt("passwd", lambda: open("/etc/passwd").read())',
        `attempt("this test", lambda: open(${JSON.stringify(THIS_FILE)}).read())`,
        `attempt("package.json", lambda: open(${JSON.stringify(path.join(REPO_ROOT, 'package.json'))}).read())`,
        'attempt("root", lambda: sorted(os.listdir("/")))',
        'attempt("usr", lambda: sorted(os.listdir("/usr")))',
        'attempt("uid", lambda: (os.getuid(), os.getgid()))',
      ]),
    );
    expect(result.error).toBeNull();
    expect(result.logs).toEqual([
      'passwd -> blocked: FileNotFoundError',
      'this test -> blocked: FileNotFoundError',
      'package.json -> blocked: FileNotFoundError',
      "root -> ['dev', 'lib', 'lib64', 'proc', 'sandbox', 'tmp', 'usr']",
      "usr -> ['bin', 'lib', 'lib64']",
      'uid -> (65534, 65534)',
    ]);
  });

  it('is read-only outside a private, size-limited /tmp', async () => {
    const marker = `ct-escape-${process.pid}`;
    const result = await run(
      attempts([
        `attempt("root", lambda: open("/${marker}", "w").write("x"))`,
        `attempt("usr", lambda: open("/usr/lib/${marker}", "w").write("x"))`,
        `attempt("dev", lambda: open("/dev/${marker}", "w").write("x"))`,
        `attempt("tmp", lambda: open("/tmp/${marker}", "w").write("x"))`,
        'attempt("fill tmp", lambda: open("/tmp/big", "wb").write(b"x" * (40 * 1024 * 1024)))',
      ]),
    );
    expect(result.logs).toEqual([
      'root -> blocked: OSError',
      'usr -> blocked: OSError',
      'dev -> blocked: OSError',
      'tmp -> 1',
      'fill tmp -> blocked: OSError',
    ]);
    // nothing reached the host
    expect(fs.existsSync(`/tmp/${marker}`)).toBe(false);
    expect(fs.existsSync(`/${marker}`)).toBe(false);
  });
});

describe('/proc', () => {
  it('tells nothing of the host: no CPUs, load, memory, mounts or host paths', async () => {
    const files = [
      '/proc/cpuinfo',
      '/proc/loadavg',
      '/proc/meminfo',
      '/proc/uptime',
      '/proc/self/mountinfo',
      '/proc/self/mounts',
      '/proc/1/mountinfo',
      '/proc/thread-self/mountinfo',
    ];
    const result = await run(
      attempts([
        ...files.map(
          (file) =>
            `attempt(${JSON.stringify(file)}, lambda: open(${JSON.stringify(file)}).read())`,
        ),
        'attempt("listing", lambda: os.listdir("/proc"))',
      ]),
    );
    expect(result.error).toBeNull();
    expect(result.logs).toEqual([
      ...files.map((file) => `${file} -> blocked: FileNotFoundError`),
      'listing -> []',
    ]);
    expect(result.logs.join('\n')).not.toContain(REPO_ROOT);
  });
});

describe('the network', () => {
  it('cannot reach a server on the host’s 127.0.0.1, nor resolve names', async () => {
    const result = await run(
      attempts([
        `attempt("tcp", lambda: socket.create_connection(("127.0.0.1", ${port}), timeout=1).recv(100))`,
        'attempt("dns", lambda: socket.getaddrinfo("example.com", 80))',
        // netlink (behind if_nameindex) is denied by the seccomp filter; there is no procfs
        'attempt("netlink", lambda: [name for _, name in socket.if_nameindex()])',
        'attempt("interfaces", lambda: [l.split(":")[0].strip() for l in open("/proc/net/dev").readlines()[2:]])',
      ]),
    );
    expect(result.logs).toEqual([
      'tcp -> blocked: ConnectionRefusedError',
      'dns -> blocked: gaierror',
      'netlink -> blocked: PermissionError',
      'interfaces -> blocked: FileNotFoundError',
    ]);
    expect(connections).toBe(0);
  });
});

describe('processes', () => {
  it('os.system and subprocess find no shell or program to run', async () => {
    const result = await run(
      attempts([
        'attempt("system", lambda: os.system("cat /etc/passwd"))',
        'attempt("subprocess", lambda: subprocess.run(["/bin/sh", "-c", "id"]))',
        'attempt("popen", lambda: os.popen("ls /").read())',
      ]),
    );
    expect(result.logs).toEqual([
      'system -> 32512', // 127 << 8: /bin/sh does not exist
      'subprocess -> blocked: FileNotFoundError',
      'popen -> blocked: FileNotFoundError',
    ]);
  });

  it('a fork bomb hits the process limit, and nothing of it survives', async () => {
    const result = await run('import os\ndef main(d):\n    while True:\n        os.fork()\n');
    expect(result.error_kind).toBe('strategy');
    expect(result.error).toContain('BlockingIOError: [Errno 11] Resource temporarily unavailable');
    await waitFor(() => sandboxProcesses(UID_BASE).length <= 3, 5000); // the warm one
  });

  it('cannot signal the server or its parent', async () => {
    const result = await run(
      attempts([
        'attempt("parent", lambda: os.kill(os.getppid(), 9))',
        'attempt("init", lambda: os.kill(1, 9))',
        'attempt("everyone", lambda: os.kill(-1, 9))',
        `attempt("server pid", lambda: os.kill(${process.pid}, 9))`,
        'attempt("pids", lambda: sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))',
        'attempt("own pid", lambda: os.getpid())',
      ]),
    );
    expect(result.error).toBeNull();
    expect(result.logs.slice(0, 2)).toEqual(['parent -> None', 'init -> None']); // pid 1 ignores it
    expect(result.logs.slice(2, 4)).toEqual([
      'everyone -> blocked: ProcessLookupError',
      'server pid -> blocked: ProcessLookupError',
    ]);
    // no procfs to list processes in; in its own pid namespace, after bwrap's init
    expect(result.logs.slice(4)).toEqual(['pids -> []', 'own pid -> 2']);
    expect(process.kill(process.pid, 0)).toBe(true);
  });
});

describe('limits', () => {
  it('a memory bomb is stopped at the memory limit', async () => {
    const big = await run('def main(d):\n    x = bytearray(2 * 1024 ** 3)\n    return []');
    expect(big).toMatchObject({ error: 'Memory limit exceeded (512 MiB)', error_kind: 'limit' });
    const growing = await run(
      'def main(d):\n    hoard = []\n    while True:\n        hoard.append(bytearray(10 ** 7))',
    );
    expect(growing.error).toBe('Memory limit exceeded (512 MiB)');
  });

  it('deep recursion ends with a RecursionError', async () => {
    const result = await run('def f(n):\n    return f(n + 1)\ndef main(d):\n    return f(0)');
    expect(result.error).toContain('RecursionError: maximum recursion depth exceeded');
  });

  it('endless printing is cut at the output limit', async () => {
    const result = await run('def main(d):\n    while True:\n        print("spam " * 20)');
    expect(result).toMatchObject({
      error: 'Output limit exceeded (1 MiB of printed output)',
      error_kind: 'limit',
    });
    expect(result.logs.join('\n').length).toBeLessThanOrEqual(1024 * 1024);
    expect(result.logs.length).toBeGreaterThan(1000);
  });

  it('ctypes reaches nothing more than Python; a native crash is reported', async () => {
    const probe = await run(
      attempts([
        'import ctypes',
        'libc = ctypes.CDLL(None)',
        'attempt("setuid", lambda: libc.setuid(0))',
        'attempt("system", lambda: libc.system(b"id"))',
      ]),
    );
    expect(probe.logs).toEqual(['setuid -> -1', 'system -> 32512']);
    const crash = await run('import ctypes\ndef main(d):\n    return ctypes.string_at(0)');
    expect(crash).toMatchObject({
      error: 'The strategy process crashed (SIGSEGV)',
      error_kind: 'strategy',
    });
  });

  it('sees an empty environment: no secret of the server anywhere', async () => {
    const result = await run(
      attempts([
        'attempt("environ", lambda: dict(os.environ))',
        'attempt("self", lambda: open("/proc/self/environ", "rb").read())',
        'attempt("init", lambda: open("/proc/1/environ", "rb").read())',
      ]),
    );
    expect(result.error).toBeNull();
    expect(result.logs.join('\n')).not.toContain(SECRET);
    expect(result.logs.join('\n')).not.toMatch(/DATABASE_URL|LIVE_TOKEN|VITEST|NODE_/);
    expect(result.logs.slice(1)).toEqual([
      'self -> blocked: FileNotFoundError',
      'init -> blocked: FileNotFoundError',
    ]);
  });

  it('junk written to the result channel is a malformed result, nothing more', async () => {
    const result = await run(
      'import os\ndef main(d):\n    os.write(3, b"{not json")\n    return []',
    );
    expect(result.error).toBe('The strategy process returned a malformed result');
  });
});

describe('while hostile strategies run', () => {
  it('the server keeps serving: a normal backtest and other calls succeed meanwhile', async () => {
    let loopEndedAt = Number.POSITIVE_INFINITY;
    const hostile = [
      run('def main(d):\n    while True:\n        pass').finally(() => {
        loopEndedAt = performance.now();
      }),
      run('import os\ndef main(d):\n    while True:\n        os.fork()'),
      run('def main(d):\n    x = [bytearray(10 ** 8) for _ in range(100)]'),
      run('def main(d):\n    while True:\n        print("x" * 100)'),
    ];
    // the hostile sandboxes are running (as unprivileged host uids of their own)
    await waitFor(() => sandboxProcesses(UID_BASE).length > 3, 5000);

    const normal = await run(defaultStrategyCode());
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    const servedAt = performance.now();
    expect(normal.error).toBeNull();
    expect(normal.deals.length).toBeGreaterThan(0);
    expect(health.statusCode).toBe(200);

    const [loop, forks, memory, printing] = await Promise.all(hostile);
    expect(loop?.error).toBe('Time limit exceeded (4 s)');
    expect(forks?.error).toContain('BlockingIOError');
    // touching 512 MiB on a loaded machine may take longer than the wall limit: both contain it
    expect(memory?.error).toMatch(
      /^(Memory limit exceeded \(512 MiB\)|Time limit exceeded \(4 s\))$/,
    );
    expect(printing?.error).toBe('Output limit exceeded (1 MiB of printed output)');
    // served while the infinite loop was still running (it runs its full 4 s)
    expect(servedAt).toBeLessThan(loopEndedAt);
  });

  it('leaves no sandbox process behind but the pre-started ones', async () => {
    await waitFor(
      () => sandboxProcesses(UID_BASE).length <= 3 * t.app.services.backtest.sandbox.idleCount(),
      5000,
    );
  });
});
