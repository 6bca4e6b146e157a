#!/usr/bin/env python3
"""`imwire proxy` between real peers on 127.0.0.1 (CI runs this).

Each scenario starts `imwire proxy --listen 127.0.0.1:0 --upstream ... --format jsonl --record
R.pcapng --report R.json --severity info --max-connections N`, and `dumpcap` on lo with a capture
filter on the proxy's port (the client<->proxy leg only; started and ready before any traffic,
stopped with SIGINT once it has written everything), runs real peers through it, and checks that:
  1. forwarding is byte-exact: a raw TCP client and server exchange megabytes of random bytes
     both ways, with a half-close, through the proxy, and each receives exactly what the other sent;
  2. the findings printed live (jsonl) equal the final report's and those of `imwire check` on the
     --record file, finding for finding (rule, severity, connection, frame, offset, message);
  3. `imwire check` of dumpcap's recording reports the same connections (dialect, subprotocol,
     extensions, messages, captured bytes, socket.io TCP connections) and findings as the live run
     and the --record file; only what other packets must change may differ (a finding's frame,
     line and time, and frame numbers in its message; the proxy's port for the upstream's in
     connection names; the message count of an undecoded connection, which counts TCP segments),
     and client bytes the kernel refused with a RST because the proxy had already closed that
     connection are left out (the proxy never read them); see Proxy.dumpcap_agrees;
  4. an injected defect is reported live: a LeanCloud session (Python `websockets` client and
     server, lc.protobuf2.3, permessage-deflate, commands built with Google's protobuf) clean and
     with protocol errors; paho-mqtt clients through the proxy to Debian's mosquitto over TCP
     (MQTT 3.1 and 3.1.1), clean and with a malformed SUBSCRIBE sent by a raw client, and over
     mosquitto's WebSocket listener (MQTT packets in binary WebSocket messages); a
     python-socketio 4.x client and server (engine.io 3: long-polling, then the upgrade to
     WebSocket) speaking JMessage, with a stray response injected by the server; NIM over
     socket.io 0.9: gevent-socketio 0.3.6 (Python 2.7) and socketIO-client 0.5.7.4, the session
     of Tests/CrossCheck/real_traffic.py (handshake GET, then WebSocket: clean, and with a response
     without request; xhr-polling with an unknown code); yun2win: paho-mqtt as the app over MQTT
     3.1.1 to mosquitto, a paho-mqtt push server acking its commands, clean and with an ack of
     return code 42 (Y2W.RETURN-CODE-UNKNOWN);
  5. an upstream that refuses gives the client a clean close (EOF, no reset) and a
     PROXY.UPSTREAM-UNREACHABLE finding; an upstream that resets its connection gives the client a
     reset, and the --record file a RST; a proxy stopped by SIGTERM with a connection open leaves a
     --record file that reads to its last byte.

Usage: Tests/CrossCheck/proxy.py [path/to/imwire]
Installs what it needs (mosquitto and tshark's dumpcap with scripts/ensure-packages.sh; websockets,
protobuf, paho-mqtt, python-socketio 4.6.1 with eventlet, socketIO-client 0.5.7.4 and virtualenv in
Tests/CrossCheck/.venv; gevent-socketio in real_traffic.py's Python 2.7 virtualenv
Tests/CrossCheck/.venv-real-py27, made from pyenv's Python 2.7.18).
"""
import asyncio
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv")
PIP_PACKAGES = ["websockets==17.4", "protobuf", "paho-mqtt==2.2.0", "python-socketio==4.6.1", "python-engineio==3.14.2", "six",
                "eventlet==0.35.2", "requests==2.31.0", "websocket-client==1.7.0", "socketIO-client==0.5.7.4",
                # virtualenv < 20.22 still makes Python 2.7 environments (real_traffic.ensure_py27)
                "virtualenv==20.21.1", "distlib==0.4.4", "filelock==3.32.7", "platformdirs==3.11.0",
                # SOCKS5 for paho-mqtt (tls_proxy.py)
                "PySocks==1.7.1"]


def ensure_environment():
    missing = {package for package, binary in (("mosquitto", "mosquitto"), ("tshark", "dumpcap"), ("tshark", "tshark"), ("tshark", "editcap"))
               if shutil.which(binary) is None and not os.path.exists("/usr/sbin/" + binary)}
    if missing:
        subprocess.run([os.path.join(ROOT, "scripts", "ensure-packages.sh"), *sorted(missing)], check=True)
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", *PIP_PACKAGES], check=True)
    os.execv(python, [python, *sys.argv])


ensure_environment()

sys.path.insert(0, HERE)
import leancloud_oracle as oracle  # noqa: E402
import paho.mqtt.client as paho  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.asyncio.server import serve  # noqa: E402
import real_traffic  # noqa: E402  (the socket.io 0.9 peers and dumpcap; it takes this folder off sys.path)

