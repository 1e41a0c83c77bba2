#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/storefront) when it is missing. The tests
# never use a browser downloaded by a test tool; SVC_CHROMIUM_PATH points them at another binary.
set -euo pipefail
chromium="${SVC_CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then exit 0; fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; fi
fi
if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; }; then
  echo "Installing Chromium (Debian package) for the browser tests" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq chromium >/dev/null
  [ -x "$chromium" ] && exit 0
fi
echo "Chromium is not at $chromium: install Debian's chromium package, or set SVC_CHROMIUM_PATH." >&2
exit 1
