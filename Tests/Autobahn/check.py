#!/usr/bin/env python3
"""Checks an Autobahn|Testsuite fuzzingclient index.json: every case's behavior must be OK,
NON-STRICT or INFORMATIONAL and its behaviorClose OK or INFORMATIONAL. Prints the counts per
category and behaviour, lists every case that is not OK, and writes a compact summary
(case -> behavior, behaviorClose, remoteCloseCode; one case a line, no timings, so that
runs compare with git diff) to the path given with --summary."""
import argparse
import collections
import json
import sys

GOOD = {"OK", "NON-STRICT", "INFORMATIONAL"}
GOOD_CLOSE = {"OK", "INFORMATIONAL"}


def case_key(case):
    return [int(part) for part in case.split(".")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("index")
    parser.add_argument("--summary")
    args = parser.parse_args()
    with open(args.index) as f:
        index = json.load(f)
    failed = []
    counts = collections.Counter()
    per_category = collections.defaultdict(collections.Counter)
    summary = {}
    for agent, cases in index.items():
        for case in sorted(cases, key=case_key):
            result = cases[case]
            behavior, close = result["behavior"], result["behaviorClose"]
            counts[behavior] += 1
            per_category[case.split(".")[0]][behavior] += 1
            summary[case] = {"behavior": behavior, "behaviorClose": close, "remoteCloseCode": result.get("remoteCloseCode")}
            if behavior != "OK" or close != "OK":
                print(f"{agent} {case}: behavior {behavior}, behaviorClose {close}")
            if behavior not in GOOD or close not in GOOD_CLOSE:
                failed.append(case)
    for category in sorted(per_category, key=int):
        print(f"category {category}: " + ", ".join(f"{k} {v}" for k, v in sorted(per_category[category].items())))
    print(f"{sum(counts.values())} cases: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if args.summary:
        with open(args.summary, "w") as f:
            lines = [f"  {json.dumps(case)}: {json.dumps(value)}" for case, value in summary.items()]
            f.write("{\n" + ",\n".join(lines) + "\n}\n")
    if failed or not counts:
        print(f"FAILED: {len(failed)} cases: {' '.join(failed)}" if failed else "FAILED: no cases ran")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
