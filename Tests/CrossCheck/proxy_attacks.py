#!/usr/bin/env python3
"""Attacks on `imwire proxy` beside a well-behaved client (issue 37): the proxy sits in front of a
Python `websockets` 17.4 echo server (permessage-deflate on, 1 MiB messages at most) on 127.0.0.1,
a good client times its echo round trips through it, and attackers in a process of their own
(whose wake-ups would otherwise delay the timed client) do, one attack at a time:

  bomb          20 connections, each 8 permessage-deflate messages of 16 MiB of zeros (16 KiB on
                the wire): the proxy's check inflates each only to its cap, the server closes 1009
  huge-length   50 connections, each a frame announcing 2^62 bytes, then 64 KiB of it
  never-reads   10 connections, each sends 4 MiB of messages for the server to echo and never reads
                a byte: backpressure through the proxy to the server, bounded buffers
  garbage       100 connections: bytes that are no HTTP, a valid upgrade then bytes that are no
                frames, and a reset in the middle of a frame
  slowloris     200 connections sending their CONNECT request a byte a second: each must be
                answered 408 and closed at the proxy's 10 s deadline (Spec/proxy.md §5)
  idle          2,000 connections opened and left silent for 3 s

For each: the proxy stays up, its resident memory (VmRSS, sampled every 50 ms) stays under
BOUND_MIB, and the good client's echo p99 during the attack stays within 2x its p99 through the
idle proxy measured just before that attack (5 ms at least: one scheduler tick on 2 cores); a
p99 over that is measured again, attack and all, once, before it counts. Prints each figure.

Usage: [ATTACKS="bomb idle"] [P99=report] Tests/CrossCheck/proxy_attacks.py [path/to/imwire]
(uses Tests/CrossCheck/.venv, as proxy.py does). P99=report prints the good client's p99 without
judging it; survival and memory are judged as ever.

`idle`, 2,000 connections in a burst, is within the bound with a release build (the good client's
p99 0.72, 0.55 and 0.53 ms against 0.72, 0.51 and 0.53 ms through the idle proxy, three runs on an
idle machine, 2026-11-29) but not with the debug build CI has (1.61-4.66 ms against 1.05-1.25 ms in
seven runs, 1.5-4.0x, 2026-11-29; 3.8-8.9 ms against 2.1-3.5 ms in ten runs, 2026-11-30). A profile
of that debug proxy during the burst (perf, 3,908 samples) is spread over NIO's own unoptimised
code: its debug-only checks 17%, connecting the upstreams 19%, generic metadata lookups; no frame
of IMWire's own stands out. So CI runs `idle` with P99=report: the proxy stays up and under its
bound with 2,000 connections open, and the p99 is printed beside the idle figure.
"""
import os
import re
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import serve as lc  # noqa: E402  (sets up Tests/CrossCheck/.venv as proxy.py does; its problem list)

# The proxy's own bounds (Spec/proxy.md): 256 KiB of write buffer per connection, 16 MiB waiting
# for the check; the checker's per message caps (1 MiB messages, inflated data capped). With the
# connections below open at once, its resident memory stays under this.
BOUND_MIB = 256

UPSTREAM = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    try:
        async for message in ws:
            await ws.send(message)
    except Exception:
        pass
async def main(port):
    async with serve(echo, "127.0.0.1", port, max_size=1 << 20, ping_interval=None) as server:
        print("ready", flush=True)
        await server.serve_forever()
asyncio.run(main(int(sys.argv[1])))
"""

ATTACKS = r"""
import os, socket, struct, sys, time, zlib
port, upstream, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def read_head(s):
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk: break
        answer += chunk
def tunnel():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"CONNECT 127.0.0.1:{upstream} HTTP/1.1\r\nHost: 127.0.0.1:{upstream}\r\n\r\n".encode())
    read_head(s)
    return s
HEAD = ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
def frame(opcode, payload, rsv1=False, length=None):
    n = len(payload) if length is None else length
    first = 0x80 | (0x40 if rsv1 else 0) | opcode
    if n < 126: head = bytes([first, 0x80 | n])
    elif n < 65536: head = bytes([first, 0xfe]) + struct.pack(">H", n)
    else: head = bytes([first, 0xff]) + struct.pack(">Q", n)
    return head + b"\0\0\0\0" + payload  # the key 0: the payload as it is
def opened(extensions=""):
    s = tunnel()
    s.sendall((HEAD + extensions + "\r\n").encode())
    read_head(s)
    return s
def close(s, reset=False):
    if reset: s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
