#!/usr/bin/env python3
"""`imwire check --format sarif` against the SARIF 2.1.0 schema, and its regions against the files.

For every capture in Fixtures/captures/ (and the real recordings in Fixtures/captures/real/):
- the SARIF log validates against the OASIS schema (Tests/CrossCheck/schemas/, jsonschema Draft 4);
- every result on a JSONL transcript has a region whose startLine is a line of the file, and that
  line belongs to the result's connection (its "conn") when the result names one;
- a result on a pcap or pcapng file has a region whose byteOffset/byteLength are exactly the bytes
  of the packet its logical location names, as this script's own reader of the file finds them
  and as tshark's frame.cap_len says.

Usage: python3 Tests/CrossCheck/sarif.py path/to/imwire
"""
import glob
import json
import os
import struct
import subprocess
import sys

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def packet_regions(path):
    """packet number (1-based) -> (offset of its first data byte, captured length), read here."""
    data = open(path, "rb").read()
    regions = {}
    if data[:4] == b"\x0a\x0d\x0d\x0a":
        offset, number, order = 0, 0, "<"
        while offset + 12 <= len(data):
            if data[offset:offset + 4] == b"\x0a\x0d\x0d\x0a":
                order = "<" if data[offset + 8:offset + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            block_type, length = struct.unpack(order + "II", data[offset:offset + 8])
            if block_type == 6:
                number += 1
                captured = struct.unpack(order + "I", data[offset + 20:offset + 24])[0]
                regions[number] = (offset + 28, captured)
            elif block_type == 3:
                number += 1
                regions[number] = (offset + 12, length - 16)
            offset += length
        return regions
    order = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    offset, number = 24, 0
    while offset + 16 <= len(data):
        captured = struct.unpack(order + "I", data[offset + 8:offset + 12])[0]
        number += 1
        regions[number] = (offset + 16, captured)
        offset += 16 + captured
    return regions


def tshark_lengths(path):
    out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "frame.number", "-e", "frame.cap_len"],
                         capture_output=True, text=True, check=True).stdout
    return {int(n): int(l) for n, l in (line.split("\t") for line in out.splitlines() if line)}


def main():
    imwire = sys.argv[1]
    schema = json.load(open(os.path.join(ROOT, "Tests/CrossCheck/schemas/sarif-schema-2.1.0.json")))
    validator = jsonschema.Draft4Validator(schema)
    captures = sorted(glob.glob(os.path.join(ROOT, "Fixtures/captures/*.*")) + glob.glob(os.path.join(ROOT, "Fixtures/captures/real/*.pcapng")))
    captures = [c for c in captures if c.endswith((".jsonl", ".pcapng", ".pcap", ".har"))]
    problems, results, regions_checked = [], 0, 0
    for capture in captures:
        name = os.path.relpath(capture, ROOT)
        run = subprocess.run([imwire, "check", capture, "--format", "sarif", "--severity", "info"], capture_output=True, text=True)
        if run.returncode > 1:
            problems.append(f"{name}: imwire exited {run.returncode}: {run.stderr.strip()}")
            continue
        log = json.loads(run.stdout)
        for error in validator.iter_errors(log):
            problems.append(f"{name}: schema: {'/'.join(map(str, error.absolute_path))}: {error.message[:200]}")
        lines = open(capture, encoding="utf-8", errors="replace").read().split("\n") if capture.endswith(".jsonl") else None
        packets = packet_regions(capture) if capture.endswith((".pcap", ".pcapng")) else None
        tshark = tshark_lengths(capture) if packets is not None else None
        for result in log["runs"][0]["results"]:
            results += 1
            location = result["locations"][0]
            region = location["physicalLocation"].get("region")
            logical = location["logicalLocations"][0]["fullyQualifiedName"]
            connection, _, frame = logical.rpartition("/frame ")
            if lines is not None:
                if region is None or "startLine" not in region:
                    # every finding names a line: an absence (a request never answered) the message
                    # it is about, the judge's the connection's login
                    problems.append(f"{name}: {result['ruleId']} on {logical} has no region")
                    continue
                regions_checked += 1
                line = region["startLine"]
                if not 1 <= line <= len(lines):
                    problems.append(f"{name}: {result['ruleId']}: startLine {line} is not a line of the file")
                    continue
                try:
                    conn = json.loads(lines[line - 1]).get("conn")
                except ValueError:
                    conn = None  # a line that is not JSON: CAPTURE.JSONL-BAD-LINE is about it
                if frame and connection and conn is not None and conn != connection:
                    problems.append(f"{name}: {result['ruleId']}: line {line} is connection {conn}, the result says {connection}")
            elif packets is not None and frame:
                if region is None:
                    problems.append(f"{name}: {result['ruleId']} on packet {frame} has no region")
                    continue
                regions_checked += 1
                expected = packets.get(int(frame))
                got = (region["byteOffset"], region["byteLength"])
                if expected != got:
                    problems.append(f"{name}: {result['ruleId']}: packet {frame} is bytes {expected}, region says {got}")
                elif tshark.get(int(frame)) != got[1]:
                    problems.append(f"{name}: packet {frame}: tshark says {tshark.get(int(frame))} bytes, region {got[1]}")
    for problem in problems:
        print("FAIL", problem)
    print(f"SARIF: {len(captures)} captures, {results} results valid against the SARIF 2.1.0 schema, {regions_checked} regions checked, {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
