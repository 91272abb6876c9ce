#!/usr/bin/env bash
# s3proxy (a real S3-compatible server over a folder) from Maven Central, once per machine: the tests and
# `npm run verify:production` keep recordings in it as production keeps them in S3.
set -euo pipefail
jar="$HOME/.m2/repository/org/gaul/s3proxy/2.6.0/s3proxy-2.6.0-jar-with-dependencies.jar"
[ -f "$jar" ] && exit 0
echo "Fetching s3proxy 2.6.0 from Maven Central (once per machine)..."
mvn -q dependency:get -Dartifact=org.gaul:s3proxy:2.6.0:jar:jar-with-dependencies -Dtransitive=false
