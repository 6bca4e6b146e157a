#!/usr/bin/env python3
"""Appends one fuzz run's figures to Fuzz/STATUS.md and refreshes the per-target totals.

Usage: record-status.py TARGET LOGFILE EXIT_STATUS  (called by run.sh)
       record-status.py --totals                   (recompute the totals after a row was corrected)
       record-status.py --remaining TARGET GOAL    (print GOAL minus the target's total executions, at least 0)
The runs table is the record; the totals table is recomputed from it every time. Crashes count
the crash-, timeout-, oom- and leak- inputs a run saved, not libFuzzer's slow-unit reports.
Each call holds a lock on Fuzz/ while it reads and rewrites STATUS.md: two campaigns on two cores
can end runs at the same moment, and two unlocked rewrites once interleaved and lost rows.
"""
import fcntl
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STATUS = os.path.join(HERE, "STATUS.md")
HEADER = """# Fuzzing status

Maintained by `Fuzz/record-status.py` (called by `Fuzz/run.sh`): one row per run, totals
recomputed from the rows. `executions` is libFuzzer's `stat::number_of_executed_units`,
`features` its final `ft:` count, `corpus` the files in `Corpus/<target>` after the run, and
`crashes` the inputs the run saved to `FailCases/<target>/` (each one is fixed and then replayed by
`swift test`).
"""


def parse_runs(text):
    runs = []
    in_runs = False
    for line in text.splitlines():
        if line.startswith("## Runs"):
            in_runs = True
            continue
        if in_runs and line.startswith("| ") and not line.startswith("| target") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            runs.append(cells)
    return runs


def main():
    lock = os.open(HERE, os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)  # released when the process exits
    if sys.argv[1:] == ["--totals"]:
        write(parse_runs(open(STATUS).read()))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--remaining":
        done = sum(int(r[1]) for r in parse_runs(open(STATUS).read()) if r[0] == sys.argv[2])
        print(max(0, int(sys.argv[3]) - done))
        return
    target, log_path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    log = open(log_path, errors="replace").read()
    executions = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
    seconds = re.findall(r"Done \d+ runs in (\d+) second", log)
    features = re.findall(r"\bft: (\d+)", log)
    corpus_dir = os.path.join(HERE, "Corpus", target)
    corpus = len(os.listdir(corpus_dir)) if os.path.isdir(corpus_dir) else 0
    crashes = len(re.findall(r"Test unit written to \S*/(?:crash|timeout|oom|leak)-", log))
    row = [target, executions[-1] if executions else "0", seconds[-1] if seconds else "?", features[-1] if features else "?",
           str(corpus), str(crashes), "ok" if status == 0 else f"exit {status}"]
    runs = parse_runs(open(STATUS).read()) if os.path.exists(STATUS) else []
    runs.append(row)
    write(runs)
    print(f"{target}: {row[1]} executions, {row[3]} features, corpus {corpus}, {crashes} crashes -> STATUS.md")


def write(runs):
    totals = {}
    for r in runs:
        t = totals.setdefault(r[0], {"runs": 0, "executions": 0, "features": r[3], "corpus": r[4], "crashes": 0})
        t["runs"] += 1
        t["executions"] += int(r[1])
        t["features"], t["corpus"] = r[3], r[4]
        t["crashes"] += int(r[5])
    lines = [HEADER, "## Totals", "", "| target | runs | executions | features (last run) | corpus (last run) | crashes found |",
             "|---|---|---|---|---|---|"]
    for name in sorted(totals):
        t = totals[name]
        lines.append(f"| {name} | {t['runs']} | {t['executions']:,} | {t['features']} | {t['corpus']} | {t['crashes']} |")
    lines += ["", "## Runs", "", "| target | executions | seconds | features | corpus | crashes | result |",
              "|---|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in runs]
    with open(STATUS + ".new", "w") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(STATUS + ".new", STATUS)


if __name__ == "__main__":
    main()
