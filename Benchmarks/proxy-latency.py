#!/usr/bin/env python3
"""What `imwire proxy` costs, measured against a direct connection in the same run.

1. Added latency: a Python `websockets` client sends 100-byte binary messages at 1,000 per
   second (one every millisecond, each waiting for its echo) to a `websockets` echo server,
   directly and through `imwire proxy`; p50 and p99 of the round trips, and their differences.
2. Throughput of one large WebSocket stream: 64 MiB in 256 KiB messages of JSON-like text,
   client to server, with permessage-deflate and without, directly and through the proxy.
3. With --tls, instead: the latency of (1) over TLS 1.3 too (the server's certificate from
   openssl, the client trusting an `imwire ca create` CA for the proxy's leaves), directly and
   through `imwire proxy --tls`, beside the plaintext pair, in one run: what terminating and
   re-opening TLS adds over the plaintext proxy.

The proxy checks everything it forwards (the WebSocket layer, inflating under permessage-deflate),
on its own thread; Python's `websockets` is both peers, so the direct figures are the ceiling.

Usage: Benchmarks/proxy-latency.py [path/to/imwire (release)] [--messages N] [--tls]
Needs Tests/CrossCheck/.venv (made by Tests/CrossCheck/proxy.py).
"""
import asyncio
import os
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV_PYTHON = os.path.join(ROOT, "Tests", "CrossCheck", ".venv", "bin", "python")
if os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(ROOT, "Tests", "CrossCheck", ".venv")):
    os.execv(VENV_PYTHON, [VENV_PYTHON, *sys.argv])

sys.path.insert(0, os.path.join(ROOT, "Tests", "CrossCheck"))
import tls_traffic  # noqa: E402  (the server certificate)
from websockets.asyncio.client import connect  # noqa: E402
from websockets.asyncio.server import serve  # noqa: E402

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
IMWIRE = ARGS[0] if ARGS else os.path.join(ROOT, ".build", "release", "imwire")
MESSAGES = int(sys.argv[sys.argv.index("--messages") + 1]) if "--messages" in sys.argv else 5000


