#!/usr/bin/env python3
"""What decrypting costs `imwire check`: the same LeanCloud traffic in plaintext and over TLS 1.3,
checked in one run, and tshark on the TLS capture with the same key log.

1. Records with dumpcap on lo, twice, one LeanCloud session (Python `websockets` 17.4 client and
   server, lc.protobuf2.3 without compression): `session/open`, then --mib MiB of `direct` commands
   of about --message-bytes each (1 KiB; LeanCloud allows 5 KB), sent without waiting, each acknowledged by the server
   (Python's ssl writes each WebSocket message as a TLS record of its own); once over ws://,
   once over wss:// (TLS 1.3, the suite OpenSSL picks; the client's key log from Python's
   `keylog_filename`). The commands are the same bytes both times.
2. Times `imwire check --jobs 1 --format json` on each capture (best of --runs), with
   `--tls-keylog` for the TLS one, and checks both reports read the same messages with the same
   number of findings (none); times `tshark -o tls.keylog_file:… -Y websocket` on the TLS capture (once), which
   decrypts and dissects the same WebSocket messages, and `tshark -Y websocket` on the plaintext.

Usage: Benchmarks/tls-check.py [path/to/imwire (release)] [--mib N] [--message-bytes N] [--runs N] [--keep DIR]
Needs Tests/CrossCheck/.venv (made by Tests/CrossCheck/proxy.py), dumpcap, tshark, openssl, protoc.
"""
import asyncio
import json
import os
import ssl
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(ROOT, "Tests", "CrossCheck", ".venv")
if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
    os.execv(os.path.join(VENV, "bin", "python"), [os.path.join(VENV, "bin", "python"), *sys.argv])

sys.path.insert(0, os.path.join(ROOT, "Tests", "CrossCheck"))
import leancloud_oracle as oracle  # noqa: E402
import tls_traffic  # noqa: E402  (the server certificate; before real_traffic, which takes the folder off sys.path)
import real_traffic  # noqa: E402  (dumpcap)
from websockets.asyncio.client import connect  # noqa: E402
from websockets.asyncio.server import serve  # noqa: E402

ARGS = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and not sys.argv[i - 1].startswith("--")]
IMWIRE = ARGS[0] if ARGS else os.path.join(ROOT, ".build", "release", "imwire")
MIB = int(sys.argv[sys.argv.index("--mib") + 1]) if "--mib" in sys.argv else 64
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
# --message-bytes N: the size of each direct command (Python's ssl writes one TLS record per message)
SIZE = int(sys.argv[sys.argv.index("--message-bytes") + 1]) if "--message-bytes" in sys.argv else 1024
# --keep DIR: record into DIR and leave the captures and the key log there (for a profiler)
KEEP = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None


def commands():
    text = json.dumps({"_lctype": -1, "_lctext": "x" * (SIZE - 64)})
    count = (MIB << 20) // SIZE
    return [oracle.encode({"cmd": "direct", "peerId": "alice", "i": 2 + n % 60000, "directMessage": {"cid": "C1", "msg": text}})
            for n in range(count)]


async def server(ws):
    async for data in ws:
        c = oracle.decode(data)
        if c.get("cmd") == "session":
            await ws.send(oracle.encode({"cmd": "session", "op": "opened", "peerId": "alice", "i": c["i"], "sessionMessage": {}}))
        elif c.get("cmd") == "direct":
            await ws.send(oracle.encode({"cmd": "ack", "peerId": "alice", "i": c["i"], "ackMessage": {"uid": "m", "t": "1700000000000"}}))


async def session(port, context, messages):
    uri = f"wss://localhost:{port}/" if context else f"ws://127.0.0.1:{port}/"
    async with connect(uri, subprotocols=["lc.protobuf2.3"], compression=None, ssl=context, max_queue=None) as ws:
        await ws.send(oracle.encode({"cmd": "session", "op": "open", "appId": "bench", "peerId": "alice", "i": 1,
                                     "sessionMessage": {"ua": "py/websockets"}}))
        await ws.recv()
        acks = 0

        async def read():
            nonlocal acks
            while acks < len(messages):
                await ws.recv()
                acks += 1
        reader = asyncio.create_task(read())
        for message in messages:
            await ws.send(message)
        await reader


def record(work, name, messages, server_context=None, client_context=None):
    path = os.path.join(work, f"{name}.pcapng")

    async def run():
        async with serve(server, "127.0.0.1", 0, subprotocols=["lc.protobuf2.3"], compression=None, ssl=server_context,
                         max_size=None) as s:
            port = s.sockets[0].getsockname()[1]
            with real_traffic.Capture(path, [port], sentinel=True):
                await session(port, client_context, messages)
    asyncio.run(run())
    return path


def timed(command, runs):
    best, out = None, None
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(command, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, out


def main():
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        work = KEEP or scratch
        cert, key, keylog = f"{work}/cert.pem", f"{work}/key.pem", f"{work}/keys.log"
        tls_traffic.make_certificate(work)
        server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_context.load_cert_chain(cert, key)
        client_context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        client_context.load_verify_locations(cert)
        client_context.keylog_filename = keylog
        messages = commands()
        plain = record(work, "plain", messages)
        secure = record(work, "tls", messages, server_context, client_context)
        size = {name: os.path.getsize(path) for name, path in (("plain", plain), ("tls", secure))}
        reports = {}
        seconds = {}
        for name, path, extra in (("plain", plain, []), ("tls", secure, ["--tls-keylog", keylog])):
            seconds[name], out = timed([IMWIRE, "check", path, "--jobs", "1", "--format", "json", *extra], RUNS)
            reports[name] = json.loads(out.stdout)
        tshark_seconds, out = timed(["tshark", "-r", secure, "-o", f"tls.keylog_file:{keylog}", "-Y", "websocket", "-T", "fields",
                                     "-e", "frame.number"], 1)
        tshark_frames = len(out.stdout.splitlines())
        tshark_plain, _ = timed(["tshark", "-r", plain, "-Y", "websocket", "-T", "fields", "-e", "frame.number"], 1)
    messages_read = {name: sum(c["messages"] for c in r["connections"]) for name, r in reports.items()}
    findings = {name: sum(len(c["findings"]) for c in r["connections"]) for name, r in reports.items()}
    suite = next((c.get("tls", {}).get("suite") for c in reports["tls"]["connections"] if c.get("tls")), None)
    print(f"imwire: {IMWIRE}; {len(messages)} commands of about {SIZE} bytes ({MIB} MiB) and their acks; TLS suite {suite}")
    for name in ("plain", "tls"):
        print(f"imwire check --jobs 1, {name}: {size[name] / (1 << 20):.1f} MiB capture, {messages_read[name]} messages, "
              f"{findings[name]} findings, best of {RUNS}: {seconds[name]:.2f} s ({size[name] / (1 << 20) / seconds[name]:.0f} MiB/s)")
    print(f"tshark -Y websocket with the key log: {tshark_seconds:.2f} s ({tshark_frames} frames with WebSocket messages); "
          f"on the plaintext capture: {tshark_plain:.2f} s")
    # The same messages: speed is the plaintext's bytes over each time.
    print(f"TLS / plaintext speed (same messages): {seconds['plain'] / seconds['tls']:.2f}x; "
          f"imwire / tshark on the TLS capture: {tshark_seconds / seconds['tls']:.1f}x faster")
    if messages_read["plain"] != messages_read["tls"] or findings["plain"] != findings["tls"]:
        print("PROBLEM: the two captures were not read alike")
        sys.exit(1)


main()
