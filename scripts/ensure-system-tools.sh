#!/usr/bin/env bash
# System tools the service and its tests use, from Debian's packages:
#   runtime: LibreOffice (DOCX → PDF at upload)
#   test:    + poppler-utils (pdfsig, pdftotext: independent checks of signed PDFs), Chromium (login-page test),
#            Python's venv (schemathesis, the OpenAPI fuzzer, lives in a virtualenv),
#            Java and Maven (Temporal's time-skipping test server, for the workflow timer tests)
# Installed when missing and we can (root with apt-get, as on CI); otherwise reported.
set -euo pipefail
mode="${1:-runtime}"
need=()
command -v soffice >/dev/null || need+=(libreoffice-writer-nogui)
if [ "$mode" = "test" ]; then
  command -v pdfsig >/dev/null || need+=(poppler-utils)
  [ -x /usr/bin/chromium ] || need+=(chromium)
  python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
  command -v java >/dev/null || need+=(default-jre-headless)
  command -v mvn >/dev/null || need+=(maven)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing ${need[*]} from Debian (once per machine)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  exit 0
fi
if [ "$mode" = "test" ]; then
  echo "The tests need: ${need[*]}. Install them with: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "warning: ${need[*]} not installed; DOCX uploads will answer 503 until it is (sudo apt-get install -y ${need[*]})." >&2
