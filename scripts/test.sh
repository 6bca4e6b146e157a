#!/usr/bin/env bash
# The README's test command: install what the build needs when missing, then build everything
# and run every test (Swift Testing, in parallel). Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-packages.sh zlib1g-dev
swift test "$@"
