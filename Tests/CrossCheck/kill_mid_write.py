#!/usr/bin/env python3
"""Kills `imwire` with SIGKILL while it writes its outputs and checks that each output path holds
the old file or the whole new one, never a truncated one (issue 37, "nothing lost").

    python3 Tests/CrossCheck/kill_mid_write.py .build/debug/imwire [TRIALS]

The capture is a JSONL transcript of 2,000 LeanCloud connections made here, so that
`imwire check --format json -o` writes its report connection by connection for a while and
`imwire convert --to pcapng -o` has megabytes to write. Each trial puts an old file at the
output path, starts the command, kills it after a delay spread over the run (from before the
first write to after the last) and reads the path: it must be the old bytes, or a whole JSON
report / a pcapng whose last block is complete. A run left alone must leave no temporary file.
`-o -` must write the same bytes to standard output and no file. Needs only Python's standard
library.
"""
import json
import os
import random
import signal
import struct
import subprocess
import sys
import tempfile
import time

OLD = b"old output\n"


def transcript(path, connections=2000):
    with open(path, "w") as f:
        for n in range(connections):
            conn = f"c{n}"
            f.write(json.dumps({"type": "open", "conn": conn, "t": n, "subprotocol": "lc.json.3"}) + "\n")
            f.write(json.dumps({"conn": conn, "t": n + 0.1, "dir": "send",
                                "text": json.dumps({"cmd": "session", "op": "open", "i": 1, "appId": "a", "peerId": f"p{n}"})}) + "\n")
            f.write(json.dumps({"conn": conn, "t": n + 0.2, "dir": "receive", "text": '{"cmd":"session","op":"opened","i":1}'}) + "\n")
            f.write(json.dumps({"conn": conn, "t": n + 0.3, "dir": "send", "text": '{"cmd":"direct","i":2}'}) + "\n")
            f.write(json.dumps({"type": "close", "conn": conn, "t": n + 0.5}) + "\n")


def whole_json(data):
    try:
        report = json.loads(data)
    except ValueError:
        return False
    return isinstance(report, dict) and "connections" in report


def whole_pcapng(data):
    """Every block's length fields agree and the last block ends at the end of the file."""
    at = 0
    while at < len(data):
        if at + 12 > len(data):
            return False
        (length,) = struct.unpack_from("<I", data, at + 4)
        if length < 12 or at + length > len(data) or struct.unpack_from("<I", data, at + length - 4)[0] != length:
            return False
        at += length
    return at == len(data) and at > 0


def timed(command):
    start = time.monotonic()
    status = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    if status not in (0, 1):  # 1: the check found something, as it does here
        raise SystemExit(f"{command[1]} exited {status}")
    return time.monotonic() - start


def main():
    imwire = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/imwire")
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    random.seed(37)
    problems = []
    with tempfile.TemporaryDirectory() as work:
        capture = os.path.join(work, "many.jsonl")
        transcript(capture)
        commands = {
            "check": (lambda out: [imwire, "check", capture, "--format", "json", "--severity", "info", "-o", out], "report.json", whole_json),
            "convert": (lambda out: [imwire, "convert", capture, "--to", "pcapng", "-o", out], "capture.pcapng", whole_pcapng),
        }
        for name, (command, output, whole) in commands.items():
            out = os.path.join(work, output)
            # Left alone: the whole output, and no temporary file beside it.
            duration = timed(command(out))
            with open(out, "rb") as f:
                if not whole(f.read()):
                    problems.append(f"{name}: the output of a whole run is not whole")
            leftovers = [entry for entry in os.listdir(work) if ".imwire-" in entry]
            if leftovers:
                problems.append(f"{name}: a whole run left {leftovers}")
            # `-o -` is standard output (as `-` is standard input): the same bytes, no file named `-`.
            piped = subprocess.run(command("-"), cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            with open(out, "rb") as f:
                if piped.stdout != f.read():
                    problems.append(f"{name}: `-o -` wrote {len(piped.stdout)} bytes to standard output, not the file's")
            if os.path.exists(os.path.join(work, "-")):
                problems.append(f"{name}: `-o -` made a file named -")
            killed = {"old": 0, "new": 0}
            for trial in range(trials):
                with open(out, "wb") as f:
                    f.write(OLD)
                process = subprocess.Popen(command(out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(duration * (0.2 + 1.0 * trial / max(1, trials - 1)))
                process.send_signal(signal.SIGKILL)
                process.wait()
                with open(out, "rb") as f:
                    data = f.read()
                if data == OLD:
                    killed["old"] += 1
                elif whole(data):
                    killed["new"] += 1
                else:
                    problems.append(f"{name}: killed after {trial}, the output is neither the old file nor a whole one ({len(data)} bytes)")
                for entry in os.listdir(work):
                    if ".imwire-" in entry:
                        os.unlink(os.path.join(work, entry))  # what a killed run leaves: never the output path
            print(f"{name}: a run takes {duration:.2f} s; {trials} kills left the old file {killed['old']} times, the whole new one {killed['new']} times")
    for problem in problems:
        print("FAIL " + problem)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
