#!/usr/bin/env python3
"""Soak (issue 37 item 6): `imwire proxy` and `imwire serve` at 1,000 messages/s each for
--minutes, side by side; their memory and open descriptors must stay flat after the warm-up.

- proxy: `imwire proxy` (started as Benchmarks/proxy-latency.py does: --format jsonl
  --severity error) in front of a Python `websockets` echo server (proxy-latency.py's `echo`,
  in a process of its own); one client sends 100-byte binary messages (an 8-byte sequence
  number and 92 random bytes) at --rate per second, at most --window unanswered, and matches
  every echo to its send (a wrong or lost echo fails the run).
- serve: `imwire serve --scenario leancloud/clean --severity error` (started as
  Benchmarks/serve-load.py does); alice and bob log in (lc.protobuf2.3, serve-load.py's
  `login`), alice starts a conversation with bob and sends `direct` messages of 64 characters
  at --rate per second, at most --window unacknowledged; the round trip is send -> alice's
  ack (matched by `i`); bob acknowledges every push, and the delivery (send -> bob's push) is
  counted and timed too.

Each client runs in a process of its own (multiprocessing, spawn), so neither waits for the
other or for the echo server. Sends are paced against the clock (message n is due at
start + n / rate; one that falls behind is sent as soon as the window allows, so the rate
catches up); round trips are timed from the moment a message was sent.

Every --interval seconds (10) the two imwire processes' VmRSS (/proc/PID/status), open
descriptors (the entries of /proc/PID/fd), threads and CPU time are sampled; every minute each
client reports what it sent and had answered, and the round trips' p50 and p99. After the
warm-up (--warmup minutes, default 5, or a quarter of --minutes if that is shorter) the
samples' first, min, max and last are reported; flat means (max - min) / min <= 5%. The
achieved rate after the warm-up is what was answered in the whole minutes after it, over their
time; the p50 and p99 after it are read from 10 us bins.

OUT_DIR gets samples.csv (one row per process per sample), minutes.csv (one row per client
per minute) and summary.json (the arguments, the checkout's HEAD, load averages, the figures,
the verdicts); a Markdown table of the figures is printed at the end. The HEAD printed is the
checkout's the script runs from: the binary's commit only if it was built from that checkout
as it is.

Exit status: 0 when everything ran to the end; 1 when an imwire process, the echo server or a
client died, a message went unanswered (or, for serve, was not delivered to bob), or a client's
achieved rate after the warm-up fell below
--min-fraction (0.9) of --rate. Not being flat is reported (and in summary.json), not an exit
status: this is a benchmark.

Usage: Benchmarks/soak.py OUT_DIR [--imwire .build/release/imwire] [--minutes 30] [--warmup 5]
       [--rate 1000] [--window 100] [--interval 10] [--min-fraction 0.9] [--only proxy|serve]
Runs in Tests/CrossCheck/.venv (made by Tests/CrossCheck/proxy.py).
"""
import argparse
import asyncio
import collections
import csv
import importlib.util
import json
import multiprocessing
import os
import queue as queues
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CROSS = os.path.join(ROOT, "Tests", "CrossCheck")
VENV_PYTHON = os.path.join(CROSS, ".venv", "bin", "python")
if os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(CROSS, ".venv")):
    if not os.path.exists(VENV_PYTHON):
        sys.exit("make Tests/CrossCheck/.venv first (python3 Tests/CrossCheck/proxy.py does)")
    os.execv(VENV_PYTHON, [VENV_PYTHON, *sys.argv])


