#!/usr/bin/env bash
# The README's test command: install what the build needs when missing, then build everything
# and run every test (Swift Testing, in parallel). Extra arguments go to `swift test`.
# The project's own targets build with warnings as errors (IMWIRE_STRICT, Package.swift), and a
# target that imports a module it does not declare is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-packages.sh zlib1g-dev
export IMWIRE_STRICT="${IMWIRE_STRICT:-1}"
swift test --explicit-target-dependency-import-check error "$@"
