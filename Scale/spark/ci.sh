#!/usr/bin/env bash
# Scale/spark/ci.sh IMWIRE [MEGABYTES]: the Spark job in local[2] on a generated capture of all
# four dialects (Scale/make_capture.py, default 100 MiB) cut into at least 8 shards; its merged
# report must equal `imwire check` of the whole capture byte for byte (the source is the
# capture's absolute path in both), as must those of three JSONL transcripts put beside it, and its
# Parquet table must have a row per reported finding.
# (Every format of the merge is compared in Tests/IMWireMergeTests/ShardMergeTests.swift;
# here JSON only: a debug build checks 100 MiB of this traffic in minutes.)
set -euo pipefail
# Spark binds the loopback address only: this machine has no other network to use.
export SPARK_LOCAL_IP=127.0.0.1
cd "$(dirname "$0")/../.."
imwire="$(realpath "$1")"
megabytes="${2:-100}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
capture="$work/archive/all-dialects.pcapng"
mkdir -p "$work/archive"
python3 Scale/make_capture.py "$capture" "$megabytes"
# JSONL transcripts go through the same job (sharded as JSONL, Spec/shards.md).
transcripts="leancloud-broken nim-login-sync-send-kicked yun2win-kicked-reconnect"
for name in $transcripts; do cp "Fixtures/captures/$name.jsonl" "$work/archive/"; done
# Shards of about a tenth of the capture: at least 8 of them.
shard_megabytes=$((megabytes / 10))
start=$SECONDS
status=0
python3 Scale/spark/check_captures.py --master 'local[2]' --imwire "$imwire" --work "$work/work" --out "$work/out" \
  --max-megabytes "$shard_megabytes" --formats json "$work/archive" 2> >(grep -v -e '^WARNING' -e 'WARN ' -e 'log4j' >&2) || status=$?
echo "spark job: $((SECONDS - start)) s, exit $status"
[ "$status" -le 1 ] || exit 1
shards=$(wc -l <"$work/work/shards/00000/manifest.jsonl")
echo "shards: $shards"
[ "$shards" -ge 8 ] || { echo "only $shards shards" >&2; exit 1; }
start=$SECONDS
single=0
"$imwire" check "$capture" --format json -o "$work/single.json" --jobs 2 || single=$?
echo "single run: $((SECONDS - start)) s, exit $single"
[ "$single" -eq "$status" ] || { echo "exit $status, single run $single" >&2; exit 1; }
cmp "$work/out/all-dialects.pcapng.json" "$work/single.json"
for name in $transcripts; do
  "$imwire" check "$work/archive/$name.jsonl" --format json -o "$work/$name.single.json" || [ $? -eq 1 ]
  cmp "$work/out/$name.jsonl.json" "$work/$name.single.json"
done
python3 - "$work" $transcripts <<'PY'
import json, sys
from pyspark.sql import SparkSession
work = sys.argv[1]
report = json.load(open(f"{work}/single.json"))
reports = [report] + [json.load(open(f"{work}/{name}.single.json")) for name in sys.argv[2:]]
expected = sum(len(r["captureFindings"]) + sum(len(c["findings"]) for c in r["connections"]) for r in reports)
dialects = {c["dialect"] for c in report["connections"]}
assert dialects >= {"leancloud", "nim", "jmessage", "yun2win"}, dialects
spark = SparkSession.builder.master("local[1]").config("spark.ui.showConsoleProgress", "false").getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
table = spark.read.parquet(f"{work}/out/findings.parquet")
rows = table.count()
rules = table.groupBy("rule").count().orderBy("count", ascending=False).limit(3).collect()
spark.stop()
assert rows == expected, (rows, expected)
print(f"merged reports == single runs ({len(reports)} captures); parquet: {rows} findings, top rules {[(r['rule'], r['count']) for r in rules]}; dialects {sorted(dialects)}")
PY
