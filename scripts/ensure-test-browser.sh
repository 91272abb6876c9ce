#!/usr/bin/env bash
# The login-page test drives a real headless Chromium (Debian's package). Install it when missing
# and we can (root with apt-get, as on CI); otherwise say how.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian chromium for the browser test (once per machine)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The browser test needs /usr/bin/chromium: run 'sudo apt-get install -y chromium'." >&2
exit 1
