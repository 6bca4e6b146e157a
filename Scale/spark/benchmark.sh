#!/usr/bin/env bash
# Scale/spark/benchmark.sh [MEGABYTES] [SHARD_MEGABYTES]: the Spark job in local[2] against
# `imwire check --jobs 2` on the same generated capture of all four dialects (Scale/make_capture.py,
# default 1024 MiB, shards of 64 MiB), release build; then each step alone: shard, check of every
# shard one after another (--jobs 1), merge (SPARK_ONLY=1 skips those). Wall time and peak RSS of each
# (/usr/bin/time: for the Spark job only the driver's Python process, so Scale/spark/peak_memory.py
# samples its whole tree too: the JVM, Python workers, imwire tasks); the merged report is compared
# with the single run.
set -euo pipefail
cd "$(dirname "$0")/../.."
export SPARK_LOCAL_IP=127.0.0.1
megabytes="${1:-1024}"
shard_megabytes="${2:-64}"
imwire="$PWD/.build/release/imwire"
[ -x "$imwire" ] || swift build -c release --product imwire >&2
work="${WORK:-/tmp/imwire-spark-bench}"
mkdir -p "$work/archive"
capture="$work/archive/all-dialects-$megabytes.pcapng"
[ -s "$capture" ] || python3 Scale/make_capture.py "$capture" "$megabytes" >&2
size=$(stat -L -c %s "$capture")
measure() { # NAME COMMAND...: prints NAME seconds MB/s peak-MiB
  local name="$1" status=0; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || status=$?
  [ "$status" -le 1 ] || { echo "$name exited $status: $(tail -3 "$work/err")" >&2; exit 1; }
  read -r seconds kib < <(tail -1 "$work/time")
  awk -v n="$name" -v s="$seconds" -v k="$kib" -v b="$size" 'BEGIN { printf "%-28s %8.1f s %8.1f MB/s %8.1f MiB\n", n, s, b / 1e6 / s, k / 1024 }'
}
echo "capture: $size bytes, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
rm -rf "$work/work" "$work/out" "$work/shards"
measure "imwire check --jobs 2" "$imwire" check "$capture" --format json -o "$work/single.json" --jobs 2
measure "spark local[2] (whole job)" python3 Scale/spark/peak_memory.py "$work/spark-memory.json" \
  python3 Scale/spark/check_captures.py --master 'local[2]' --imwire "$imwire" \
  --work "$work/work" --out "$work/out" --max-megabytes "$shard_megabytes" "$work/archive"
echo "spark job's process tree, peak MiB (sampled every 100 ms): $(cat "$work/spark-memory.json")"
cmp "$work/out/$(basename "$capture").json" "$work/single.json" && echo "merged report == single run"
[ -z "${SPARK_ONLY:-}" ] || exit 0  # SPARK_ONLY=1: the comparison only, not each step alone
measure "imwire shard" "$imwire" shard "$capture" --out "$work/shards" --max-megabytes "$shard_megabytes"
echo "shards: $(wc -l <"$work/shards/manifest.jsonl")"
start=$(date +%s.%N)
peak=0
for shard in "$work"/shards/*.pcapng; do
  /usr/bin/time -f "%M" -o "$work/time" "$imwire" check "$shard" --format json -o "$shard.json" || [ $? -eq 1 ]
  peak=$(( $(tail -1 "$work/time") > peak ? $(tail -1 "$work/time") : peak ))
done
awk -v s="$(echo "$(date +%s.%N) - $start" | bc)" -v k="$peak" -v b="$size" 'BEGIN { printf "%-28s %8.1f s %8.1f MB/s %8.1f MiB\n", "check of every shard, jobs 1", s, b / 1e6 / s, k / 1024 }'
measure "imwire merge" "$imwire" merge "$work"/shards/*.json --format json -o "$work/merged.json"
cmp "$work/merged.json" "$work/single.json" && echo "merge == single run"
echo "reports: $(du -cb "$work"/shards/*.json | tail -1 | cut -f1) bytes of shard JSON"
