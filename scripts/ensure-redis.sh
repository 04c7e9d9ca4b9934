#!/usr/bin/env bash
# The multi-node test (apps/server/src/modules/cluster/multi-node.test.ts) and the cluster
# benchmark start a throwaway redis-server of their own. Install Debian's redis-server
# package when the binary is missing (as root through apt-get), then print the version.
set -euo pipefail

find_bin() {
  local candidate
  for candidate in "$(command -v redis-server 2>/dev/null || true)" /usr/bin/redis-server; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

if ! find_bin >/dev/null; then
  if [ "$(id -u)" != "0" ]; then
    echo "redis-server is missing. Install Debian's package: sudo apt-get install -y redis-server" >&2
    exit 1
  fi
  echo "Installing Debian's redis-server package…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # the tests start their own server: the package's system service is not needed
  apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  find_bin >/dev/null || {
    echo "redis-server is installed but not on PATH or at /usr/bin/redis-server." >&2
    exit 1
  }
fi
"$(find_bin)" --version
