#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium. Install it when it is missing (as root through
# apt-get); never download a browser through a test tool.
set -euo pipefail
# The spec's Chinese texts need a CJK font to render (else they show as boxes).
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
[ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto | grep -qi cjk || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "Missing Debian packages: ${missing[*]}. Install them: sudo apt-get install -y ${missing[*]}" >&2
  [ -x "$CHROMIUM" ] || exit 1
  exit 0
fi
echo "Installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
"$CHROMIUM" --version
