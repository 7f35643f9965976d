#!/usr/bin/env bash
# Runs the test suite of every client library against the real service (each suite starts it through
# clients/testing/start-service.ts). Called by .ci/run after `npm test`; run it from anywhere.
set -euo pipefail
cd "$(dirname "$0")"

echo "clients: typescript"
(cd typescript && npm test)   # vitest and tsx from the repository's node_modules
echo "clients: python"
(cd python && python3 -m pytest -q)
echo "clients: go"
(cd go && go test ./...)
echo "clients: java"
(cd java && mvn -q -B test)
