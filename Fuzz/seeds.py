#!/usr/bin/env python3
"""Copies seed inputs for a fuzz target from Fixtures/ into Corpus/<target>/seed-*.

Usage: Fuzz/seeds.py TARGET
"""
import glob
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def fixtures(encodings):
    for path in sorted(glob.glob(f"{ROOT}/Fixtures/leancloud/command/**/*.json", recursive=True)):
        fixture = json.load(open(path))
        if fixture.get("encoding") not in encodings:
            continue
        if "bytes_hex" in fixture:
            yield bytes.fromhex(fixture["bytes_hex"])
        else:
            variant = b"\x00\x04" if fixture["encoding"] == "json" else b""
            yield variant + fixture["text"].encode()


def captures():
    for path in sorted(glob.glob(f"{ROOT}/Fixtures/captures/*.jsonl")):
        yield open(path, "rb").read()


def lines():
    for capture in captures():
        yield from (line for line in capture.split(b"\n") if line)


SEEDS = {
    "LeanCloudBinary": lambda: fixtures({"protobuf"}),
    "LeanCloudDifferential": lambda: fixtures({"protobuf"}),
    "LeanCloudText": lambda: fixtures({"base64", "json"}),
    "Transcript": lines,
    "Checker": captures,
}


def main():
    target = sys.argv[1]
    out = os.path.join(HERE, "Corpus", target)
    os.makedirs(out, exist_ok=True)
    count = 0
    for data in SEEDS[target]():
        name = "seed-" + hashlib.sha1(data).hexdigest()
        with open(os.path.join(out, name), "wb") as fh:
            fh.write(data)
        count += 1
    print(f"{count} seeds in Corpus/{target}")


if __name__ == "__main__":
    main()
