#!/usr/bin/env python3
"""`imwire check` of real recordings of Autobahn|Testsuite's fuzzing client, case by case.

  recording.py IMWIRE [--server websockets|autobahn|imwire-echo]... [--keep DIR]

For each server (default: all three), runs `wstest -m fuzzingclient` (Tests/Autobahn/.venv, made
by run.sh) on the cases of the proxy table (1-7 and 10) straight at an echo server on 127.0.0.1,
with `dumpcap` recording the loopback, then checks the recording with `imwire check --format json`
and matches its connections to the cases by order, as proxy_table.py does (each connection's bytes
must be Autobahn's count of the case, less at most a close frame Autobahn sent after the server had
gone). The servers: Python `websockets` 17.4, which reads a frame whole before judging it;
Autobahn's own `wstest -m echoserver`, which fails a connection at the first bad byte, so the
client's frame is cut short on the wire (a reserved opcode sent a byte at a time, 4.2.5; text
that turns invalid mid-frame, 6.4.3); and `imwire-echo` (IMWireNIO). It fails unless every case
of every recording is judged as `imwire proxy` judged it live in front of `websockets`
(Tests/Autobahn/results/proxy.json, which Spec/autobahn-proxy.md shows): the same expectation,
and the same first error about the client's bytes. --keep DIR keeps the recordings there.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import proxy_table  # noqa: E402  (the cases, the echo server, how connections are matched to cases)


def record(imwire, server, keep):
    if not os.path.exists(proxy_table.WSTEST):
        raise SystemExit(f"{proxy_table.WSTEST} is missing: Tests/Autobahn/run.sh installs it")
    python = proxy_table.ensure_websockets()
    work = tempfile.mkdtemp(prefix="imwire-autobahn-recording-")
    port = proxy_table.free_port()
    capture = os.path.join(keep or work, f"fuzzingclient-{server}.pcapng")
    procs = []
    try:
        commands = {
            "websockets": [python, os.path.join(HERE, "websockets_echo.py"), str(port)],
            "autobahn": [proxy_table.WSTEST, "-m", "echoserver", "-w", f"ws://127.0.0.1:{port}"],
            "imwire-echo": [os.path.join(os.path.dirname(imwire), "imwire-echo"), str(port)],
        }
        echo = subprocess.Popen(commands[server], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(echo)
        # Before the recording starts: the probes that wait for the server are no case's connections.
        proxy_table.wait_for(port, echo, "websockets_echo.py")
        dumpcap = subprocess.Popen(["dumpcap", "-q", "-i", "lo", "-f", f"tcp port {port}", "-w", capture],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        procs.append(dumpcap)
        time.sleep(1.5)  # dumpcap's start (it says nothing with -q)
        if dumpcap.poll() is not None:
            raise SystemExit(f"dumpcap exited with {dumpcap.returncode}: {dumpcap.stderr.read()}")
        print(f"{server}: wstest recorded by dumpcap in {proxy_table.fuzz(work, port):.0f} s")
        time.sleep(1)
        dumpcap.send_signal(signal.SIGTERM)
        dumpcap.wait(timeout=30)
        report = os.path.join(work, "check-report.json")
        checked = subprocess.run([imwire, "check", capture, "--format", "json", "--severity", "info", "--output", report],
                                 capture_output=True, text=True)
        if checked.returncode not in (0, 1) or not os.path.exists(report):
            raise SystemExit(f"imwire check exited with {checked.returncode}: {checked.stderr[-800:]}")
        # No case's: a flow without a byte, a probe that waited for the server and ended before
        # the recording began (Twisted closes its side later). A segment still in flight when
        # the other side's RST came (the fuzzer sends a byte at a time) stays with its connection
        # (CAPTURE.TCP-AFTER-END), as tshark keeps it in its stream.
        with open(report) as f:
            checked_report = json.load(f)
        checked_report["connections"] = [c for c in checked_report["connections"] if c["bytes"]["captured"] > 0]
        with open(report, "w") as f:
            json.dump(checked_report, f)
        results = proxy_table.collect(work, report, live=False)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    shutil.rmtree(work)
    return results


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        raise SystemExit(__doc__)
    imwire, servers, keep = os.path.abspath(args.pop(0)), [], None
    while args:
        option = args.pop(0)
        if option == "--server" and args and args[0] in ("websockets", "autobahn", "imwire-echo"):
            servers.append(args.pop(0))
        elif option == "--keep" and args:
            keep = os.path.abspath(args.pop(0))
            os.makedirs(keep, exist_ok=True)
        else:
            raise SystemExit(__doc__)
    with open(proxy_table.RESULTS) as f:
        committed = json.load(f)
    failed = []
    for server in servers or ["websockets", "autobahn", "imwire-echo"]:
        results = record(imwire, server, keep)
        problems = proxy_table.differing(results, committed)
        if problems:
            failed.append(server)
            print(f"{server}: {len(problems)} of {len(results)} cases not judged as the proxy judged them: {', '.join(problems[:20])}")
            continue
        truncated = sorted((case for case, r in results.items() if any(c[0] == "WS.TRUNCATED-FRAME" for c in r["client"])),
                           key=proxy_table.case_key)
        print(f"{server}: {len(results)} cases judged as the proxy judged them live; client frames cut short in "
              f"{len(truncated)} ({', '.join(truncated[:12])}{'…' if len(truncated) > 12 else ''}), each still with its verdict")
    if failed:
        raise SystemExit(f"recordings judged wrong: {', '.join(failed)}")


if __name__ == "__main__":
    main()
