#!/usr/bin/env bash
# The README's first command: install what is missing, build imwire, and check the sample
# capture shipped in Fixtures/captures/ (a LeanCloud session over WebSocket with
# permessage-deflate, recorded with dumpcap). Pass another capture to check that instead.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || { echo "Swift 6.3 is required: https://www.swift.org/install/linux/" >&2; exit 2; }
scripts/ensure-packages.sh zlib1g-dev
# The same build settings as scripts/test.sh, so that running both builds once.
export IMWIRE_STRICT="${IMWIRE_STRICT:-1}"
swift build --explicit-target-dependency-import-check error --product imwire
capture="${1:-Fixtures/captures/leancloud-real.pcapng}"
echo "\$ imwire check $capture"
exec .build/debug/imwire check "$capture"
