#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium. Install it when it is missing (as root through
# apt-get); never download a browser through a test tool.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "Chromium is missing at $CHROMIUM. Install Debian's package: sudo apt-get install -y chromium" >&2
  exit 1
fi
echo "Installing Debian's chromium package…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
"$CHROMIUM" --version
