#!/usr/bin/env python3
"""Runs a command and samples the memory of its whole process tree (Scale/spark/benchmark.sh).

    peak_memory.py OUT.json COMMAND...

`/usr/bin/time` sees only processes it waits for, so for the Spark job it reports the driver's
Python process, not the JVM that pyspark starts nor the tasks' children. This samples /proc every
100 ms: each process below the command (found by parent pid), its VmRSS, grouped by what it runs
(java: the Spark JVM; imwire: a shard, check or merge task's binary; python: the driver and
Spark's Python workers). Writes the peak of each group's sum, the peak of any one process of the
group, and the peak of the whole tree's sum, in MiB. Exits with the command's status.
"""
import json
import os
import subprocess
import sys
import time


def processes():
    """pid → (parent pid, command name, VmRSS in KiB) of every process now."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/status") as status:
                rss = next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
            with open(f"/proc/{entry}/comm") as comm:
                name = comm.read().strip()
        except (OSError, StopIteration, IndexError, ValueError):
            continue  # ended while read
        table[int(entry)] = (int(fields[1]), name, rss)
    return table


def group(name):
    if name == "java":
        return "java"
    if name.startswith("imwire"):
        return "imwire"
    if name.startswith("python"):
        return "python"
    return "other"


def main():
    out, command = sys.argv[1], sys.argv[2:]
    child = subprocess.Popen(command)
    peaks = {"tree": 0}
    while child.poll() is None:
        table = processes()
        below = {child.pid}
        grew = True
        while grew:  # the descendants of the command
            grew = False
            for pid, (parent, _, _) in table.items():
                if parent in below and pid not in below:
                    below.add(pid)
                    grew = True
        sums = {}
        for pid in below:
            if pid in table:
                _, name, rss = table[pid]
                kind = group(name)
                sums[kind] = sums.get(kind, 0) + rss
                peaks[kind + " largest"] = max(peaks.get(kind + " largest", 0), rss)
        for kind, total in sums.items():
            peaks[kind] = max(peaks.get(kind, 0), total)
        peaks["tree"] = max(peaks["tree"], sum(sums.values()))
        time.sleep(0.1)
    with open(out, "w") as file:
        json.dump({key: round(value / 1024, 1) for key, value in sorted(peaks.items())}, file)
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
