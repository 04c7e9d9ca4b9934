"""Writes the strategy sandbox's seccomp filter (a BPF program for `bwrap --seccomp FD`).

Run by the server once at start, with the host's trusted interpreter, never inside the
sandbox: `python3 -I -S seccomp.py OUT_FILE`. It compiles the filter with libseccomp (the
maintained compiler of such filters; Debian's libseccomp2, loaded through ctypes because no
binding is installed) so that syscall numbers and the architecture check come from it, not
from hand-written BPF.

Everything is allowed but what a strategy never needs, which fails with EPERM:
ptrace and reading other processes' memory, mounting (old and new mount API), namespaces
(unshare, setns, clone with a CLONE_NEW* flag), bpf, io_uring, userfaultfd, perf events,
kernel keyrings, and netlink, packet and raw sockets. clone3 fails with ENOSYS (its flags are
behind a pointer a filter cannot read), so the C library falls back to clone, which is
checked. Syscalls of another architecture (i386, x32) kill the process (libseccomp's default).
"""

import ctypes
import ctypes.util
import errno
import os
import sys

SCMP_ACT_ALLOW = 0x7FFF0000


def scmp_act_errno(code):
    return 0x00050000 | (code & 0x0000FFFF)


SCMP_CMP_EQ = 4
SCMP_CMP_MASKED_EQ = 7

AF_NETLINK = 16
AF_PACKET = 17
SOCK_RAW = 3
SOCK_TYPE_MASK = 0xF

CLONE_NEW_FLAGS = {
    "CLONE_NEWTIME": 0x00000080,
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}

DENIED = [
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "unshare",
    "setns",
    "bpf",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "userfaultfd",
    "perf_event_open",
    "add_key",
    "request_key",
    "keyctl",
]


class ArgCmp(ctypes.Structure):
    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


def main(out_file):
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        sys.stderr.write("libseccomp is not installed (Debian: apt-get install libseccomp2)\n")
        return 2
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.restype = ctypes.c_int
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(ArgCmp),
    ]
    lib.seccomp_export_bpf.restype = ctypes.c_int
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]

    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        sys.stderr.write("seccomp_init failed\n")
        return 1
    eperm = scmp_act_errno(errno.EPERM)

    def rule(action, syscall, *cmps):
        number = lib.seccomp_syscall_resolve_name(syscall.encode())
        if number < 0:
            return  # not a syscall of this architecture or libseccomp version
        array = (ArgCmp * max(1, len(cmps)))(*cmps)
        rc = lib.seccomp_rule_add_array(ctx, action, number, len(cmps), array)
        if rc < 0:
            raise OSError(-rc, "seccomp_rule_add %s: %s" % (syscall, os.strerror(-rc)))

    for syscall in DENIED:
        rule(eperm, syscall)
    rule(scmp_act_errno(errno.ENOSYS), "clone3")
    for flag in CLONE_NEW_FLAGS.values():
        rule(eperm, "clone", ArgCmp(0, SCMP_CMP_MASKED_EQ, flag, flag))
    rule(eperm, "socket", ArgCmp(0, SCMP_CMP_EQ, AF_NETLINK, 0))
    rule(eperm, "socket", ArgCmp(0, SCMP_CMP_EQ, AF_PACKET, 0))
    rule(eperm, "socket", ArgCmp(1, SCMP_CMP_MASKED_EQ, SOCK_TYPE_MASK, SOCK_RAW))

    tmp = out_file + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        rc = lib.seccomp_export_bpf(ctx, fd)
    finally:
        os.close(fd)
        lib.seccomp_release(ctx)
    if rc < 0:
        os.unlink(tmp)
        sys.stderr.write("seccomp_export_bpf failed: %s\n" % os.strerror(-rc))
        return 1
    os.replace(tmp, out_file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
