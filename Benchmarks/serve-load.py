#!/usr/bin/env python3
"""`imwire serve` under load, beside a peer measured in the same run: the LeanCloud mock server
the genuine SDK was recorded against (Tests/VendorSDKs/leancloud/server.py, Python websockets +
protobuf, scenario twouser), given the same clients.

1. Idle connections: CONNECTIONS clients (Python websockets, lc.protobuf2.3) each open a session
   (session/open -> session/opened) and stay; the server's resident memory (VmRSS) before and
   after gives the memory per idle logged-in connection (imwire's includes its live check).
2. Messages/s: alice sends MESSAGES direct messages to bob, WINDOW of them unacknowledged at a
   time; bob acknowledges each push; the rate is MESSAGES over the time from the first send to
   bob's last push, and the server's CPU time (user + system, /proc/PID/stat) per message. Both
   clients are Python, on the same two cores: the rate is bounded by them too, the CPU per
   message is the server's own.

Usage: Benchmarks/serve-load.py path/to/imwire [--connections 1000] [--messages 20000] [--window 100]
(use a release build: swift build -c release --product imwire). Runs in Tests/CrossCheck/.venv.
"""
import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CROSS = os.path.join(ROOT, "Tests", "CrossCheck")
VENV_PYTHON = os.path.join(CROSS, ".venv", "bin", "python")
if os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(CROSS, ".venv")):
    if not os.path.exists(VENV_PYTHON):
        sys.exit("make Tests/CrossCheck/.venv first (python3 Tests/CrossCheck/proxy.py does)")
    os.execv(VENV_PYTHON, [VENV_PYTHON, *sys.argv])
sys.path.insert(0, CROSS)
import leancloud_oracle as oracle  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User and system time of a process so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def command(obj):
    return oracle.encode(obj)


async def login(port, peer, i=1):
    ws = await connect(f"ws://127.0.0.1:{port}/", subprotocols=["lc.protobuf2.3"], compression=None, ping_interval=None,
                       max_size=2 ** 22, max_queue=None)
    await ws.send(command({"cmd": "session", "op": "open", "i": i, "peerId": peer, "appId": "app", "sessionMessage": {"ua": "load"}}))
    while True:
        reply = oracle.decode(await ws.recv())
        if reply.get("op") == "opened":
            return ws


async def idle(port, count):
    sockets = []
    for start in range(0, count, 50):
        sockets += await asyncio.gather(*(login(port, f"user{n}") for n in range(start, min(count, start + 50))))
    return sockets


async def throughput(port, messages, window):
    alice, bob = await login(port, "alice"), await login(port, "bob")
    await alice.send(command({"cmd": "conv", "op": "start", "i": 2, "peerId": "alice", "convMessage": {"m": ["bob"], "unique": True}}))
    cid = None
    while cid is None:
        reply = oracle.decode(await alice.recv())
        cid = reply.get("convMessage", {}).get("cid")
    received = 0
    done = asyncio.Event()

    async def receive():
        nonlocal received
        async for data in bob:
            push = oracle.decode(data)
            if push.get("cmd") == "direct":
                received += 1
                d = push["directMessage"]
                await bob.send(command({"cmd": "ack", "peerId": "bob", "ackMessage": {"cid": d["cid"], "mid": d["id"]}}))
                if received == messages:
                    done.set()
                    return

    credits = asyncio.Semaphore(window)

    async def acks():
        answered = 0
        async for data in alice:
            if oracle.decode(data).get("cmd") == "ack":
                credits.release()
                answered += 1
                if answered == messages:
                    return

    tasks = [asyncio.create_task(receive()), asyncio.create_task(acks())]
    msg = json.dumps({"_lctype": -1, "_lctext": "x" * 64})
    start = time.monotonic()
    for n in range(messages):
        await credits.acquire()
        await alice.send(command({"cmd": "direct", "i": 3 + n % 60000, "peerId": "alice", "directMessage": {"cid": cid, "msg": msg}}))
    await asyncio.wait_for(done.wait(), 600)
    elapsed = time.monotonic() - start
    for task in tasks:
        task.cancel()
    await alice.close()
    await bob.close()
    return elapsed


def measure(name, argv, port_of, args):
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = port_of(process)
    time.sleep(1.0)
    base = rss_kib(process.pid)

    async def run():
        sockets = await idle(port, args.connections)
        await asyncio.sleep(2)
        loaded = rss_kib(process.pid)
        for ws in sockets:
            await ws.close()
        await asyncio.sleep(1)
        cpu = cpu_seconds(process.pid)
        elapsed = await throughput(port, args.messages, args.window)
        return loaded, elapsed, cpu_seconds(process.pid) - cpu
    loaded, elapsed, cpu = asyncio.run(run())
    process.terminate()
    process.wait(timeout=60)
    per = (loaded - base) / args.connections
    rate = args.messages / elapsed
    cpu_per = cpu / args.messages * 1e6
    print(f"{name:24s} base {base / 1024:5.1f} MiB, {args.connections} idle sessions {loaded / 1024:5.1f} MiB "
          f"({per:4.1f} KiB each); {args.messages} messages in {elapsed:5.2f} s = {rate:5.0f} msg/s, "
          f"server CPU {cpu_per:5.0f} us/message", flush=True)
    return per, rate, cpu_per


def main():
    p = argparse.ArgumentParser()
    p.add_argument("imwire")
    p.add_argument("--connections", type=int, default=1000)
    p.add_argument("--messages", type=int, default=20000)
    p.add_argument("--window", type=int, default=100)
    args = p.parse_args()

    def imwire_port(process):
        line = process.stderr.readline()
        return int(re.search(r"on 127\.0\.0\.1:(\d+)", line).group(1))
    imwire = measure("imwire serve", [os.path.abspath(args.imwire), "serve", "--scenario", "clean", "--listen", "127.0.0.1:0",
                                      "--idle", "600", "--severity", "error"], imwire_port, args)

    with tempfile.TemporaryDirectory() as generated:
        subprocess.run(["protoc", f"--python_out={generated}", "-I", os.path.join(ROOT, "Spec", "leancloud"),
                        os.path.join(ROOT, "Spec", "leancloud", "messages2.proto")], check=True)
        os.environ["PYTHONPATH"] = generated
        port = 28880
        peer = measure("Python mock (server.py)", [sys.executable, os.path.join(ROOT, "Tests", "VendorSDKs", "leancloud", "server.py"),
                                                   "--port", str(port), "--scenario", "twouser"], lambda _: port, args)
    print(f"imwire / Python mock: memory per idle session {imwire[0] / peer[0]:.2f}x, messages/s {imwire[1] / peer[1]:.2f}x, "
          f"server CPU per message {imwire[2] / peer[2]:.2f}x")


if __name__ == "__main__":
    main()