sockets = []
try:
    if mode == "bomb":
        deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
        bomb = deflater.compress(b"\0" * (16 << 20)) + deflater.flush(zlib.Z_SYNC_FLUSH)
        bomb = bomb[:-4]  # RFC 7692: without the trailer 00 00 ff ff
        for _ in range(20):
            s = opened("Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; server_no_context_takeover\r\n")
            sockets.append(s)
            for _ in range(8):
                try: s.sendall(frame(2, bomb, rsv1=True))
                except OSError: break
    elif mode == "huge-length":
        for _ in range(50):
            s = opened()
            sockets.append(s)
            try:
                s.sendall(frame(2, b"", length=1 << 62)[:10] + b"\0\0\0\0")
                for _ in range(16): s.sendall(b"x" * 4096)
            except OSError: pass
    elif mode == "never-reads":
        for _ in range(10):
            s = opened()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sockets.append(s)
            s.settimeout(2)
            try:
                for _ in range(64): s.sendall(frame(2, os.urandom(64 << 10)))
            except OSError: pass  # the proxy stopped reading: backpressure reached this client
    elif mode == "garbage":
        for i in range(100):
            try:
                if i % 3 == 0:
                    s = tunnel()
                    s.sendall(os.urandom(2048))
                elif i % 3 == 1:
                    s = opened()
                    s.sendall(os.urandom(4096))
                else:
                    s = opened()
                    s.sendall(frame(1, b"a" * 1000)[:300])
                    close(s, reset=True)
                    continue
                sockets.append(s)
            except OSError: pass
    elif mode == "slowloris":
        request = f"CONNECT 127.0.0.1:{upstream} HTTP/1.1\r\nHost: 127.0.0.1:{upstream}\r\n\r\n".encode()
        for _ in range(200):
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        answers = {s: b"" for s in sockets}
        def read(s):  # what the proxy said, before a byte sent to a closed socket is answered RST
            try:
                while True:
                    chunk = s.recv(4096, socket.MSG_DONTWAIT)
                    if not chunk:  # closed
                        answers[s] = None if answers[s].startswith(b"HTTP/1.1 408 ") else b"closed without 408"
                        return
                    answers[s] += chunk
            except BlockingIOError: pass
            except OSError: answers[s] = b"reset"
        for second in range(14):  # a byte a second: the head would take a minute
            for s in sockets:
                if answers[s] is not None: read(s)
                if answers[s] is None or answers[s]: continue
                try: s.send(request[second:second + 1])
                except OSError: answers[s] = b"reset"
            time.sleep(1)
        for s in sockets:
            if answers[s] is not None: read(s)
        print(len(sockets), "cut", sum(1 for s in sockets if answers[s] is None))
        sockets = []
    elif mode == "idle":
        for _ in range(2000):
            try: sockets.append(tunnel())
            except OSError: break
    time.sleep(3)
finally:
    for s in sockets:
        try: close(s)
        except OSError: pass
