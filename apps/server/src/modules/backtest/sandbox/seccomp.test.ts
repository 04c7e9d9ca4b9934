// The sandbox's seccomp filter (issue 18, item 11), tested from Python inside the real
// sandbox: each call a strategy never needs fails with EPERM (clone3 with ENOSYS, so that
// the C library falls back to clone), while what strategies do need still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { caller, dailyBars, login, testSandbox } from '../../../test/backtest.ts';

let t: TestApp;
let logsOf: (code: string) => Promise<string[]>;

beforeAll(async () => {
  t = await createTestApp({
    config: { sandbox: testSandbox({ uidBase: 58_000, maxConcurrent: 2, maxPerUser: 2 }) },
  });
  const as = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  logsOf = async (code) => {
    const res = await as('POST', '/api/backtest/code', {
      code,
      filename: 'seccomp.py',
      historical_data: dailyBars(5),
    });
    const body = res.json<{ logs: string[]; error: string | null }>();
    expect(body.error, body.logs.join('\n')).toBeNull();
    return body.logs;
  };
});
afterAll(() => t.close());

/** Python that makes raw syscalls (x86-64 numbers) and prints `name errno-name` for each. */
const PRELUDE = [
  'import ctypes, errno, os, socket, threading',
  'libc = ctypes.CDLL(None, use_errno=True)',
  'libc.syscall.restype = ctypes.c_long',
  'def call(name, number, *args):',
  '    r = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])',
  '    e = ctypes.get_errno()',
  '    print(name, errno.errorcode.get(e, str(e)) if r == -1 else "allowed")',
  'def sock(name, family, kind):',
  '    try:',
  '        socket.socket(family, kind).close()',
  '        print(name, "allowed")',
  '    except OSError as error:',
  '        print(name, errno.errorcode.get(error.errno, str(error.errno)))',
];

const strategy = (lines: string[]) =>
  [...PRELUDE, 'def main(data_array):', ...lines.map((l) => `    ${l}`), '    return []'].join(
    '\n',
  );

describe.runIf(process.arch === 'x64')('the seccomp filter', () => {
  it.each([
    ['ptrace', 'call("ptrace", 101, 16, 1, 0, 0)'], // PTRACE_ATTACH to pid 1
    ['mount', 'call("mount", 165, 0, 0, 0, 0, 0)'],
    ['umount2', 'call("umount2", 166, 0, 0)'],
    ['unshare', 'call("unshare", 272, 0x10000000)'], // CLONE_NEWUSER
    ['setns', 'call("setns", 308, 0, 0)'],
    ['clone with CLONE_NEWNET', 'call("clone with CLONE_NEWNET", 56, 0x40000000 | 17, 0, 0, 0, 0)'],
    ['bpf', 'call("bpf", 321, 0, 0, 0)'],
    ['io_uring_setup', 'call("io_uring_setup", 425, 1, 0)'],
    ['io_uring_enter', 'call("io_uring_enter", 426, 0, 0, 0, 0, 0, 0)'],
    ['io_uring_register', 'call("io_uring_register", 427, 0, 0, 0, 0)'],
    ['userfaultfd', 'call("userfaultfd", 323, 0)'],
    ['netlink socket', 'sock("netlink socket", socket.AF_NETLINK, socket.SOCK_RAW)'],
    [
      'netlink datagram socket',
      'sock("netlink datagram socket", socket.AF_NETLINK, socket.SOCK_DGRAM)',
    ],
    ['packet socket', 'sock("packet socket", socket.AF_PACKET, socket.SOCK_DGRAM)'],
    ['raw IPv4 socket', 'sock("raw IPv4 socket", socket.AF_INET, socket.SOCK_RAW)'],
    ['raw IPv6 socket', 'sock("raw IPv6 socket", socket.AF_INET6, socket.SOCK_RAW)'],
    [
      'nonblocking raw socket',
      'sock("nonblocking raw socket", socket.AF_INET, socket.SOCK_RAW | socket.SOCK_NONBLOCK)',
    ],
  ])('denies %s with EPERM', async (name, line) => {
    expect(await logsOf(strategy([line]))).toEqual([`${name} EPERM`]);
  });

  it('clone3 answers ENOSYS (the C library falls back to the checked clone)', async () => {
    expect(await logsOf(strategy(['call("clone3", 435, 0, 0)']))).toEqual(['clone3 ENOSYS']);
  });

  it('leaves what strategies use: threads, processes, TCP and local sockets, files', async () => {
    const logs = await logsOf(
      strategy([
        'out = []',
        't = threading.Thread(target=lambda: out.append("thread")); t.start(); t.join()',
        'pid = os.fork()',
        'if pid == 0: os._exit(7)',
        'out.append("child %d" % os.WEXITSTATUS(os.waitpid(pid, 0)[1]))',
        'sock("tcp socket", socket.AF_INET, socket.SOCK_STREAM)',
        'sock("unix socket", socket.AF_UNIX, socket.SOCK_STREAM)',
        'open("/tmp/x", "w").write("1"); out.append(open("/tmp/x").read())',
        'print(" ".join(out))',
      ]),
    );
    expect(logs).toEqual(['tcp socket allowed', 'unix socket allowed', 'thread child 7 1']);
  });
});
