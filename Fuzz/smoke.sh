#!/usr/bin/env bash
# Fuzz/smoke.sh [SECONDS | --build-only]   — CI smoke run: build every target once (libFuzzer + ASan), replay
# each target's FailCases/ and fuzz it for SECONDS (default 5) from its seeds. Fails on any crash,
# timeout or out-of-memory input and on a binary without coverage ("Loaded 1 modules").
# Nothing is written to the tree: corpora and artifacts go to a temporary directory, and
# STATUS.md is left alone (it records real runs, see run.sh).
# Environment: CONFIGURATION (default debug), MAX_LEN (default 4096), SEED (default 1: the same
# mutations every run, so a smoke failure in CI replays locally; campaigns in run.sh vary it).
# Debug, because the build dominates a smoke run: from a clean Fuzz/.build the debug build took
# 431 s and the release build 1072 s (measured 2026-11-22, Swift 6.3, two cores shared with
# another build); release executes 2-10x faster, which matters for campaigns (run.sh), not here.
# --build-only: the build and nothing else (.ci/run starts it early, in the background).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-5}"
configuration="${CONFIGURATION:-debug}"
swift build -c "$configuration" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
[ "$seconds" != --build-only ] || exit 0
export SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 ASAN_OPTIONS=detect_leaks=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=()
for source in Sources/Fuzz*; do
  target="${source#Sources/Fuzz}"
  binary=".build/$configuration/Fuzz$target"
  mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
  python3 seeds.py "$target" "$work/$target/corpus" >/dev/null
  log="$work/$target/log"
  status=0
  cases=(FailCases/"$target"/*)
  if [ -e "${cases[0]}" ]; then
    "$binary" "${cases[@]}" >"$log.replay" 2>&1 || status=$?
    grep -q "Loaded 1 modules" "$log.replay" || status=3
  fi
  if [ "$status" = 0 ]; then
    "$binary" "$work/$target/corpus" -dict="Dictionaries/$target.dict" -max_len="${MAX_LEN:-4096}" -rss_limit_mb=2048 \
      -timeout=5 -seed="${SEED:-1}" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$work/$target/artifacts/" >"$log" 2>&1 || status=$?
    grep -q "Loaded 1 modules" "$log" || status=3
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' || echo 0)
  printf '%-24s %s (%s executions in %ss, %s fail cases replayed)\n' "$target" \
    "$([ "$status" = 0 ] && echo ok || echo "FAILED ($status)")" "${runs:-0}" "$seconds" "$(ls FailCases/"$target" 2>/dev/null | wc -l)"
  if [ "$status" != 0 ]; then
    failed+=("$target")
    { tail -40 "$log.replay" "$log" 2>/dev/null || true; } | sed 's/^/    /'
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz smoke failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz smoke: all $(ls -d Sources/Fuzz* | wc -l) targets ok"