def load(name, file):
    """A sibling benchmark as a module (their file names have dashes)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


proxy_latency = load("proxy_latency", "proxy-latency.py")  # start_proxy, stop_proxy, echo, percentile
serve_load = load("serve_load", "serve-load.py")  # login, start_server, stop_server, imwire_port, rss_kib, cpu_seconds
oracle = serve_load.oracle
from websockets.asyncio.client import connect  # noqa: E402
from websockets.asyncio.server import serve  # noqa: E402

BIN_US = 10  # the round-trip histograms' resolution, in microseconds


# ---- The clients (each in a process of its own) ------------------------------------------------

class Minutes:
    """Sends counted by the minute they were made in, answers and their round trips by the minute
    they came in (the ones after the end in the last minute); a minute is reported to the main
    process once it is over."""

    def __init__(self, kind, start, minutes, queue):
        self.kind, self.start, self.minutes, self.queue = kind, start, minutes, queue
        self.buckets = collections.defaultdict(lambda: {"sent": 0, "answered": 0, "rtts": [], "delivered": 0, "deliveries": [],
                                                        "errors": 0})
        self.reported = 0

    def bucket(self):
        return self.buckets[min(self.minutes - 1, max(0, int((time.monotonic() - self.start) // 60)))]

    def sent(self):
        self.bucket()["sent"] += 1

    def answered(self, seconds, ok=True):
        b = self.bucket()
        b["answered"] += 1
        b["errors"] += not ok
        b["rtts"].append(seconds * 1e6)

    def delivered(self, seconds):
        b = self.bucket()
        b["delivered"] += 1
        b["deliveries"].append(seconds * 1e6)

    def report(self, upto):
        """Every minute before `upto` not yet reported."""
        while self.reported < min(upto, self.minutes):
            m, b = self.reported, self.buckets.pop(self.reported, None) or self.buckets.default_factory()
            row = {"type": "minute", "kind": self.kind, "minute": m, "sent": b["sent"], "answered": b["answered"],
                   "rate": b["answered"] / 60, "errors": b["errors"],
                   "histogram": dict(collections.Counter(int(us // BIN_US) for us in b["rtts"])),
                   "delivery_histogram": dict(collections.Counter(int(us // BIN_US) for us in b["deliveries"]))}
            for name, values in (("rtt", b["rtts"]), ("delivery", b["deliveries"])):
                if values:
                    row[f"{name}_p50_us"] = proxy_latency.percentile(values, 0.5)
                    row[f"{name}_p99_us"] = proxy_latency.percentile(values, 0.99)
            if self.kind == "serve":
                row["delivered"] = b["delivered"]
            self.queue.put(row)
            self.reported += 1

    async def reporter(self):
        m = 1
        while m < self.minutes:
            await asyncio.sleep(max(0, self.start + 60 * m + 0.5 - time.monotonic()))
            self.report(m)
            m += 1


async def paced(send, rate, start, end, credits, meter):
    """send(n) for message n at start + n / rate until `end`, each after taking one of the window's
    credits (the answer gives it back). Returns how many were sent."""
    n = 0
    while True:
        due = start + n / rate
        if due >= end:
            return n
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        await credits.acquire()
        await send(n)
        meter.sent()
        n += 1


async def settle(pending, seconds=15):
    """Waits (up to `seconds`) until nothing sent is unanswered; returns how many still are."""
    deadline = time.monotonic() + seconds
    while pending and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return len(pending)


async def soak_proxy(port, args, start, end, meter):
    tail = os.urandom(92)
    pending = {}
    credits = asyncio.Semaphore(args["window"])
    async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
        for _ in range(200):  # warm-up, as proxy-latency.py
            await ws.send(bytes(8) + tail)
            await ws.recv()
        await asyncio.sleep(max(0, start - time.monotonic()))

        async def receive():
            async for message in ws:
                n = int.from_bytes(message[:8], "big")
                if n not in pending or message[8:] != tail:
                    raise RuntimeError(f"an echo that was not sent: #{n}, {len(message)} bytes")
                meter.answered(time.monotonic() - pending.pop(n))
                credits.release()

        async def send(n):
            pending[n] = time.monotonic()
            await ws.send(n.to_bytes(8, "big") + tail)

        receiver = asyncio.create_task(receive())
        sender = asyncio.create_task(paced(send, args["rate"], start, end, credits, meter))
        done, _ = await asyncio.wait([receiver, sender], return_when=asyncio.FIRST_COMPLETED)
        if receiver in done:
            sender.cancel()
            receiver.result()
            raise RuntimeError("the proxy closed the connection")
        sent = sender.result()
        lost = await settle(pending)
        receiver.cancel()
    return {"sent": sent, "unanswered": lost}


async def soak_serve(port, args, start, end, meter):
    alice, bob = await serve_load.login(port, "alice"), await serve_load.login(port, "bob")
    await alice.send(serve_load.command({"cmd": "conv", "op": "start", "i": 2, "peerId": "alice",
                                         "convMessage": {"m": ["bob"], "unique": True}}))
    cid = None
    while cid is None:
        cid = oracle.decode(await alice.recv()).get("convMessage", {}).get("cid")
    # Templates filled in per message (oracle.encode, through JSON, costs ~100 us a message).
    direct = oracle.from_canonical({"cmd": "direct", "peerId": "alice", "directMessage": {"cid": cid}})
    ack = oracle.from_canonical({"cmd": "ack", "ackMessage": {}})
    acks, deliveries = {}, {}  # i -> (n, sent), n -> sent
    credits = asyncio.Semaphore(args["window"])
    await asyncio.sleep(max(0, start - time.monotonic()))

    async def send(n):
        command = oracle.GenericCommand()
        command.CopyFrom(direct)
        command.i = 3 + n % 60000
        command.directMessage.msg = json.dumps({"_lctype": -1, "_lctext": f"{n:08d} " + "x" * 55})
        acks[command.i] = deliveries[n] = time.monotonic()
        await alice.send(command.SerializeToString())

    async def acknowledge(ws, peer, push):
        """Every message pushed is acknowledged (the scenario's own, from "imwire", too)."""
        command = oracle.GenericCommand()
        command.CopyFrom(ack)
        command.peerId = peer
        command.ackMessage.cid = push["directMessage"]["cid"]
        command.ackMessage.mid = push["directMessage"]["id"]
        await ws.send(command.SerializeToString())

    async def read_alice():
        async for data in alice:
            reply = oracle.decode(data)
            if reply.get("cmd") == "ack" and reply.get("i") in acks:
                meter.answered(time.monotonic() - acks.pop(reply["i"]), ok="code" not in reply.get("ackMessage", {}))
                credits.release()
            elif reply.get("cmd") == "direct":
                await acknowledge(alice, "alice", reply)

    async def read_bob():
        async for data in bob:
            push = oracle.decode(data)
            if push.get("cmd") == "direct":
                if push["directMessage"].get("fromPeerId") == "alice":
                    n = int(json.loads(push["directMessage"]["msg"])["_lctext"].split()[0])
                    meter.delivered(time.monotonic() - deliveries.pop(n))
                await acknowledge(bob, "bob", push)

    readers = [asyncio.create_task(read_alice()), asyncio.create_task(read_bob())]
    sender = asyncio.create_task(paced(send, args["rate"], start, end, credits, meter))
    done, _ = await asyncio.wait([sender, *readers], return_when=asyncio.FIRST_COMPLETED)
    if sender not in done:
        sender.cancel()
        for task in done:
            task.result()
        raise RuntimeError("the server closed a connection")
    sent = sender.result()
    lost = await settle(acks)
    undelivered = await settle(deliveries, 5)
    for task in readers:
        task.cancel()
    await alice.close()
    await bob.close()
    return {"sent": sent, "unanswered": lost, "undelivered": undelivered}


def run_client(kind, port, args, start, queue):
    """A client's process: the soak, its minutes reported as they end, then a `done` or an `error`."""
    end = start + args["minutes"] * 60
    meter = Minutes(kind, start, args["minutes"], queue)

    async def main():
        reporter = asyncio.create_task(meter.reporter())
        try:
            return await (soak_proxy if kind == "proxy" else soak_serve)(port, args, start, end, meter)
        finally:
            reporter.cancel()
    try:
        result = asyncio.run(main())
        meter.report(meter.minutes)
        queue.put({"type": "done", "kind": kind, **result})
    except BaseException as error:
        meter.report(meter.minutes)
        queue.put({"type": "error", "kind": kind, "error": f"{type(error).__name__}: {error}"})


def run_echo(port_queue):
    """The proxy's upstream: proxy-latency.py's echo server, in a process of its own."""
    async def main():
        async with serve(proxy_latency.echo, "127.0.0.1", 0, compression=None) as server:
            port_queue.put(server.sockets[0].getsockname()[1])
            await asyncio.Future()
    asyncio.run(main())


# ---- The main process: start, sample, judge ---------------------------------------------------

def threads(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


def sample(pid):
    return {"rss_kib": serve_load.rss_kib(pid), "fds": len(os.listdir(f"/proc/{pid}/fd")), "threads": threads(pid),
            "cpu_s": round(serve_load.cpu_seconds(pid), 2)}


def keep_stderr(process, lines):
    """Reads a process's standard error to the end (so it never blocks on a full pipe), keeping the lines."""
    def read():
        for line in process.stderr:
            lines.append(line.rstrip("\n"))
    threading.Thread(target=read, daemon=True).start()


def flatness(values):
    first, low, high, last = values[0], min(values), max(values), values[-1]
    spread = 100 * (high - low) / low if low else (0.0 if high == low else float("inf"))
    return {"first": first, "min": low, "max": high, "last": last, "spread_pct": round(spread, 2),
            "drift_pct": round(100 * (last - first) / first, 2) if first else None, "flat": spread <= 5}


def quantile(histogram, p):
    total = sum(histogram.values())
    seen = 0
    for key in sorted(histogram):
        seen += histogram[key]
        if seen > total * p:
            return (key + 0.5) * BIN_US
    return None


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        return None


def main():
    p = argparse.ArgumentParser(description="Soak imwire proxy and imwire serve at a steady message rate.")
    p.add_argument("out", help="directory for samples.csv, minutes.csv and summary.json")
    p.add_argument("--imwire", default=os.path.join(ROOT, ".build", "release", "imwire"))
    p.add_argument("--minutes", type=int, default=30)
    p.add_argument("--warmup", type=float, help="minutes left out of the figures (default 5, or a quarter of --minutes)")
    p.add_argument("--rate", type=float, default=1000, help="messages per second to each of proxy and serve")
    p.add_argument("--window", type=int, default=100, help="messages unanswered at most")
    p.add_argument("--interval", type=float, default=10, help="seconds between samples of RSS and descriptors")
    p.add_argument("--min-fraction", type=float, default=0.9, help="the achieved rate below which the run fails, as a fraction of --rate")
    p.add_argument("--only", choices=["proxy", "serve"])
    args = p.parse_args()
    warmup = args.warmup if args.warmup is not None else min(5, args.minutes / 4)
    if warmup >= args.minutes:
        p.error("--warmup must be shorter than --minutes")
    kinds = [args.only] if args.only else ["proxy", "serve"]
    imwire = os.path.abspath(args.imwire)
    os.makedirs(args.out, exist_ok=True)
    load_start, started = os.getloadavg(), time.strftime("%Y-%m-%d %H:%M:%S %Z")
    print(f"imwire: {imwire}; this checkout's HEAD {git_commit()}; {', '.join(kinds)} at {args.rate:.0f} messages/s each for "
          f"{args.minutes:g} min (warm-up {warmup:g} min), window {args.window}; load average {load_start[0]:.2f} "
          f"{load_start[1]:.2f} {load_start[2]:.2f}", flush=True)

    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    processes, stderr, ports, helpers = {}, {}, {}, []
    failures = []
    try:
        if "proxy" in kinds:
            port_queue = ctx.Queue()
            echo = ctx.Process(target=run_echo, args=(port_queue,), daemon=True)
            echo.start()
            helpers.append(("echo server", echo))
            processes["proxy"], ports["proxy"] = proxy_latency.start_proxy(port_queue.get(timeout=60), imwire=imwire)
            stderr["proxy"] = []
            keep_stderr(processes["proxy"], stderr["proxy"])
        if "serve" in kinds:
            argv = [imwire, "serve", "--scenario", "leancloud/clean", "--listen", "127.0.0.1:0", "--idle", "600", "--severity", "error"]
            processes["serve"], ports["serve"] = serve_load.start_server(argv, serve_load.imwire_port)
        client_args = {"rate": args.rate, "window": args.window, "minutes": args.minutes}
        start = time.monotonic() + 15  # the clients' imports (protoc for LeanCloud) and logins come first
        for kind in kinds:
            client = ctx.Process(target=run_client, args=(kind, ports[kind], client_args, start, results), daemon=True)
            client.start()
            helpers.append((f"{kind} client", client))
        end = start + args.minutes * 60
        samples, minutes, done = [], [], {}

        def read_results(timeout=0):
            """The clients' rows so far (waiting up to `timeout` for the first): minutes printed, results kept."""
            while True:
                try:
                    row = results.get(timeout=timeout) if timeout else results.get_nowait()
                except queues.Empty:
                    return
                timeout = 0
                if row["type"] == "minute":
                    minutes.append(row)
                    print(f"  {row['kind']:5s} minute {row['minute'] + 1:3d}: {row['rate']:6.0f} msg/s, round trip p50 "
                          f"{row.get('rtt_p50_us', 0):6.0f} us p99 {row.get('rtt_p99_us', 0):7.0f} us"
                          + (f", {row['errors']} errors" if row["errors"] else "")
                          + "".join(f"; {s['process']} RSS {s['rss_kib'] / 1024:.1f} MiB, {s['fds']} fds"
                                    for s in samples[-len(processes):]), flush=True)
                else:
                    done[row["kind"]] = row
                    if row["type"] == "error":
                        failures.append(f"the {row['kind']} client: {row['error']}")
        tick = 0
        while True:
            at = start + tick * args.interval
            if at > end + 1e-6:
                break
            time.sleep(max(0, at - time.monotonic()))
            t = round(time.monotonic() - start, 1)
            for kind, process in processes.items():
                if process.poll() is not None:
                    failures.append(f"imwire {kind} exited ({process.returncode}) at {t} s")
                    continue
                samples.append({"t_s": t, "process": kind, "pid": process.pid, **sample(process.pid)})
            read_results()
            for name, helper in helpers:
                if not helper.is_alive():
                    read_results(2)  # what a client said before it ended
                    if not (name.endswith("client") and name.split()[0] in done):
                        failures.append(f"the {name} died ({helper.exitcode}) at {t} s")
            if failures:
                break
            tick += 1
        # The clients' last minutes and results.
        deadline = time.monotonic() + 60
        while len(done) < len(kinds) and not failures and time.monotonic() < deadline:
            read_results(1)
        for kind in kinds:
            if kind not in done and not failures:
                failures.append(f"the {kind} client did not finish")
            elif done.get(kind, {}).get("unanswered"):
                failures.append(f"the {kind} client: {done[kind]['unanswered']} messages unanswered")
            elif done.get(kind, {}).get("undelivered"):
                failures.append(f"the serve client: {done[kind]['undelivered']} messages not delivered to bob")
    finally:
        exits = {}
        if "proxy" in processes:
            if processes["proxy"].poll() is None:
                proxy_latency.stop_proxy(processes["proxy"])
            exits["proxy"] = processes["proxy"].returncode
        if "serve" in processes:
            if processes["serve"].poll() is None:
                serve_load.stop_server(processes["serve"])
            exits["serve"] = processes["serve"].returncode
        for _, helper in helpers:
            if helper.is_alive():
                helper.terminate()
            helper.join(10)
    load_end = os.getloadavg()

    # ---- Figures
    summary = {"command": sys.argv, "imwire": imwire, "checkout_head": git_commit(), "started": started,
               "minutes": args.minutes, "warmup_minutes": warmup, "rate": args.rate, "window": args.window,
               "interval_s": args.interval, "loadavg_start": load_start, "loadavg_end": load_end, "exit_status": exits,
               "failures": failures, "clients": done, "processes": {}}
    table = []
    for kind in kinds:
        after = [s for s in samples if s["process"] == kind and s["t_s"] >= warmup * 60 - 1e-6]
        mine = sorted((m for m in minutes if m["kind"] == kind), key=lambda m: m["minute"])
        steady = [m for m in mine if m["minute"] >= warmup - 1e-6]
        histogram, delivery = collections.Counter(), collections.Counter()
        for m in steady:
            histogram.update(m["histogram"])
            delivery.update(m["delivery_histogram"])
        figures = {"samples_after_warmup": len(after), "minutes_after_warmup": len(steady)}
        if after:
            figures["rss_kib"] = flatness([s["rss_kib"] for s in after])
            figures["fds"] = flatness([s["fds"] for s in after])
            figures["threads"] = flatness([s["threads"] for s in after])
            span = after[-1]["t_s"] - after[0]["t_s"]
            figures["cpu_share_pct"] = round(100 * (after[-1]["cpu_s"] - after[0]["cpu_s"]) / span, 1) if span else None
        if steady:
            answered = sum(m["answered"] for m in steady)
            figures["rate"] = answered / (60 * len(steady))
            figures["rate_min_minute"] = min(m["rate"] for m in steady)
            figures["rtt_p50_us"] = quantile(histogram, 0.5)
            figures["rtt_p99_us"] = quantile(histogram, 0.99)
            figures["rtt_p99_us_worst_minute"] = max(m.get("rtt_p99_us", 0) for m in steady)
            figures["errors"] = sum(m["errors"] for m in steady)
            if kind == "serve":
                figures["delivered"] = sum(m["delivered"] for m in steady)
                figures["delivery_p50_us"] = quantile(delivery, 0.5)
                figures["delivery_p99_us"] = quantile(delivery, 0.99)
            if figures["rate"] < args.min_fraction * args.rate:
                failures.append(f"{kind}: achieved {figures['rate']:.0f} messages/s after the warm-up, "
                                f"below {args.min_fraction:g} x {args.rate:g}")
        elif not failures:
            failures.append(f"{kind}: no minute after the warm-up was reported")
        if kind in stderr:
            figures["stderr_lines"] = len(stderr[kind])
            figures["stderr_tail"] = stderr[kind][-20:]
        summary["processes"][kind] = figures
        if after and steady:
            for name, unit, scale in (("rss_kib", "MiB", 1024), ("fds", "", 1), ("threads", "", 1)):
                f = figures[name]
                fmt = (lambda v: f"{v / scale:.1f}") if scale != 1 else str
                table.append(f"| {kind} {name.split('_')[0].replace('rss', 'RSS')}{' (' + unit + ')' if unit else ''} | "
                             f"{fmt(f['first'])} | {fmt(f['min'])} | {fmt(f['max'])} | {fmt(f['last'])} | "
                             f"{f['spread_pct']:.1f}% | {'yes' if f['flat'] else '**no**'} |")
    print()
    print(f"after the warm-up ({warmup:g} of {args.minutes:g} min), samples every {args.interval:g} s:")
    print("| figure | first | min | max | last | spread | flat (≤ 5%) |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(table))
    for kind in kinds:
        f = summary["processes"][kind]
        if f.get("rtt_p50_us") is not None:
            print(f"{kind}: {f['rate']:.1f} messages/s answered after the warm-up (slowest minute {f['rate_min_minute']:.1f}); "
                  f"round trip p50 {f['rtt_p50_us']:.0f} us, p99 {f['rtt_p99_us']:.0f} us (worst minute's p99 "
                  f"{f['rtt_p99_us_worst_minute']:.0f} us); CPU {f.get('cpu_share_pct')}% of a core"
                  + (f"; delivered to bob {f['delivered']}, send -> push p50 {f['delivery_p50_us']:.0f} us, "
                     f"p99 {f['delivery_p99_us']:.0f} us" if kind == "serve" else "")
                  + (f"; {f['errors']} error answers" if f["errors"] else ""))
        if f.get("stderr_lines"):
            print(f"{kind}: {f['stderr_lines']} lines on standard error after the first, last: {f['stderr_tail'][-1][:200]}")
    print(f"load average at the start {load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f}, "
          f"at the end {load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f}; exit status of the imwire processes {exits}")

    with open(os.path.join(args.out, "samples.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, ["t_s", "process", "pid", "rss_kib", "fds", "threads", "cpu_s"])
        writer.writeheader()
        writer.writerows(samples)
    with open(os.path.join(args.out, "minutes.csv"), "w", newline="") as f:
        fields = ["process", "minute", "sent", "answered", "rate", "rtt_p50_us", "rtt_p99_us", "errors", "delivered",
                  "delivery_p50_us", "delivery_p99_us"]
        writer = csv.DictWriter(f, fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows({**{k: round(v) if k.endswith("_us") else v for k, v in m.items()}, "process": m["kind"],
                          "minute": m["minute"] + 1, "rate": round(m["rate"], 1)}
                         for m in sorted(minutes, key=lambda m: (m["kind"], m["minute"])))
    summary["failures"] = failures
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2, default=str)
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    flat = all(summary["processes"][k].get(n, {}).get("flat") for k in kinds for n in ("rss_kib", "fds"))
    print("memory and descriptors " + ("flat within 5%" if flat else "NOT flat within 5%") + f"; samples in {args.out}")


if __name__ == "__main__":
    main()