IMWIRE = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "imwire")
PROBLEMS = []
STATS = {}
CAPTURES = []  # every dumpcap started, stopped at the end should a scenario fail half-way


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def key(f):
    return (f["rule"], f["severity"], f["connection"] or "", f["frame"] or 0, f["offset"] if f["offset"] is not None else -1, f["message"])


def wire_key(f, named):
    """A finding as a recording of other packets must give it too: all but `frame`, `line` and `time`,
    and the frame numbers a message names (NIM's "SER 4 is still pending (frame 67)"); `named` maps
    the proxy's port to the upstream's in connection names."""
    def text(value):
        return re.sub(r"\bframe \d+", "frame N", named(value)) if value is not None else ""
    return (f["rule"], f["severity"], f["layer"] or "", f["dialect"] or "", named(f["connection"]) or "", f["direction"] or "",
            f["offset"] if f["offset"] is not None else -1, text(f["subject"]), text(f["message"]), f["closeCode"] or 0)


def refused_by_proxy(path, port):
    """The frames of `path` (tshark's numbers) that carry client data answered directly by a RST from
    the proxy's `port`, with no packet of the proxy's in between: data that reached a socket the
    proxy had closed. The RST is the kernel's; the proxy read none of it."""
    fields = subprocess.run(["tshark", "-r", path, "-Y", "tcp", "-T", "fields", "-e", "frame.number", "-e", "tcp.stream",
                             "-e", "tcp.srcport", "-e", "tcp.len", "-e", "tcp.flags.reset"],
                            capture_output=True, text=True, check=True).stdout
    refused, waiting = [], {}
    for line in fields.splitlines():
        frame, stream, source, length, reset = line.split("\t")
        if int(source) != port:
            if int(length) > 0:
                waiting[stream] = int(frame)
        elif reset in ("1", "True") and stream in waiting:
            refused.append(waiting.pop(stream))
        else:
            waiting.pop(stream, None)
    return refused


