#!/usr/bin/env bash
# Benchmarks/capture-benchmark.sh [MEGABYTES] [MIX...]   — the capture checker against tshark
# (issues #8 and 36) on every traffic mix.
#
# MIX is one or more of (default: all four, one table each):
#   leancloud  LeanCloud WebSocket traffic, half the connections with permessage-deflate
#              (Benchmarks/CaptureGenerator)
#   all        copies of every real recording of Fixtures/captures, all four dialects, defect
#              variants included (Scale/make_capture.py)
#   clean      copies of the real recordings of Fixtures/captures/real/ without their defect
#              variants (Scale/make_capture.py --clean)
#   vendor     copies of the vendors' own web SDKs' sessions against `imwire serve`
#              (Fixtures/captures/vendor-sdk/, Scale/make_capture.py --from): other
#              clients than the other mixes' (85k connections per 256 MiB, against 31k)
# Each capture is MEGABYTES (default 1024) and generated once. On each, in the same run, it
# measures wall time and peak RSS (/usr/bin/time %e %M) of:
#   imwire check FILE --format json -o /dev/null        with --jobs 1 and --jobs 2 (release build)
#   tshark -r FILE -Y websocket -T fields -e data.data  (output to /dev/null)
# imwire runs RUNS times (default 3) with each --jobs and the table shows the median time and
# the largest peak RSS (each run's time is printed too); tshark, at 100 s a GiB, runs once.
# Environment: IMWIRE=path of a release imwire to measure (default: build this checkout's);
# CAPTURE=path to reuse or place the file when one MIX is given (default
# /tmp/imwire-bench-MIX-MEGABYTES.pcapng; the LeanCloud one keeps its old name,
# /tmp/imwire-bench-MEGABYTES.pcapng).
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes="${1:-1024}"
mixes=("${@:2}")
[ "${#mixes[@]}" -gt 0 ] || mixes=(leancloud all clean vendor)
command -v tshark >/dev/null || { echo "tshark is missing: apt-get install -y tshark" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }
for mix in "${mixes[@]}"; do
  case "$mix" in leancloud | all | clean | vendor) ;; *) echo "unknown mix $mix: leancloud, all, clean or vendor" >&2; exit 2 ;; esac
done
[ "${#mixes[@]}" -eq 1 ] || [ -z "${CAPTURE:-}" ] || { echo "CAPTURE names one file: give one MIX" >&2; exit 2; }
imwire="${IMWIRE:-}"
[ -n "$imwire" ] || { swift build -c release --product imwire >&2 && imwire=.build/release/imwire; }
stats="$(mktemp)"
trap 'rm -f "$stats" "$stats.err"' EXIT

# run NAME COMMAND...: one measured run; prints "NAME seconds peak-KiB". Exit 1 is imwire's
# "findings"; anything above it (a crash) stops the benchmark instead of becoming a timing.
run() {
  local name="$1" status=0; shift
  /usr/bin/time -f "%e %M" -o "$stats" "$@" >/dev/null 2>"$stats.err" || status=$?
  [ "$status" -le 1 ] || { echo "$name exited $status: $(tail -3 "$stats.err")" >&2; exit 1; }
  echo "$name $(tail -1 "$stats")"
}

runs="${RUNS:-3}"
# median NAME COMMAND...: RUNS measured runs; prints "NAME median-seconds largest-KiB".
median() {
  local name="$1" lines; shift
  lines="$(for _ in $(seq "$runs"); do run "$name" "$@"; done)" || exit 1
  echo "$name runs: $(awk '{ printf "%s ", $2 }' <<<"$lines")" >&2
  sort -n -k2 <<<"$lines" | awk -v n="$runs" -v name="$name" '
    { s[NR] = $2; if ($3 > k) k = $3 } END { print name, s[int((n + 1) / 2)], k }'
}

# capture MIX: the path of MIX's capture, generated if missing.
capture() {
  local file
  case "$1" in
    leancloud) file="${CAPTURE:-/tmp/imwire-bench-$megabytes.pcapng}" ;;
    *) file="${CAPTURE:-/tmp/imwire-bench-$1-$megabytes.pcapng}" ;;
  esac
  if [ ! -s "$file" ]; then
    case "$1" in
      leancloud)
        (cd Benchmarks && swift build -c release --product CaptureGenerator >&2)
        Benchmarks/.build/release/CaptureGenerator "$file" "$megabytes" >&2 ;;
      all) python3 Scale/make_capture.py "$file" "$megabytes" >&2 ;;
      clean) python3 Scale/make_capture.py --clean "$file" "$megabytes" >&2 ;;
      vendor) python3 Scale/make_capture.py --from Fixtures/captures/vendor-sdk "$file" "$megabytes" >&2 ;;
    esac
  fi
  echo "$file"
}

for mix in "${mixes[@]}"; do
  file="$(capture "$mix")"
  size=$(stat -L -c %s "$file")
  echo
  echo "mix $mix: $file ($size bytes), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
  results=()
  results+=("$(median imwire-jobs-1 "$imwire" check "$file" --format json -o /dev/null --jobs 1)")
  results+=("$(median imwire-jobs-2 "$imwire" check "$file" --format json -o /dev/null --jobs 2)")
  results+=("$(run tshark tshark -r "$file" -Y websocket -T fields -e data.data)")
  tshark_seconds=$(printf '%s\n' "${results[@]}" | awk '$1 == "tshark" { print $2 }')
  printf '%-14s %9s %10s %13s %14s\n' tool seconds "MB/s" "peak RSS MiB" "throughput vs tshark"
  for line in "${results[@]}"; do
    read -r name seconds kib <<<"$line"
    awk -v n="$name" -v s="$seconds" -v k="$kib" -v b="$size" -v t="$tshark_seconds" 'BEGIN {
      printf "%-14s %9.2f %10.1f %13.1f %13.2fx\n", n, s, b / 1e6 / s, k / 1024, t / s }'
  done
done
