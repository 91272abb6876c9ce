#!/usr/bin/env bash
# Temporal's time-skipping test server for the workflow timer tests. The TypeScript SDK would download a
# native build from a host this machine cannot reach; the same server ships on Maven Central as Java.
# Builds, once per machine, a cache outside the checkout holding its jars and a launcher that
# TestWorkflowEnvironment.createTimeSkipping() runs as `launcher <port>`.
set -euo pipefail
cd "$(dirname "$0")/.."
pom=test/support/temporal-test-server/pom.xml
version=$(sed -n 's:.*<version>\(1\.[0-9.]*\)</version>.*:\1:p' "$pom" | tail -1)
dir="${XDG_CACHE_HOME:-$HOME/.cache}/notarization-service/temporal-test-server-$version"
[ -x "$dir/launcher" ] && exit 0
echo "Fetching Temporal's time-skipping test server $version into $dir (once per machine)..."
rm -rf "$dir.tmp"
mvn -q -B -Dstyle.color=never -f "$pom" dependency:copy-dependencies -DoutputDirectory="$dir.tmp/lib"
cat >"$dir.tmp/launcher" <<LAUNCHER
#!/bin/sh
exec java -Xmx512m -cp "$dir/lib/*" io.temporal.testserver.TestServer "\$@"
LAUNCHER
chmod +x "$dir.tmp/launcher"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
