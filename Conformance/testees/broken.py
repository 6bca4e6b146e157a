#!/usr/bin/env python3
"""A deliberately broken testee for Tests/CrossCheck/conformance_runner.py.

Forwards every request to IMWire's own testee (`IMWIRE conformance testee`) and breaks the
answers of chosen cases: `--wrong CASE` (a wrong value), `--crash CASE` (exits), `--hang CASE`
(never answers), `--garbage CASE` (not a framed JSON message), `--wrong-id CASE` (another id).
`--record FILE` appends every request and the inner testee's response to FILE as JSON lines.
"""
import argparse
import json
import struct
import subprocess
import sys
import time


def read_message(stream):
    head = stream.read(4)
    if len(head) < 4:
        return None
    return stream.read(struct.unpack("<I", head)[0])


def write_message(body):
    sys.stdout.buffer.write(struct.pack("<I", len(body)) + body)
    sys.stdout.buffer.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("imwire")
    for flag in ("wrong", "crash", "hang", "garbage", "wrong-id"):
        parser.add_argument("--" + flag, action="append", default=[])
    parser.add_argument("--record")
    args = parser.parse_args()
    record = open(args.record, "a") if args.record else None
    inner = subprocess.Popen([args.imwire, "conformance", "testee"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    while (body := read_message(sys.stdin.buffer)) is not None:
        request = json.loads(body)
        case = request["case"]
        if case in args.crash:
            sys.exit(3)
        if case in args.hang:
            time.sleep(3600)
        if case in args.garbage:
            sys.stdout.buffer.write(b"\x05\x00\x00\x00hello")
            sys.stdout.buffer.flush()
            continue
        inner.stdin.write(struct.pack("<I", len(body)) + body)
        inner.stdin.flush()
        response = json.loads(read_message(inner.stdout))
        if record:
            record.write(json.dumps({"request": request, "response": response}) + "\n")
            record.flush()
        if case in args.wrong:
            response = {"id": response["id"], "result": "ok", "value": {"wrong": True}, "hex": "00"}
        if case in args.wrong_id:
            response["id"] += 1000
        write_message(json.dumps(response).encode())


if __name__ == "__main__":
    main()