if mode != "slowloris": print(len(sockets))
"""


def rss_mib(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def echo_server(imwire, nice=0):
    """An imwire-echo (IMWireNIO WebSocket echo; UPSTREAM=websockets: Python websockets) on a free
    port, once it listens; `nice`: its priority, below the proxy's for the attackers' server."""
    port = free_port()
    command = ([sys.executable, "-c", UPSTREAM, str(port)] if os.environ.get("UPSTREAM") == "websockets"
               else [os.path.join(os.path.dirname(imwire), "imwire-echo"), str(port)])
    process = subprocess.Popen(["nice", "-n", str(nice)] + command, stdout=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    return process, port


class GoodClient:
    """A WebSocket client through the proxy (an HTTP CONNECT to its own echo server), frames by
    hand: each round trip a masked text frame out, the server's frame back."""

    def __init__(self, proxy_port, upstream):
        self.sock = socket.create_connection(("127.0.0.1", proxy_port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(f"CONNECT 127.0.0.1:{upstream} HTTP/1.1\r\nHost: 127.0.0.1:{upstream}\r\n\r\n".encode())
        self.head()
        self.sock.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{upstream}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        if not self.head().startswith(b"HTTP/1.1 101"):
            raise RuntimeError("the echo server refused the upgrade")

    def head(self):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("closed in a head")
            data += chunk
        return data

    def exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise RuntimeError("closed in a frame")
            data += chunk
        return data

    def round_trip(self, text):
        payload = text.encode()
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
        header = self.exact(2)
        self.exact(header[1] & 0x7f)

    def p99(self, count=300):
        times = []
        for n in range(count):
            begun = time.perf_counter()
            self.round_trip(f"ping {n}")
            times.append(time.perf_counter() - begun)
            time.sleep(0.01)
        return sorted(times)[int(count * 0.99) - 1]


# Whether the good client's p99 is judged (the default) or only printed (P99=report).
JUDGES_P99 = os.environ.get("P99", "judge") != "report"
MODES = [mode for mode in os.environ.get("ATTACKS", "bomb huge-length never-reads garbage slowloris idle").split()]


def main():
    imwire = lc.IMWIRE
    good_upstream, good_port = echo_server(imwire)
    # The attackers and their server run below the proxy's priority: on two cores their own CPU (a
    # bomb compressed and inflated there) would otherwise be measured as the proxy's latency.
    attacked_upstream, attacked_port = echo_server(imwire, nice=19)
    proxy = subprocess.Popen([imwire, "proxy", "--listen", "127.0.0.1:0", "--explicit", "--severity", "error", "--max-connections", "4000"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proxy.stderr.readline()
    match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    if not match:
        for process in (good_upstream, attacked_upstream, proxy):
            process.kill()
        raise SystemExit(f"imwire proxy did not start: {line}")
    proxy_port = int(match.group(1))
    threading.Thread(target=proxy.stderr.read, daemon=True).start()  # findings on stderr: drained, not kept
    figures = []
    base = 0.0
    try:
        client = GoodClient(proxy_port, good_port)
        base = rss_mib(proxy.pid)
        def attacked(mode):
            # The idle figure just before each attack: the machine's own noise (a shared CI
            # runner's) changes over the minutes the attacks take.
            idle = client.p99()
            peak = [rss_mib(proxy.pid)]
            sampling = [True]

            def sample():
                while sampling[0]:
                    peak.append(rss_mib(proxy.pid))
                    time.sleep(0.05)
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            attack = subprocess.Popen(["nice", "-n", "19", sys.executable, "-c", ATTACKS, str(proxy_port), str(attacked_port), mode],
                                      stdout=subprocess.PIPE, text=True)
            time.sleep(0.5)
            loaded = client.p99()
            output, _ = attack.communicate(timeout=120)
            sampling[0] = False
            sampler.join()
            return idle, peak, loaded, output

        for mode in MODES:
            idle, peak, loaded, output = attacked(mode)
            if JUDGES_P99 and loaded > max(2 * idle, 0.005) and proxy.poll() is None:
                # One p99 over the bound is run again, attack and all, before it counts: on two
                # shared cores a burst from elsewhere has put a single run over it (5.44 ms against
                # 2.29 ms idle, never-reads, 2026-12-01; 1.5-2.7 ms in the six CI runs before).
                # A proxy that is slow under the attack is slow twice.
                print(f"     {mode}: p99 {loaded * 1000:.2f} ms against {idle * 1000:.2f} ms idle; attacked again", flush=True)
                time.sleep(1)
                first_peak = peak
                idle, peak, loaded, output = attacked(mode)
                peak = first_peak + peak  # the memory bound holds over both
            alive = proxy.poll() is None
            counts = output.split()
            if mode == "slowloris" and (len(counts) != 3 or counts[0] != counts[2]):
                lc.problem(f"slowloris: not every slow request was answered 408 and closed at the deadline: {output.strip()!r}")
            figures.append((mode, int(counts[0] if counts else 0), max(peak), loaded, idle, alive))
            if not alive:
                lc.problem(f"{mode}: imwire proxy exited with {proxy.returncode}")
                break
            if max(peak) > BOUND_MIB:
                lc.problem(f"{mode}: the proxy's resident memory reached {max(peak):.0f} MiB (bound {BOUND_MIB} MiB)")
            if JUDGES_P99 and loaded > max(2 * idle, 0.005):
                lc.problem(f"{mode}: the good client's p99 was {loaded * 1000:.2f} ms, {idle * 1000:.2f} ms through the idle proxy")
            time.sleep(1)
    except Exception as e:
        lc.problem(f"the good client: {e!r}")
    proxy.terminate()
    proxy.wait(timeout=30)
    for process in (good_upstream, attacked_upstream):
        process.kill()
    for mode, count, peak, loaded, idle, alive in figures:
        fast = loaded <= max(2 * idle, 0.005) or not JUDGES_P99
        print(f"{'ok  ' if alive and peak <= BOUND_MIB and fast else 'FAIL'} {mode}: {count} attacking "
              f"connections; proxy up: {alive}; its RSS {base:.0f} MiB idle, at most {peak:.0f} MiB; the good client's echo p99 "
              f"{loaded * 1000:.2f} ms (idle proxy: {idle * 1000:.2f} ms){'' if JUDGES_P99 else ', not judged'}", flush=True)
    print(f"{len(lc.PROBLEMS)} problems")
    sys.exit(1 if lc.PROBLEMS else 0)


if __name__ == "__main__":
    main()
