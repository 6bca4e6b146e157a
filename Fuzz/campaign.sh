#!/usr/bin/env bash
# Fuzz/campaign.sh [-c CORE] TARGET:SECONDS[:GOAL]...   — several run.sh runs one after another.
#
# Builds each target once (release, the run.sh recipe), then runs each TARGET for SECONDS with
# NO_BUILD=1, so the sources may change while a campaign runs. With GOAL, a run also stops once
# the target's total executions in STATUS.md reach GOAL (RUNS=the difference), and is skipped
# when they already have, so a campaign can go from one target to the next as each is done.
# With -c CORE each fuzzer is pinned to that CPU (taskset), so two campaigns on two cores do not
# share one. Every run appends its figures to STATUS.md as run.sh does. Stop a campaign with
# SIGINT to the fuzzer (run.sh then records the partial run) after killing this script; never
# with SIGSTOP (see README.md).
# Example: Fuzz/campaign.sh -c 1 Pcap:3600:10000000 HAR:1800
# The body is one { } block, read whole before it runs: editing this file during a run is safe.
{
set -euo pipefail
cd "$(dirname "$0")"
core=""
if [ "${1:-}" = "-c" ]; then core="$2"; shift 2; fi
[ $# -gt 0 ] || { echo "usage: Fuzz/campaign.sh [-c CORE] TARGET:SECONDS[:GOAL]..." >&2; exit 2; }
for spec in "$@"; do
  IFS=: read -r target seconds goal extra <<<"$spec"
  [ -d "Sources/Fuzz$target" ] && [ "$seconds" -gt 0 ] 2>/dev/null && [ "${goal:-1}" -gt 0 ] 2>/dev/null && [ -z "$extra" ] \
    || { echo "not TARGET:SECONDS[:GOAL]: $spec" >&2; exit 2; }
done
# Each target's product on its own: building every product links the root package's `imwire`
# executable with libFuzzer's main too, which fails ("multiple definition of 'main'").
if [ -z "${NO_BUILD:-}" ]; then
  for spec in "$@"; do
    swift build -c "${CONFIGURATION:-release}" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
      --product "Fuzz${spec%%:*}" >&2
  done
fi
pin=()
[ -z "$core" ] || pin=(taskset -c "$core")
for spec in "$@"; do
  IFS=: read -r target seconds goal _ <<<"$spec"
  runs=-1
  if [ -n "$goal" ]; then
    runs=$(python3 record-status.py --remaining "$target" "$goal")
    [ "$runs" -gt 0 ] || { echo "$(date +%T) $target already has $goal executions" >&2; continue; }
  fi
  echo "$(date +%T) $target for $seconds s${goal:+ or $runs executions}" >&2
  status=0
  RUNS=$runs NO_BUILD=1 "${pin[@]}" ./run.sh "$target" "$seconds" || status=$?
  echo "$(date +%T) $target exit $status" >&2
done
exit
}
