#!/usr/bin/env bash
# Strategy backtests run untrusted Python inside bubblewrap (docs/backtest.md). Install
# Debian's bubblewrap when it is missing (as root through apt-get), and check that the
# other tools of the sandbox are there: prlimit and setpriv (util-linux) and python3.
set -euo pipefail
PYTHON="${BACKTEST_PYTHON:-/usr/bin/python3}"

if ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" != "0" ]; then
    echo "bubblewrap is missing. Install Debian's package: sudo apt-get install -y bubblewrap" >&2
    exit 1
  fi
  echo "Installing Debian's bubblewrap package…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq bubblewrap >/dev/null
fi

# The sandbox's seccomp filter is compiled with libseccomp (apt itself depends on it).
if ! ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2'; then
  if [ "$(id -u)" != "0" ]; then
    echo "libseccomp is missing. Install Debian's package: sudo apt-get install -y libseccomp2" >&2
    exit 1
  fi
  echo "Installing Debian's libseccomp2 package…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq libseccomp2 >/dev/null
fi

for tool in prlimit setpriv; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is missing (Debian package util-linux)." >&2
    exit 1
  fi
done
if [ ! -x "$PYTHON" ]; then
  echo "$PYTHON is missing. Install Debian's package: apt-get install -y python3" >&2
  exit 1
fi

# A trivial sandboxed run: no network, no host files, an unprivileged uid.
bwrap --unshare-all --unshare-user --die-with-parent --new-session --clearenv \
  --uid 65534 --gid 65534 --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
  --proc /proc --dev /dev --tmpfs /tmp \
  "$PYTHON" -I -c 'import os; assert os.getuid() == 65534 and not os.path.exists("/etc/passwd")' ||
  {
    echo "bubblewrap is installed but cannot create a sandbox here (user namespaces disabled?)." >&2
    exit 1
  }
bwrap --version
