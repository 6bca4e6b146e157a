#!/usr/bin/env bash
# Writes Fixtures/captures/reports/<capture>.json: `imwire check <capture> --format json --severity info`
# for every sample capture in Fixtures/captures/. SampleReportTests compares the checker's report
# with these byte for byte, so a change in what a sample reports is seen and named in its commit.
# Usage: scripts/pin-sample-reports.sh [path/to/imwire]   (default: a debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
imwire="${1:-.build/debug/imwire}"
[ $# -ge 1 ] || swift build --product imwire >&2
mkdir -p Fixtures/captures/reports
for capture in Fixtures/captures/*.jsonl Fixtures/captures/*.pcapng Fixtures/captures/*.har; do
  [ -e "$capture" ] || continue
  status=0
  "$imwire" check "$capture" --format json --severity info -o "Fixtures/captures/reports/$(basename "$capture").json" || status=$?
  [ "$status" -le 1 ] || { echo "imwire check $capture exited $status" >&2; exit 1; }
done
