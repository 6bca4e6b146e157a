#!/usr/bin/env bash
# Fuzz/run.sh TARGET [SECONDS]   — build TARGET with libFuzzer + ASan and fuzz it.
#
# Build recipe that works with Swift 6.3 on Linux (../shared/reference/anchors.md §7.1), in
# release (an execution is many times faster than in debug; ASan still instruments it):
#   swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
# The run refuses to go on unless the binary prints "Loaded 1 modules" (instrumented for
# coverage). Crashes, timeouts and out-of-memory inputs land in FailCases/TARGET/, which
# `swift test` replays; the run's figures are appended to STATUS.md.
# Environment: CONFIGURATION=debug for a debug build; MAX_LEN (default 4096); NO_BUILD=1 runs the
# binary already built (a campaign of several targets builds once, and keeps running while the
# sources change); RUNS=N stops after N executions (libFuzzer -runs) if SECONDS have not passed.
# ASan keeps no allocation stack traces (malloc_context_size=0): recording one per malloc took a
# quarter of the Pcap target's time. Reproduce a crash without it to see where memory came from.
# The body is one { } block, read whole before it runs: editing this file during a run is safe.
{
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: Fuzz/run.sh TARGET [SECONDS] (targets: $(ls Sources | sed 's/^Fuzz//' | tr '\n' ' '))}"
seconds="${2:-60}"
configuration="${CONFIGURATION:-release}"
[ -d "Sources/Fuzz$target" ] || { echo "no target $target" >&2; exit 2; }

[ -n "${NO_BUILD:-}" ] || swift build -c "$configuration" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product "Fuzz$target" >&2
binary=".build/$configuration/Fuzz$target"
export SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0

python3 seeds.py "$target" >&2
mkdir -p "FailCases/$target"
log="$(mktemp)"
set +e
"$binary" "Corpus/$target" -dict="Dictionaries/$target.dict" -max_len="${MAX_LEN:-4096}" -rss_limit_mb=2048 -timeout=5 \
  -max_total_time="$seconds" -runs="${RUNS:--1}" -print_final_stats=1 -artifact_prefix="FailCases/$target/" 2>&1 | tee "$log" >&2
status=${PIPESTATUS[0]}
set -e
if ! grep -q "Loaded 1 modules" "$log"; then
  echo "Fuzz$target is not instrumented for coverage (no 'Loaded 1 modules'): check the build flags" >&2
  exit 3
fi
python3 record-status.py "$target" "$log" "$status"
exit "$status"
}
