#!/usr/bin/env bash
# System tools the service and its tests use, from Debian's packages:
#   runtime: LibreOffice (DOCX → PDF at upload), Janus (the live room's media server, with janus-pp-rec),
#            FFmpeg (the recording of the act, composed from Janus's per-stream files) and Poppler's
#            pdftoppm (document pages shown to signers and notaries; also pdfsig, pdftotext for the tests)
#   demo:    + Chromium (the headless participants of `npm run demo:live`)
#   test:    + Chromium (the pages),
#            Python's venv (schemathesis, the OpenAPI fuzzer, lives in a virtualenv),
#            Java and Maven (Temporal's time-skipping test server, for the workflow timer tests),
#            coturn (a TURN relay, for the relay-only live room)
# Installed when missing and we can (root with apt-get, as on CI); otherwise reported.
set -euo pipefail
mode="${1:-runtime}"
need=()
command -v soffice >/dev/null || need+=(libreoffice-writer-nogui)
command -v janus >/dev/null || need+=(janus)
command -v janus-pp-rec >/dev/null || need+=(janus-tools)
command -v ffmpeg >/dev/null || need+=(ffmpeg)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
[ "$mode" = "runtime" ] || [ -x /usr/bin/chromium ] || need+=(chromium)
if [ "$mode" = "test" ]; then
  python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
  command -v java >/dev/null || need+=(default-jre-headless)
  command -v mvn >/dev/null || need+=(maven)
  command -v turnserver >/dev/null || need+=(coturn)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing ${need[*]} from Debian (once per machine)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  exit 0
fi
if [ "$mode" != "runtime" ]; then
  echo "npm run $mode needs: ${need[*]}. Install them with: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "warning: ${need[*]} not installed; DOCX uploads, live acts and document pages answer 503 until they are (sudo apt-get install -y ${need[*]})." >&2
