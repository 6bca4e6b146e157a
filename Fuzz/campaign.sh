#!/usr/bin/env bash
# Fuzz/campaign.sh [-c CORE] TARGET:SECONDS...   — several run.sh runs one after another.
#
# Builds every target once (release, the run.sh recipe), then runs each TARGET for SECONDS with
# NO_BUILD=1, so the sources may change while a campaign runs. With -c CORE each fuzzer is pinned
# to that CPU (taskset), so two campaigns on two cores do not share one. Every run appends its
# figures to STATUS.md as run.sh does. Stop a campaign with SIGINT to the fuzzer (run.sh then
# records the partial run) after killing this script; never with SIGSTOP (see README.md).
# Example: Fuzz/campaign.sh -c 1 Pcap:3600 HAR:1800
set -euo pipefail
cd "$(dirname "$0")"
core=""
if [ "${1:-}" = "-c" ]; then core="$2"; shift 2; fi
[ $# -gt 0 ] || { echo "usage: Fuzz/campaign.sh [-c CORE] TARGET:SECONDS..." >&2; exit 2; }
for spec in "$@"; do
  [ -d "Sources/Fuzz${spec%%:*}" ] && [ "${spec##*:}" -gt 0 ] 2>/dev/null || { echo "not TARGET:SECONDS: $spec" >&2; exit 2; }
done
[ -n "${NO_BUILD:-}" ] || swift build -c "${CONFIGURATION:-release}" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address >&2
pin=()
[ -z "$core" ] || pin=(taskset -c "$core")
for spec in "$@"; do
  target="${spec%%:*}" seconds="${spec##*:}"
  echo "$(date +%T) $target for $seconds s" >&2
  status=0
  NO_BUILD=1 "${pin[@]}" ./run.sh "$target" "$seconds" || status=$?
  echo "$(date +%T) $target exit $status" >&2
done
