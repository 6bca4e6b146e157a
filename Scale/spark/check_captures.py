#!/usr/bin/env python3
"""Checks pcap/pcapng (and JSONL transcript) archives on Apache Spark with imwire: shard, check, merge (Scale/README.md).

    spark-submit --master local[2] --files .build/release/imwire Scale/spark/check_captures.py \\
        --work /shared/imwire-work --out /shared/imwire-out [--max-megabytes 256] CAPTURE_OR_DIR...

1. map: each capture is cut by `imwire shard` on an executor into pcapng shards that keep every
   TCP connection, client and socket.io session whole (Spec/shards.md), under WORK/shards/;
2. map: `imwire check --format json` of every shard, one Spark task per shard (mapPartitions
   over one shard per partition), reports under WORK/reports/;
3. reduce: the reports of each capture grouped by key and merged by `imwire merge` into the
   report `imwire check` of the whole capture gives (OUT/<capture name>.json, and the other
   --formats), the reconnect judgement run across all shards;
4. the findings of every merged report as one Parquet table, a row per finding
   (OUT/findings.parquet).

Captures are passed to executors as paths, never as bytes (Spark's binaryFile source fails on
files over 2 GB): WORK, OUT and the captures must be on a file system every executor sees (one
machine's disk in local mode; NFS, a FUSE-mounted bucket or similar on a cluster). The imwire
binary comes from --files (SparkFiles), else --imwire, else PATH; build it with a static
Swift standard library so executors need no Swift installation:
    swift build -c release --static-swift-stdlib --product imwire
Exit status: 0 clean, 1 findings at or above the severity (in any capture), 2 a failed step.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

FORMAT_SUFFIX = {"json": "json", "text": "txt", "junit": "junit.xml", "sarif": "sarif", "html": "html"}


def imwire_binary(explicit=None):
    """The imwire executable on this machine (driver or executor)."""
    if explicit:
        return explicit
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get("imwire")
        if os.path.exists(shipped):
            if not os.access(shipped, os.X_OK):
                os.chmod(shipped, 0o755)
            return shipped
    except Exception:
        pass
    found = shutil.which("imwire")
    if not found:
        raise RuntimeError("no imwire binary: ship it with spark-submit --files, or pass --imwire")
    return found


def run(command):
    """Runs an imwire command; exit 0 and 1 (findings) are results, anything else a failure."""
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {completed.returncode}: {completed.stderr.strip()[-2000:]}")
    return completed


def list_captures(inputs):
    captures = []
    for item in inputs:
        if os.path.isdir(item):
            for directory, _, names in sorted(os.walk(item)):
                captures += [os.path.join(directory, n) for n in sorted(names) if n.endswith((".pcap", ".pcapng", ".jsonl"))]
        else:
            captures.append(item)
    return [os.path.abspath(c) for c in captures]


def output_names(captures):
    """A name per capture for its merged report: its file name, prefixed by its number when two share one."""
    names = [os.path.basename(c) for c in captures]
    return [f"{i:05d}-{n}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def shard_task(args, binary, jobs):
    """`jobs`: threads of each `imwire shard` (its second pass), so that fewer captures than
    cores still keep the cores busy while they are cut."""
    def shard(entry):
        index, capture = entry
        directory = os.path.join(args.work, "shards", f"{index:05d}")
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory, exist_ok=True)
        run([imwire_binary(binary), "shard", capture, "--out", directory, "--max-megabytes", str(args.max_megabytes), "--jobs", str(jobs)])
        with open(os.path.join(directory, "manifest.jsonl")) as manifest:
            return [(index, json.loads(line)) for line in manifest if line.strip()]

    return shard


def check_task(args, binary):
    def check_partition(shards):
        for index, shard in shards:
            directory = os.path.join(args.work, "reports", f"{index:05d}")
            os.makedirs(directory, exist_ok=True)
            report = os.path.join(directory, f"{shard['index']:06d}.json")
            command = [imwire_binary(binary), "check", shard["path"], "--format", "json", "-o", report]
            command += ["--severity", args.severity] + (["--lenient"] if args.lenient else [])
            if "html" in args.formats:  # a merged HTML page draws the shards' timelines
                command.append("--merge-timelines")
            for policy in args.policy:
                command += ["--policy", policy]
            run(command)
            yield index, report

    return check_partition


def merge_task(args, binary, names):
    def merge(entry):
        index, reports = entry
        reports = sorted(reports)
        exit_code = 0
        for format in args.formats:
            path = os.path.join(args.out, f"{names[index]}.{FORMAT_SUFFIX[format]}")
            exit_code = run([imwire_binary(binary), "merge", *reports, "--format", format, "-o", path]).returncode
        return index, os.path.join(args.out, f"{names[index]}.json"), exit_code

    return merge


FINDING_FIELDS = [
    ("rule", "string"), ("severity", "string"), ("layer", "string"), ("dialect", "string"),
    ("connection", "string"), ("frame", "long"), ("line", "long"), ("time", "long"), ("direction", "string"),
    ("offset", "long"), ("subject", "string"), ("message", "string"), ("specRef", "string"), ("closeCode", "long"),
]


def finding_rows(entry):
    """A row per finding of one merged JSON report."""
    _, path, _ = entry
    with open(path) as file:
        report = json.load(file)
    capture = report["source"]
    findings = [(None, f) for f in report["captureFindings"]]
    findings += [(c, f) for c in report["connections"] for f in c["findings"]]
    for connection, finding in findings:
        row = [capture, connection["dialect"] if connection else None, connection["client"] if connection else None]
        row += [finding.get(name) for name, _ in FINDING_FIELDS]
        yield tuple(row)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("inputs", nargs="+", help="captures (.pcap, .pcapng, .jsonl) or directories of them")
    parser.add_argument("--work", required=True, help="shared directory for shards and shard reports")
    parser.add_argument("--out", required=True, help="shared directory for the merged reports and findings.parquet")
    parser.add_argument("--max-megabytes", type=float, default=256, help="shard size aimed at (MiB)")
    parser.add_argument("--formats", default="json", help="merged report formats, comma-separated: json,text,junit,sarif,html")
    parser.add_argument("--severity", default="warning", help="imwire check --severity")
    parser.add_argument("--lenient", action="store_true", help="imwire check --lenient")
    parser.add_argument("--policy", action="append", default=[], help="imwire check --policy (repeatable)")
    parser.add_argument("--imwire", help="path of the imwire binary on every executor (default: --files, else PATH)")
    parser.add_argument("--master", help="Spark master when run without spark-submit, e.g. local[2]")
    args = parser.parse_args()
    args.formats = [f for f in args.formats.split(",") if f]
    if "json" not in args.formats:
        args.formats.insert(0, "json")
    args.work, args.out = os.path.abspath(args.work), os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)

    from pyspark.sql import SparkSession
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    builder = SparkSession.builder.appName("imwire check_captures").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    captures = list_captures(args.inputs)
    if not captures:
        print("no pcap, pcapng or JSONL captures given", file=sys.stderr)
        return 2
    names = output_names(captures)
    binary = args.imwire

    shard_jobs = max(1, sc.defaultParallelism // len(captures))
    shards = sc.parallelize(list(enumerate(captures)), len(captures)).flatMap(shard_task(args, binary, shard_jobs)).collect()
    print(f"imwire: {len(captures)} captures, {len(shards)} shards", file=sys.stderr)
    reports = sc.parallelize(shards, len(shards)).mapPartitions(check_task(args, binary))
    merged = reports.groupByKey(numPartitions=max(1, min(len(captures), sc.defaultParallelism))).map(merge_task(args, binary, names))
    merged = merged.collect()

    schema = StructType(
        [StructField("capture", StringType()), StructField("connectionDialect", StringType()), StructField("client", StringType())]
        + [StructField(name, LongType() if kind == "long" else StringType()) for name, kind in FINDING_FIELDS])
    rows = sc.parallelize(merged, max(1, len(merged))).flatMap(finding_rows)
    table = spark.createDataFrame(rows, schema)
    table.write.mode("overwrite").parquet(os.path.join(args.out, "findings.parquet"))
    count = spark.read.parquet(os.path.join(args.out, "findings.parquet")).count()
    for _, path, exit_code in sorted(merged):
        print(f"{path} (exit {exit_code})")
    print(f"{os.path.join(args.out, 'findings.parquet')}: {count} findings", file=sys.stderr)
    spark.stop()
    return max(code for _, _, code in merged)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as error:  # a failed step: exit 2, as imwire does for unreadable input
        print(f"check_captures: {error}", file=sys.stderr)
        sys.exit(2)
