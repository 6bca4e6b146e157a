#!/usr/bin/env bash
# Benchmarks/shard-benchmark.sh [MEGABYTES]   — `imwire shard` against disk speed (issue 36).
#
# On the all-dialect capture and the clean one of Benchmarks/capture-benchmark.sh (MEGABYTES,
# default 256; generated with Scale/make_capture.py when missing), in the same run, each RUNS
# times (default 5) in turn, wall time and peak RSS (/usr/bin/time %e %M) of:
#   cp ALL OUT/                                   the disk's own speed, the floor
#   editcap -c 200000 ALL OUT/x.pcapng            Wireshark's splitter: the same bytes in, and
#                                                 about as many out, cut by packet count
#   imwire shard ALL --jobs 1 / --jobs 2          one capture (--max-megabytes 32)
#   imwire shard ALL CLEAN --jobs 1 / --jobs 2    two captures, sharded at once with --jobs 2
# The table shows the median time, MB/s of capture read (both files' bytes for two), MB/s per
# core (over the jobs) and the largest peak RSS. OUT is emptied before every run.
# Environment: IMWIRE=path of a release imwire (default: build this checkout's); OUT=directory
# for the shards (default: a new one under $TMPDIR or /tmp, on disk; /dev/shm measures without
# the disk).
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes="${1:-256}"
runs="${RUNS:-5}"
command -v editcap >/dev/null || { echo "editcap is missing: apt-get install -y tshark" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }
imwire="${IMWIRE:-}"
[ -n "$imwire" ] || { swift build -c release --product imwire >&2 && imwire=.build/release/imwire; }
all="/tmp/imwire-bench-all-$megabytes.pcapng"
clean="/tmp/imwire-bench-clean-$megabytes.pcapng"
[ -s "$all" ] || python3 Scale/make_capture.py "$all" "$megabytes" >&2
[ -s "$clean" ] || python3 Scale/make_capture.py --clean "$clean" "$megabytes" >&2
out="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/imwire-shard-bench.XXXXXX")}"
mkdir -p "$out"
stats="$(mktemp)"
trap 'rm -rf "$stats" "${out:?}"/*' EXIT
one=$(stat -L -c %s "$all")
two=$((one + $(stat -L -c %s "$clean")))

# run NAME JOBS BYTES COMMAND...: one measured run into an empty OUT; appends
# "NAME JOBS BYTES seconds peak-KiB" to $stats.lines. A failure stops the benchmark.
run() {
  local name="$1" jobs="$2" bytes="$3"; shift 3
  rm -rf "${out:?}"/*
  sync
  /usr/bin/time -f "%e %M" -o "$stats" "$@" >/dev/null 2>"$stats.err" \
    || { echo "$name failed: $(tail -3 "$stats.err")" >&2; exit 1; }
  echo "$name $jobs $bytes $(tail -1 "$stats")" >>"$stats.lines"
}

echo "shard: $all and $clean ($one and $((two - one)) bytes) into $out, $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ), $runs runs each in turn"
: >"$stats.lines"
for _ in $(seq "$runs"); do
  run cp 1 "$one" cp "$all" "$out/"
  run editcap 1 "$one" editcap -c 200000 "$all" "$out/x.pcapng"
  run shard-1-file-jobs-1 1 "$one" "$imwire" shard "$all" --out "$out" --max-megabytes 32 --jobs 1
  run shard-1-file-jobs-2 2 "$one" "$imwire" shard "$all" --out "$out" --max-megabytes 32 --jobs 2
  run shard-2-files-jobs-1 1 "$two" "$imwire" shard "$all" "$clean" --out "$out" --max-megabytes 32 --jobs 1
  run shard-2-files-jobs-2 2 "$two" "$imwire" shard "$all" "$clean" --out "$out" --max-megabytes 32 --jobs 2
done
printf '%-22s %9s %9s %13s %13s   %s\n' tool seconds "MB/s" "MB/s per core" "peak RSS MiB" "every run (s)"
for name in cp editcap shard-1-file-jobs-1 shard-1-file-jobs-2 shard-2-files-jobs-1 shard-2-files-jobs-2; do
  awk -v name="$name" '$1 == name { print }' "$stats.lines" | sort -n -k4 | awk -v n="$runs" '
    { s[NR] = $4; all = all " " $4; if ($5 > k) k = $5; name = $1; jobs = $2; bytes = $3 }
    END {
      m = s[int((n + 1) / 2)]
      printf "%-22s %9.2f %9.1f %13.1f %13.1f  %s\n", name, m, bytes / 1e6 / m, bytes / 1e6 / m / jobs, k / 1024, all
    }'
done