def start_proxy(upstream, *extra, imwire=None):
    proc = subprocess.Popen([imwire or IMWIRE, "proxy", "--listen", "127.0.0.1:0", "--upstream", f"127.0.0.1:{upstream}",
                             "--format", "jsonl", "--severity", "error", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    return proc, int(line.split("listening on ")[1].split(",")[0].rsplit(":", 1)[1])


def stop_proxy(proc):
    proc.send_signal(signal.SIGINT)
    proc.wait(30)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def latency(port, context=None):
    payload = os.urandom(100)
    rtts = []
    uri = f"wss://localhost:{port}/" if context else f"ws://127.0.0.1:{port}/"
    async with connect(uri, compression=None, ssl=context) as ws:
        for _ in range(200):  # warm-up
            await ws.send(payload)
            await ws.recv()
        start = time.perf_counter()
        for n in range(MESSAGES):
            due = start + n / 1000
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            sent = time.perf_counter_ns()
            await ws.send(payload)
            await ws.recv()
            rtts.append((time.perf_counter_ns() - sent) / 1000)
    return rtts


STREAM_BYTES = 64 << 20
CHUNK = 256 << 10


def chunk_text(n):
    rows = ",".join('{"id":%d,"from":"user-%d","text":"message number %d for the conversation"}' % (i, i % 97, i)
                    for i in range(n * 1000, n * 1000 + 4000))
    return ("[" + rows + "]")[:CHUNK].ljust(CHUNK)


async def sink(ws):
    received = 0
    async for message in ws:
        received += len(message)
        if received >= STREAM_BYTES:
            await ws.send("done")


async def throughput(port, deflate):
    chunks = [chunk_text(n) for n in range(8)]
    async with connect(f"ws://127.0.0.1:{port}/", compression="deflate" if deflate else None, max_size=None) as ws:
        start = time.perf_counter()
        for n in range(STREAM_BYTES // CHUNK):
            await ws.send(chunks[n % 8])
        await ws.recv()
        return STREAM_BYTES / (time.perf_counter() - start) / (1 << 20)


async def tls_main():
    """Round trips over TLS directly and through `proxy --tls`, beside the plaintext pair."""
    print(f"imwire: {IMWIRE}; {MESSAGES} messages at 1,000/s; plaintext and TLS 1.3")
    with tempfile.TemporaryDirectory() as work:
        cert, key, ca = f"{work}/cert.pem", f"{work}/key.pem", f"{work}/ca"
        tls_traffic.make_certificate(work)
        subprocess.run([IMWIRE, "ca", "create", "--out", ca], check=True, capture_output=True)
        server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_context.load_cert_chain(cert, key)
        to_server, to_proxy = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT), ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        to_server.load_verify_locations(cert)
        to_proxy.load_verify_locations(f"{ca}/imwire-ca.pem")
        results = {}
        async with serve(echo, "127.0.0.1", 0, compression=None) as plain, \
                serve(echo, "127.0.0.1", 0, compression=None, ssl=server_context) as secure:
            plain_port, tls_port = plain.sockets[0].getsockname()[1], secure.sockets[0].getsockname()[1]
            proxy, proxied = start_proxy(plain_port)
            tls_proxy, tls_proxied = start_proxy(tls_port, "--tls", "--ca", ca, "--upstream-ca", cert)
            try:
                results["direct"] = await latency(plain_port)
                results["proxy"] = await latency(proxied)
                results["direct TLS"] = await latency(tls_port, to_server)
                results["proxy --tls"] = await latency(tls_proxied, to_proxy)
            finally:
                stop_proxy(proxy)
                stop_proxy(tls_proxy)
    p50 = {name: percentile(values, 0.5) for name, values in results.items()}
    for name, values in results.items():
        print(f"latency {name}: p50 {p50[name]:.0f} us, p99 {percentile(values, 0.99):.0f} us, mean {statistics.mean(values):.0f} us")
    print(f"added by the plaintext proxy: p50 {p50['proxy'] - p50['direct']:.0f} us; "
          f"added by proxy --tls: p50 {p50['proxy --tls'] - p50['direct TLS']:.0f} us; "
          f"proxy --tls over the plaintext proxy: p50 {p50['proxy --tls'] - p50['proxy']:.0f} us")


async def main():
    if "--tls" in sys.argv:
        return await tls_main()
    print(f"imwire: {IMWIRE}; {MESSAGES} messages at 1,000/s; {STREAM_BYTES >> 20} MiB stream")
    async with serve(echo, "127.0.0.1", 0, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        proxy, proxied = start_proxy(port)
        try:
            direct = await latency(port)
            through = await latency(proxied)
        finally:
            stop_proxy(proxy)
    for name, values in (("direct", direct), ("proxy", through)):
        print(f"latency {name}: p50 {percentile(values, 0.5):.0f} us, p99 {percentile(values, 0.99):.0f} us, "
              f"mean {statistics.mean(values):.0f} us")
    print(f"added: p50 {percentile(through, 0.5) - percentile(direct, 0.5):.0f} us, "
          f"p99 {percentile(through, 0.99) - percentile(direct, 0.99):.0f} us")
    for deflate in (False, True):
        async with serve(sink, "127.0.0.1", 0, compression="deflate" if deflate else None, max_size=None) as server:
            port = server.sockets[0].getsockname()[1]
            proxy, proxied = start_proxy(port)
            try:
                d = await throughput(port, deflate)
                p = await throughput(proxied, deflate)
            finally:
                stop_proxy(proxy)
        label = "with permessage-deflate" if deflate else "without deflate"
        print(f"throughput {label}: direct {d:.0f} MiB/s, proxy {p:.0f} MiB/s ({100 * p / d:.0f}% of direct)")


if __name__ == "__main__":
    asyncio.run(main())