class Proxy:
    """`imwire proxy` in the background; `finish` waits for it to stop and reads what it printed."""

    def __init__(self, work, name, upstream_port, connections, extra=()):
        self.name = name
        self.record = os.path.join(work, f"{name}.pcapng")
        self.report = os.path.join(work, f"{name}.json")
        self.proc = subprocess.Popen(
            [IMWIRE, "proxy", "--listen", "127.0.0.1:0", "--upstream", f"127.0.0.1:{upstream_port}", "--format", "jsonl",
             "--severity", "info", "--record", self.record, "--report", self.report, "--max-connections", str(connections),
             "--duration", "60", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        if "listening on" not in line:
            raise SystemExit(f"{name}: imwire proxy did not start: {line}{self.proc.stderr.read()}")
        self.port = int(line.split("listening on ")[1].split(",")[0].rsplit(":", 1)[1])
        self.upstream_port = upstream_port
        # dumpcap records the client<->proxy leg only (the filter names the proxy's port), and is
        # ready before any traffic starts
        self.wire = os.path.join(work, f"{name}-dumpcap.pcapng")
        self.capture = real_traffic.Capture(self.wire, [self.port], sentinel=True).__enter__()
        CAPTURES.append(self.capture)

    def finish(self):
        try:
            out, err = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            PROBLEMS.append(f"{self.name}: imwire proxy did not stop by itself")
        try:
            self.capture.__exit__(None, None, None)
        except RuntimeError as e:
            PROBLEMS.append(f"{self.name}: {e}")
            self.capture = None
        lines = [json.loads(line) for line in out.splitlines() if line.strip()]
        live = [entry["finding"] for entry in lines if entry["type"] == "finding"]
        summary = [entry for entry in lines if entry["type"] == "summary"]
        if len(summary) != 1:
            PROBLEMS.append(f"{self.name}: no summary line; stderr: {err.strip()}")
        elif summary[0]["exitCode"] != self.proc.returncode:
            PROBLEMS.append(f"{self.name}: summary says exit {summary[0]['exitCode']}, the proxy exited {self.proc.returncode}")
        with open(self.report) as f:
            report = json.load(f)
        final = report["captureFindings"] + [f for c in report["connections"] for f in c["findings"]]
        if sorted(map(key, live)) != sorted(map(key, final)):
            PROBLEMS.append(f"{self.name}: live findings {sorted(map(key, live))} differ from the final report's {sorted(map(key, final))}")
        checked = subprocess.run([IMWIRE, "check", self.record, "--format", "json", "--severity", "info"], capture_output=True, text=True)
        if checked.returncode not in (0, 1):
            PROBLEMS.append(f"{self.name}: imwire check of the recording exited {checked.returncode}: {checked.stderr.strip()}")
            return live
        recorded = json.loads(checked.stdout)
        again = [f for c in recorded["connections"] for f in c["findings"]]
        proxy_only = [f for f in live if f["rule"] == "PROXY.UPSTREAM-UNREACHABLE"]
        if sorted(map(key, live)) != sorted(map(key, again + proxy_only)):
            PROBLEMS.append(f"{self.name}: live findings {sorted(map(key, live))} differ from imwire check of the recording {sorted(map(key, again))}")
        if checked.returncode != self.proc.returncode and not proxy_only:
            PROBLEMS.append(f"{self.name}: proxy exited {self.proc.returncode}, check of the recording {checked.returncode}")
        STATS[self.name] = (len(live), len(report["connections"]), sum(c["messages"] for c in report["connections"]))
        if self.capture is not None:
            self.dumpcap_agrees(live, report, recorded)
        return live

    def dumpcap_agrees(self, live, report, recorded):
        """`imwire check` of dumpcap's recording of the client<->proxy leg reports what the live run
        and the --record file do. The same traffic is cut into other packets there (the kernel's
        segments, with their ACKs, against the proxy's synthesised ones of at most 1400 bytes) and
        its server port is the proxy's, so a finding's `frame`, `time` and `line` (and a frame
        number its message names) differ and the proxy's listen port stands for the upstream's in
        connection names; an undecoded connection's message count (TCP segments) differs; a client
        the proxy closed because the upstream refused is a 0-byte connection only on the wire; and
        client data that reached a connection the proxy had closed (refused_by_proxy) is left out.
        Everything else must be equal: per connection its dialect, subprotocol, extensions, message
        count, captured bytes, socket.io TCP connections, and its findings (rule, severity, layer,
        dialect, direction, offset, subject, message, close code); and the exit code."""
        ours, theirs = f"127.0.0.1:{self.port}", f"127.0.0.1:{self.upstream_port}"

        def named(text):
            return text.replace(ours, theirs) if isinstance(text, str) else text

        def essence(rep, unjoined=0):
            connections = []
            for c in rep["connections"]:
                if unjoined and c["bytes"]["captured"] == 0 and not c["findings"]:
                    unjoined -= 1  # a client the proxy closed when the upstream refused: no connection to it
                    continue
                # an undecoded connection counts its TCP segments as messages: the kernel's (up to 64 KiB
                # on lo) there, the proxy's (at most 1400 bytes) in the live run and the --record file
                messages = c["messages"] if c["dialect"] or c.get("subprotocol") else None
                connections.append((named(c["id"]), c["dialect"], c.get("subprotocol"), c.get("extensions"), messages,
                                    c["bytes"]["captured"], [named(t) for t in c.get("tcp") or []],
                                    sorted(wire_key(f, named) for f in c["findings"])))
            return connections, sorted(wire_key(f, named) for f in rep["captureFindings"])

        proxy_only = {"PROXY.UPSTREAM-UNREACHABLE"}
        unreachable = len([f for f in report["captureFindings"] if f["rule"] in proxy_only])
        live_report = dict(report, captureFindings=[f for f in report["captureFindings"] if f["rule"] not in proxy_only])

        def compare(path):
            checked = subprocess.run([IMWIRE, "check", path, "--format", "json", "--severity", "info"], capture_output=True, text=True)
            if checked.returncode not in (0, 1):
                return checked, None, [f"imwire check of dumpcap's recording exited {checked.returncode}: {checked.stderr.strip()}"]
            wire = json.loads(checked.stdout)
            differences = []
            for what, other in (("the live run", live_report), ("imwire check of the --record file", recorded)):
                mine, yours = essence(wire, unreachable), essence(other)
                if mine != yours:
                    only_mine = [c for c in mine[0] if c not in yours[0]] + [f for f in mine[1] if f not in yours[1]]
                    only_yours = [c for c in yours[0] if c not in mine[0]] + [f for f in yours[1] if f not in mine[1]]
                    differences.append(f"imwire check of dumpcap's recording differs from {what}: "
                                       f"only in dumpcap's {only_mine}; only in {what} {only_yours}")
            return checked, wire, differences

        checked, wire, differences = compare(self.wire)
        refused = refused_by_proxy(self.wire, self.port) if differences else []
        if refused:
            # bytes that reached the proxy's port after it had closed that connection (it closes a
            # client when the upstream resets): the kernel answered them with a RST, the proxy never
            # read them. They are on the wire, not in what the proxy checked: leave them out.
            read = self.wire.replace(".pcapng", "-read.pcapng")
            subprocess.run(["editcap", self.wire, read, *map(str, refused)], check=True)
            STATS[self.name + " dumpcap frames refused by the proxy's closed socket"] = len(refused)
            checked, wire, differences = compare(read)
        PROBLEMS.extend(f"{self.name}: {d}" for d in differences)
        if wire is None:
            return
        if checked.returncode != self.proc.returncode and not [f for f in live if f["rule"] in proxy_only]:
            PROBLEMS.append(f"{self.name}: proxy exited {self.proc.returncode}, check of dumpcap's recording {checked.returncode}")
        counts = re.search(r"Packets captured: (\d+).*received/dropped on interface '.*?': (\d+)/(\d+) ", self.capture.stats, re.S)
        if counts is None or counts.group(3) != "0":
            PROBLEMS.append(f"{self.name}: dumpcap dropped packets, or said nothing of it: {self.capture.stats}")
        packets = int(counts.group(1)) if counts else 0
        STATS[self.name + " dumpcap"] = (len([f for c in wire["connections"] for f in c["findings"]]), packets)


# -- 1. byte-exact forwarding -------------------------------------------------------------

def raw_forwarding(work):
    up = socket.socket()
    up.bind(("127.0.0.1", 0))
    up.listen(4)
    up_port = up.getsockname()[1]
    to_server = os.urandom(3 << 20)
    to_client = os.urandom(2 << 20)
    got = {}

    def serve_one():
        conn, _ = up.accept()
        data = bytearray()
        while chunk := conn.recv(65536):
            data += chunk
        got["server"] = bytes(data)
        # answer after the client's half-close: the proxy must keep the other direction open
        for i in range(0, len(to_client), 50_000):
            conn.sendall(to_client[i:i + 50_000])
        conn.close()

    thread = threading.Thread(target=serve_one)
    thread.start()
    proxy = Proxy(work, "raw", up_port, 1)
    client = socket.create_connection(("127.0.0.1", proxy.port))
    for i in range(0, len(to_server), 70_000):
        client.sendall(to_server[i:i + 70_000])
    client.shutdown(socket.SHUT_WR)
    received = bytearray()
    while chunk := client.recv(65536):
        received += chunk
    client.close()
    thread.join(30)
    up.close()
    proxy.finish()
    if got.get("server") != to_server:
        PROBLEMS.append(f"raw: the server received {len(got.get('server', b''))} bytes, not the {len(to_server)} sent (or others)")
    if bytes(received) != to_client:
        PROBLEMS.append(f"raw: the client received {len(received)} bytes, not the {len(to_client)} sent (or others)")
    STATS["raw bytes"] = len(to_server) + len(to_client)


def reset_forwarding(work):
    """A server that resets its connection (SO_LINGER 0) after reading the client's bytes: the
    client gets a reset through the proxy too (ConnectionResetError, not an EOF), and the --record
    file and dumpcap's recording of the client leg both carry a RST."""
    import struct
    up = socket.socket()
    up.bind(("127.0.0.1", 0))
    up.listen(1)
    up_port = up.getsockname()[1]

    def serve_one():
        conn, _ = up.accept()
        conn.recv(65536)
        conn.sendall(b"reply before the reset")
        time.sleep(0.3)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    thread = threading.Thread(target=serve_one)
    thread.start()
    proxy = Proxy(work, "reset", up_port, 1)
    client = socket.create_connection(("127.0.0.1", proxy.port))
    client.sendall(b"hello")
    received, outcome = b"", "EOF"
    client.settimeout(10)
    try:
        while chunk := client.recv(65536):
            received += chunk
    except ConnectionResetError:
        outcome = "reset"
    client.close()
    thread.join(10)
    up.close()
    proxy.finish()
    if outcome != "reset" or received != b"reply before the reset":
        PROBLEMS.append(f"reset: the client got {received!r} and then {outcome}, expected the reply and then a reset")

    def resets(path, port):
        fields = subprocess.run(["tshark", "-r", path, "-Y", "tcp.flags.reset == 1", "-T", "fields", "-e", "tcp.srcport"],
                                capture_output=True, text=True, check=True).stdout.split()
        return [int(p) for p in fields if int(p) == port]
    if not resets(proxy.record, up_port):
        PROBLEMS.append("reset: the --record file has no RST from the server")
    if not resets(proxy.wire, proxy.port):
        PROBLEMS.append("reset: dumpcap saw no RST from the proxy to the client")
    STATS["reset"] = outcome


def sigterm_record(work):
    """SIGTERM while a connection is open and 2 MiB have crossed it: the proxy stops, and its
    --record file reads to the last byte (imwire check counts every byte each way)."""
    import signal
    up = socket.socket()
    up.bind(("127.0.0.1", 0))
    up.listen(1)
    up_port = up.getsockname()[1]
    payload = os.urandom(1 << 20)
    done = threading.Event()

    def echo():
        conn, _ = up.accept()
        got = 0
        while got < len(payload):
            chunk = conn.recv(65536)
            if not chunk:
                break
            got += len(chunk)
            conn.sendall(chunk)
        done.wait(20)
        conn.close()

    thread = threading.Thread(target=echo)
    thread.start()
    record = os.path.join(work, "sigterm.pcapng")
    proc = subprocess.Popen([IMWIRE, "proxy", "--listen", "127.0.0.1:0", "--upstream", f"127.0.0.1:{up_port}", "--record", record,
                             "--duration", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    port = int(line.split("listening on ")[1].split(",")[0].rsplit(":", 1)[1])
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall(payload)
    echoed = 0
    while echoed < len(payload):
        echoed += len(client.recv(65536))
    proc.send_signal(signal.SIGTERM)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        PROBLEMS.append("sigterm: imwire proxy did not stop within 30 s of SIGTERM")
    done.set()
    client.close()
    thread.join(10)
    up.close()
    checked = subprocess.run([IMWIRE, "check", record, "--format", "json"], capture_output=True, text=True)
    if checked.returncode not in (0, 1):
        return PROBLEMS.append(f"sigterm: imwire check of the --record file exited {checked.returncode}: {checked.stderr.strip()}")
    captured = sum(c["bytes"]["captured"] for c in json.loads(checked.stdout)["connections"])
    if captured != 2 * len(payload):
        PROBLEMS.append(f"sigterm: the --record file holds {captured} bytes, not the {2 * len(payload)} that crossed the proxy")
    STATS["sigterm record bytes"] = captured


# -- 2. LeanCloud over WebSocket with permessage-deflate ----------------------------------

def text(s):
    return json.dumps({"_lctype": -1, "_lctext": s}, separators=(",", ":"))


async def lc_server(ws):
    opened = False
    async for data in ws:
        c = oracle.decode(data)
        cmd, op, i = c.get("cmd"), c.get("op"), c.get("i")
        peer = c.get("peerId", "alice")
        if cmd == "session" and op == "open":
            opened = True
            await ws.send(oracle.encode({"cmd": "session", "op": "opened", "peerId": peer, "i": i, "serverTs": "1700000000000",
                                         "sessionMessage": {"st": "TOKEN", "stTtl": 172800}}))
        elif not opened:
            await ws.send(oracle.encode({"cmd": "error", "i": i, "errorMessage": {"code": 4105, "reason": "SESSION_REQUIRED"}}))
        elif cmd == "conv" and op == "start":
            wrong = c["convMessage"].get("m", [None])[-1] == "mallory"
            await ws.send(oracle.encode({"cmd": "conv", "op": "started", "peerId": peer, "i": i + 30 if wrong else i,
                                         "convMessage": {"cid": "C1", "cdate": "2023-11-14T22:13:20.000Z"}}))
        elif cmd == "direct":
            await ws.send(oracle.encode({"cmd": "ack", "peerId": peer, "i": i, "ackMessage": {"uid": "msg-2", "t": "1700000000200"}}))
        elif cmd == "session" and op == "close":
            await ws.send(oracle.encode({"cmd": "session", "op": "closed", "peerId": peer, "i": i}))


async def lc_client(port, errors):
    async with connect(f"ws://127.0.0.1:{port}/", subprotocols=["lc.protobuf2.3"], compression="deflate") as ws:
        async def request(command):
            await ws.send(oracle.encode(command))
            return oracle.decode(await ws.recv())
        if errors:  # a command before session/open (the server answers 4105)
            await request({"cmd": "direct", "peerId": "alice", "i": 1, "directMessage": {"cid": "C1", "msg": text("early")}})
        await request({"cmd": "session", "op": "open", "appId": "FreeChatDemo01", "peerId": "alice", "i": 2,
                       "sessionMessage": {"ua": "py/websockets", "configBitmap": "187"}})
        members = ["alice", "bob"] + (["mallory"] if errors else [])  # the server answers with the wrong i
        await request({"cmd": "conv", "op": "start", "peerId": "alice", "i": 3, "convMessage": {"m": members}})
        for n in range(20):
            await request({"cmd": "direct", "peerId": "alice", "i": 4 + n, "directMessage": {"cid": "C1", "msg": text(f"hello {n} " * 40)}})
        await request({"cmd": "session", "op": "close", "peerId": "alice", "i": 30, "sessionMessage": {}})


def leancloud(work, errors):
    name = "leancloud-errors" if errors else "leancloud"
    up_port = free_port()

    async def session():
        async with serve(lc_server, "127.0.0.1", up_port, subprotocols=["lc.protobuf2.3"], compression="deflate"):
            proxy = Proxy(work, name, up_port, 1)
            await lc_client(proxy.port, errors)
            return proxy

    proxy = asyncio.run(session())
    live = proxy.finish()
    rules = sorted(f["rule"] for f in live if f["severity"] != "info")
    expected = sorted(["LC.BEFORE-SESSION-OPEN", "LC.ERROR-REPLY", "LC.RESPONSE-WITHOUT-REQUEST"]) if errors else []
    missing = [r for r in expected if r not in rules]
    if missing or (not errors and rules):
        PROBLEMS.append(f"{name}: live findings {rules}, expected {expected}")
    if not any(f["rule"] for f in live) and errors:
        PROBLEMS.append(f"{name}: nothing reported live")


# -- 3. MQTT: paho-mqtt through the proxy to mosquitto ------------------------------------

def run_mosquitto(work, name, config, ports):
    """Debian's mosquitto with `config` (written to WORK/NAME.conf), once every port of `ports` accepts."""
    conf = os.path.join(work, f"{name}.conf")
    with open(conf, "w") as f:
        f.write(config)
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([binary, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            for port in ports:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"mosquitto ({name}) did not start")


def start_broker(work):
    port, ws_port = free_port(), free_port()
    proc = run_mosquitto(work, "mosquitto", f"listener {port} 127.0.0.1\nlistener {ws_port} 127.0.0.1\nprotocol websockets\n"
                         "allow_anonymous true\npersistence false\nlog_type none\n", [port, ws_port])
    return proc, port, ws_port


def paho_session(port, protocol, client_id, transport="tcp"):
    got = []
    done = threading.Event()
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol, transport=transport)
    if transport == "websockets":
        client.ws_set_options(path="/", headers={"Sec-Websocket-Protocol": "mqtt"})

    def on_message(c, userdata, message):
        got.append(message.payload)
        if len(got) == 5:
            done.set()

    client.on_message = on_message
    client.connect("127.0.0.1", port, keepalive=30)
    client.loop_start()
    client.subscribe("t/" + client_id, qos=1)
    time.sleep(0.2)
    for n in range(5):
        client.publish("t/" + client_id, f"payload {n}".encode(), qos=1).wait_for_publish(5)
    done.wait(5)
    client.disconnect()
    client.loop_stop()
    return got


def raw_bad_subscribe(port):
    """CONNECT, then a SUBSCRIBE whose fixed-header flags are 0000 instead of 0010 (MQTT-3.8.1-1)."""
    s = socket.create_connection(("127.0.0.1", port))
    client_id = b"raw-bad"
    body = b"\x00\x04MQTT\x04\x02\x00\x1e" + len(client_id).to_bytes(2, "big") + client_id
    s.sendall(bytes([0x10, len(body)]) + body)
    s.recv(4)  # CONNACK
    topic = b"a/b"
    sub = b"\x00\x01" + len(topic).to_bytes(2, "big") + topic + b"\x00"
    s.sendall(bytes([0x80, len(sub)]) + sub)
    s.settimeout(5)
    try:
        while s.recv(1024):
            pass
    except OSError:
        pass
    s.close()


def mqtt(work):
    broker, up_port, ws_port = start_broker(work)
    try:
        proxy = Proxy(work, "mqtt", up_port, 3)
        for protocol, client_id in [(paho.MQTTv311, "c311"), (paho.MQTTv31, "c31")]:
            got = paho_session(proxy.port, protocol, client_id)
            if len(got) != 5:
                PROBLEMS.append(f"mqtt: {client_id} received {len(got)} of its 5 messages through the proxy")
        raw_bad_subscribe(proxy.port)
        live = proxy.finish()
        rules = sorted({f["rule"] for f in live if f["rule"].startswith("MQTT.")})
        if "MQTT.FIXED-HEADER-FLAGS" not in rules:
            PROBLEMS.append(f"mqtt: the malformed SUBSCRIBE was not reported live (MQTT findings: {rules})")
        # MQTT over mosquitto's WebSocket listener: packets in binary WebSocket messages
        proxy = Proxy(work, "mqtt-ws", ws_port, 2)
        for protocol, client_id in [(paho.MQTTv311, "w311"), (paho.MQTTv31, "w31")]:
            got = paho_session(proxy.port, protocol, client_id, transport="websockets")
            if len(got) != 5:
                PROBLEMS.append(f"mqtt-ws: {client_id} received {len(got)} of its 5 messages through the proxy")
        live = proxy.finish()
        with open(proxy.report) as f:
            dialects = {c["dialect"] for c in json.load(f)["connections"]}
        if dialects != {"yun2win"}:
            PROBLEMS.append(f"mqtt-ws: connections read as {dialects}, not as MQTT (yun2win) over WebSocket")
    finally:
        broker.terminate()
        broker.wait()


# -- 4. JMessage over python-socketio 4.x (engine.io 3): polling, then the upgrade --------

JM_APPKEY = "4f7aef34fb361292c566a1cd"
JM_CINIT = {"appkey": JM_APPKEY, "random_str": "022cd9fd995849b58b3ef0e943421ed9", "timestamp": 1507882399401,
            "flag": 0, "fromPlatForm": "j"}
JM_CINIT["signature"] = hashlib.md5(("appkey=%s&timestamp=%s&random_str=%s&key=%s" % (
    JM_APPKEY, JM_CINIT["timestamp"], JM_CINIT["random_str"], "master-secret-1")).encode()).hexdigest()

JM_SERVER = r'''
import eventlet
eventlet.monkey_patch()
import sys
import socketio

port, defect = int(sys.argv[1]), sys.argv[2]
sio = socketio.Server(async_mode="eventlet")


def request(event):
    def handler(sid, data):
        sio.emit("ack", {"rid": data["rid"]}, room=sid)
        sio.emit(event, {"rid": data["rid"], "code": 0, "message": "success"}, room=sid)
        if defect == "stray" and event == "login":
            sio.emit("login", {"rid": 9999, "code": 0, "message": "success"}, room=sid)
    sio.on(event, handler)


request("c_init")
request("login")
eventlet.wsgi.server(eventlet.listen(("127.0.0.1", port)), socketio.WSGIApp(sio), log_output=False)
'''


def jmessage(work, defect):
    import signal
    # python-socketio, not Tests/CrossCheck/socketio.py (this script's folder is on sys.path)
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.getcwd()) != os.path.realpath(HERE)]
    try:
        import socketio
    finally:
        sys.path[:] = saved
    name = "jmessage-stray" if defect else "jmessage"
    up_port = free_port()
    script = os.path.join(work, "jm_server.py")
    with open(script, "w") as f:
        f.write(JM_SERVER)
    server = subprocess.Popen([sys.executable, script, str(up_port), "stray" if defect else "clean"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", up_port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        proxy = Proxy(work, name, up_port, 1000)
        client = socketio.Client()
        got = []
        seen = threading.Event()
        for event in ("ack", "c_init", "login"):
            client.on(event, (lambda e: lambda data: (got.append((e, data)), seen.set()))(event))
        client.connect(f"http://127.0.0.1:{proxy.port}", transports=["polling", "websocket"])

        def request(event, payload, rid):
            client.emit(event, dict(payload, rid=rid))
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not any(e == event and d.get("rid") == rid for e, d in got):
                seen.wait(0.1)
                seen.clear()

        request("c_init", JM_CINIT, 1001)
        request("login", {"username": "alice", "password": hashlib.md5(b"secret").hexdigest(), "version": "2.5.0"}, 1002)
        time.sleep(0.5)
        transport = client.eio.transport()
        client.disconnect()
        time.sleep(0.5)
        proxy.proc.send_signal(signal.SIGINT)  # the session spans TCP connections: stop by signal
        live = proxy.finish()
        if transport != "websocket":
            PROBLEMS.append(f"{name}: the client ended on {transport}, not an upgraded WebSocket")
        if not any(e == "login" and d.get("rid") == 1002 for e, d in got):
            PROBLEMS.append(f"{name}: no login response through the proxy")
        rules = sorted({f["rule"] for f in live})
        if defect and "JM.RESPONSE-WITHOUT-REQUEST" not in rules:
            PROBLEMS.append(f"{name}: the stray response was not reported live ({rules})")
        if not defect and "JM.RESPONSE-WITHOUT-REQUEST" in rules:
            PROBLEMS.append(f"{name}: a stray response reported on the clean session")
    finally:
        server.terminate()
        server.wait()


# -- 5. NIM over socket.io 0.9: gevent-socketio 0.3.6 (Python 2.7) and socketIO-client 0.5.7.4 --

def nim(work, transport, defect):
    """The NIM session of Tests/CrossCheck/real_traffic.py (login, sync, sendMsg, heartbeats, logout)
    through the proxy: the handshake GET, then WebSocket or xhr-polling; `defect` is None or a key
    of real_traffic.NIM_DEFECTS, reported live with its rule."""
    import signal
    name = f"nim-{transport}" + (f"-{defect}" if defect else "")
    py27, problem = real_traffic.ensure_py27()
    if py27 is None:
        PROBLEMS.append(f"{name}: no Python 2.7 for gevent-socketio: {problem}")
        return
    up_port = free_port()
    server = real_traffic.nim_server(up_port, defect, work, py27)
    try:
        proxy = Proxy(work, name, up_port, 1000)
        received, retries = [], []
        try:
            received = real_traffic.nim_client(proxy.port, transport, defect, retried=lambda: retries.append(1), linger=1.2)
        except Exception as e:  # noqa: BLE001 - reported, then the proxy is still stopped and checked
            PROBLEMS.append(f"{name}: the socketIO-client session through the proxy failed: {e!r}")
        time.sleep(0.3)
        proxy.proc.send_signal(signal.SIGINT)  # the session spans TCP connections: stop by signal
        live = proxy.finish()
    finally:
        real_traffic.stop(server)
    answered = {(m.get("sid"), m.get("cid")) for m in received}
    if not {(2, 3), (5, 1), (7, 1), (2, 6)} <= answered:
        PROBLEMS.append(f"{name}: responses through the proxy: {sorted(answered, key=str)}")
    with open(proxy.report) as f:
        sessions = [c for c in json.load(f)["connections"] if c["dialect"] == "nim"]
    if len(sessions) != 1 or not sessions[0]["id"].startswith("socket.io 0.9 sid="):
        PROBLEMS.append(f"{name}: not one socket.io 0.9 NIM session: {[c['id'] for c in sessions]}")
    rules = {f["rule"] for f in live if f["severity"] != "info"}
    expected = {real_traffic.NIM_DEFECTS[defect]["expected_rule"]} if defect else set()
    # gevent-socketio may close a kept-alive xhr-polling connection under a request, which the
    # client then sends again (real_traffic.nim_client): on the wire, the same SER twice; and when
    # the close came between the request's headers and its body, the proxy saw a cut-off request
    again = {"NIM.SER-REUSED", "NIM.SER-NOT-SEQUENTIAL", "HTTP.MESSAGE-TRUNCATED"} if retries else set()
    if not expected <= rules or rules - expected - again:
        PROBLEMS.append(f"{name}: live findings {sorted(rules)}, expected {sorted(expected)}"
                        + (f" (and, for the {len(retries)} request(s) sent again, any of {sorted(again)})" if retries else ""))
    if retries:
        STATS[name + " requests sent again"] = len(retries)


# -- 5b. yun2win: paho-mqtt as the app, mosquitto, a push server on its own listener --------

def yun2win(work, defect):
    """The yun2win session of Tests/CrossCheck/real_traffic.py (CONNECT with an iOS-style client
    id, sendMessage and updateSession commands acked by a paho-mqtt push server on mosquitto's
    uncaptured listener, a relayed message, PINGREQ) through the proxy over MQTT 3.1.1 on TCP;
    `defect` is None or a key of real_traffic.Y2W_DEFECTS, reported live with its rule."""
    name = "yun2win" + (f"-{defect}" if defect else "")
    up_port = free_port()
    home = os.path.join(work, name)
    os.makedirs(home)
    broker = real_traffic.Mosquitto(home, [up_port], [])
    try:
        proxy = Proxy(work, name, up_port, 1)
        try:
            real_traffic.yun2win_session(proxy.port, "3.1.1", "02" + "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", 60, "tcp", defect)
        except Exception as e:  # noqa: BLE001 - reported, then the proxy is still stopped and checked
            PROBLEMS.append(f"{name}: the paho-mqtt session through the proxy failed: {e!r}")
        live = proxy.finish()
    finally:
        broker.close()
    with open(proxy.report) as f:
        dialects = {c["dialect"] for c in json.load(f)["connections"]}
    if dialects != {"yun2win"}:
        PROBLEMS.append(f"{name}: connections read as {dialects}, not as yun2win")
    rules = {f["rule"] for f in live if f["severity"] != "info"}
    expected = {real_traffic.Y2W_DEFECTS[defect]["expected_rule"]} if defect else set()
    if rules != expected:
        PROBLEMS.append(f"{name}: live findings {sorted(rules)}, expected {sorted(expected)}")


# -- 6. an upstream that refuses ----------------------------------------------------------

def refused(work):
    proxy = Proxy(work, "refused", free_port(), 1)
    s = socket.create_connection(("127.0.0.1", proxy.port))
    s.settimeout(10)
    try:
        data = s.recv(1024)
        if data:
            PROBLEMS.append(f"refused: the client received {data!r}")
    except ConnectionResetError:
        PROBLEMS.append("refused: the client's connection was reset, not closed")
    s.close()
    live = proxy.finish()
    if [f["rule"] for f in live] != ["PROXY.UPSTREAM-UNREACHABLE"]:
        PROBLEMS.append(f"refused: live findings {[f['rule'] for f in live]}")
    if proxy.proc.returncode != 1:
        PROBLEMS.append(f"refused: the proxy exited {proxy.proc.returncode}, expected 1")


def main():
    started = time.time()
    durations = []
    with tempfile.TemporaryDirectory() as work:
        scenarios = [("raw", lambda: raw_forwarding(work)),
                     ("reset", lambda: reset_forwarding(work)),
                     ("sigterm", lambda: sigterm_record(work)),
                     ("leancloud", lambda: leancloud(work, errors=False)),
                     ("leancloud-errors", lambda: leancloud(work, errors=True)),
                     ("mqtt", lambda: mqtt(work)),
                     ("jmessage", lambda: jmessage(work, defect=False)),
                     ("jmessage-stray", lambda: jmessage(work, defect=True)),
                     ("nim-websocket", lambda: nim(work, "websocket", None)),
                     ("nim-websocket-stray", lambda: nim(work, "websocket", "response-without-request")),
                     ("nim-xhr-polling-code", lambda: nim(work, "xhr-polling", "code-unknown")),
                     ("yun2win", lambda: yun2win(work, None)),
                     ("yun2win-code", lambda: yun2win(work, "return-code-unknown")),
                     ("refused", lambda: refused(work))]
        try:
            for label, scenario in scenarios:
                begun = time.time()
                scenario()
                durations.append(f"{label} {time.time() - begun:.1f}")
        finally:
            for capture in CAPTURES:
                if capture.proc.poll() is None:
                    capture.proc.kill()
                    capture.proc.wait()
    for problem in PROBLEMS:
        print("PROBLEM:", problem)
    summary = ", ".join(f"{name}: {value}" for name, value in STATS.items())
    print(f"imwire proxy with real peers: {summary} ({time.time() - started:.1f}s: {', '.join(durations)})")
    print(f"{0 if PROBLEMS else 1} passed, {1 if PROBLEMS else 0} failed")
    sys.exit(1 if PROBLEMS else 0)


if __name__ == "__main__":
    main()
