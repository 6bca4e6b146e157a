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

The other dialects (--dialect nim|jmessage|yun2win|all) are measured the same way, each beside
its own Python mock server (Tests/VendorSDKs/<dialect>/server.py clean, stderr discarded) and
`imwire serve --scenario <dialect>/clean`, with clients written here on `websockets` (raw
frames built by hand, no IMWire code):
  nim       the socket.io 0.9 handshake GET /socket.io/1/?t=…, the WebSocket
            /socket.io/1/websocket/SID, "1::", login 2_3 in "3:::{…}" (code 200), heartbeats "2::"
            echoed; a message is sendMsg 7_1 (answered 7_1 code 200), pushed to bob as 7_2.
  jmessage  engine.io 3 over WebSocket /socket.io/?EIO=3&transport=websocket: "0{…}" and "40",
            42["c_init",…] and 42["login",…] (each answered ack + code 0); a message is
            s_across_single_text (answered s_single_text code 0), pushed to bob as msg_sync, which
            bob acknowledges with msg_recv_v2.
  yun2win   MQTT 3.1.1 over WebSocket (subprotocol mqttv3.1): CONNECT (client id 00<uuid>, user
            the uid, password imtoken-<uid>) -> CONNACK 0 and PUBLISH {"returnCode":11}; alice
            sends updateSession (alice, bob), then a message is a sendMessage PUBLISH on
            y2w/session/<id> (answered {"y2wMessageId","returnCode":20}), delivered to bob at
            QoS 1, which bob PUBACKs.
None of the three mocks delivers a message to another client (they answer sends only): for
them the rate compared is send -> answer with bob not connected, on both servers (MESSAGES
over the time from the first send to the last answer); imwire's rate with delivery to a
connected bob (to bob's last push) is printed beside it. Pushes a scenario makes to alice are
acknowledged as the protocol says and not counted. The idle sessions and the messages are
measured on two fresh processes of each server: the JMessage mock (a TCP front on --port
forwarding to python-socketio on --inner-port) exits when a client closes its connection.

Usage: Benchmarks/serve-load.py path/to/imwire [--dialect leancloud|nim|jmessage|yun2win|all]
       [--connections 1000] [--messages 20000] [--window 100]
(use a release build: swift build -c release --product imwire). Runs in Tests/CrossCheck/.venv.
"""
import argparse
import asyncio
import hashlib
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid

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


# ---- The other dialects: NIM, JMessage, yun2win, each beside its Python mock --------------------

BODY = "x" * 64
JM_APPKEY = "4f7aef34fb361292c566a1cd"


async def http_get(port, target, timeout=10):
    """One GET over its own TCP connection; returns the body."""
    async def get():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        length = re.search(r"(?i)content-length:\s*(\d+)", head)
        body = await (reader.readexactly(int(length.group(1))) if length else reader.read())
        writer.close()
        if not head.startswith("HTTP/1.1 200"):
            raise RuntimeError(f"GET {target}: {head.splitlines()[0]}")
        return body.decode()
    return await asyncio.wait_for(get(), timeout)


def ws_connect(url, subprotocols=None):
    return connect(url, subprotocols=subprotocols, compression=None, ping_interval=None, max_size=2 ** 22, max_queue=None,
                   close_timeout=2, open_timeout=20)


class NIMClient:
    """The NIM Web link: socket.io 0.9 over WebSocket, NIM packets in message packets `3:::{…}`."""
    name = "nim"

    def __init__(self, ws, user):
        self.ws, self.user, self.ser = ws, user, 0

    @classmethod
    async def open(cls, port, user):
        sid = (await http_get(port, f"/socket.io/1/?t={int(time.time() * 1000)}")).split(":")[0]
        ws = await ws_connect(f"ws://127.0.0.1:{port}/socket.io/1/websocket/{sid}")
        client = cls(ws, user)
        if await ws.recv() != "1::":
            raise RuntimeError("nim: no socket.io connect 1::")
        login = {"3": 16, "4": "Chrome", "6": 190, "9": 1, "13": "dev-" + user, "18": "app-key-1", "19": user, "40": "8.5.0",
                 "1000": "token-" + user}
        await client.request(2, 3, [{"t": "Property", "v": login}])
        while True:
            data = await ws.recv()
            if data == "2::":
                await ws.send("2::")
            elif data.startswith("3:::"):
                reply = json.loads(data[4:])
                if (reply.get("sid"), reply.get("cid")) == (2, 3):
                    if reply.get("code") != 200:
                        raise RuntimeError(f"nim login {user}: code {reply.get('code')}")
                    return client

    async def request(self, sid, cid, q):
        self.ser = self.ser % 32767 + 1  # 1...32767, then 1 again (Spec/nim.md#ser)
        await self.ws.send("3:::" + json.dumps({"SID": sid, "CID": cid, "SER": self.ser, "Q": q}, separators=(",", ":")))

    async def prepare(self, to):
        pass

    async def send(self, n, to):
        message = {"0": 0, "1": to, "8": 0, "9": BODY, "11": f"{self.user}-{n}"}
        await self.request(7, 1, [{"t": "Property", "v": message}])

    async def handle(self, data):
        """What a frame from the server is: ("answer", ok) for a send's answer, ("push", sender) for a message pushed."""
        if data == "2::":
            await self.ws.send("2::")  # the socket.io heartbeat, echoed
            return []
        if not data.startswith("3:::"):
            return []
        packet = json.loads(data[4:])
        where = (packet.get("sid"), packet.get("cid"))
        if where == (7, 1):
            return [("answer", packet.get("code") == 200)]
        if where == (7, 2):
            return [("push", packet["r"][0].get("2"))]  # no acknowledgement per push in NIM
        return []


class JMessageClient:
    """JMessage web: engine.io 3 / socket.io 2 over WebSocket, events with a rid."""
    name = "jmessage"

    def __init__(self, ws, user):
        self.ws, self.user, self.rid = ws, user, 0

    @classmethod
    async def open(cls, port, user):
        ws = await ws_connect(f"ws://127.0.0.1:{port}/socket.io/?EIO=3&transport=websocket")
        client = cls(ws, user)
        if not (await ws.recv()).startswith("0{"):
            raise RuntimeError("jmessage: no engine.io open packet")
        if await ws.recv() != "40":
            raise RuntimeError("jmessage: no socket.io connect 40")
        timestamp, random_str = int(time.time() * 1000), uuid.uuid4().hex[:16]
        # The signature formula with some master secret (imwire checks it only with --secret; the mock not at all).
        signature = hashlib.md5(f"appkey={JM_APPKEY}&timestamp={timestamp}&random_str={random_str}&key=secret".encode()).hexdigest()
        for event, data in (("c_init", {"appkey": JM_APPKEY, "random_str": random_str, "signature": signature, "timestamp": timestamp,
                                        "flag": 0, "fromPlatForm": "j"}),
                            ("login", {"username": user, "password": hashlib.md5(b"pw").hexdigest(), "version": "2.5.0"})):
            rid = await client.emit(event, data)
            while True:
                name, body = client.decode(await ws.recv())
                if name == event and body.get("rid") == rid:
                    if body.get("code") != 0:
                        raise RuntimeError(f"jmessage {event} {user}: {body}")
                    break
        return client

    async def emit(self, event, data):
        self.rid += 1
        await self.ws.send("42" + json.dumps([event, dict(data, rid=self.rid)], separators=(",", ":")))
        return self.rid

    @staticmethod
    def decode(frame):
        if not frame.startswith("42"):
            return None, {}
        name, *rest = json.loads(frame[2:])
        return name, (rest[0] if rest and isinstance(rest[0], dict) else {})

    async def prepare(self, to):
        pass

    async def send(self, n, to):
        await self.emit("s_across_single_text", {
            "content": {"version": 1, "target_type": "single", "from_platform": "web", "target_id": to, "from_id": self.user,
                        "create_time": int(time.time() * 1000), "msg_type": "text", "msg_body": {"text": BODY}},
            "no_offline": False, "no_notification": False, "target_id": to, "appkey": JM_APPKEY})

    async def handle(self, data):
        if data == "3":  # the pong to a ping of ours
            return []
        name, body = self.decode(data)
        if name == "s_single_text" and "code" in body:
            return [("answer", body["code"] == 0)]
        if name == "msg_sync":
            events = []
            for message in body.get("messages", []):
                await self.emit("msg_recv_v2", {k: message[k] for k in ("msg_id", "msg_type", "from_uid", "from_gid")})
                events.append(("push", message["content"].get("from_id")))
            return events
        return []


def mqtt_packet(first, body):
    length, encoded = len(body), b""
    while True:
        byte, length = length % 128, length // 128
        encoded += bytes([byte | (0x80 if length else 0)])
        if not length:
            return bytes([first]) + encoded + body


def mqtt_string(text):
    data = text.encode()
    return struct.pack(">H", len(data)) + data


class Yun2winClient:
    """yun2win's web SDK: MQTT 3.1.1 over WebSocket, commands as JSON PUBLISHes."""
    name = "yun2win"

    def __init__(self, ws, user):
        self.ws, self.user, self.buffer, self.session = ws, user, b"", None

    def packets(self, data):
        """The MQTT packets (first byte, body) complete in what came so far."""
        self.buffer += data
        out = []
        while len(self.buffer) >= 2:
            mult, length, i = 1, 0, 1
            while True:
                if i >= len(self.buffer):
                    return out
                b = self.buffer[i]
                length, mult, i = length + (b & 0x7F) * mult, mult * 128, i + 1
                if not b & 0x80:
                    break
            if len(self.buffer) < i + length:
                return out
            out.append((self.buffer[0], self.buffer[i:i + length]))
            self.buffer = self.buffer[i + length:]
        return out

    @staticmethod
    def publish_payload(first, body):
        n = struct.unpack(">H", body[:2])[0]
        pos = 2 + n
        packet_id = None
        if (first >> 1) & 3:
            packet_id = struct.unpack(">H", body[pos:pos + 2])[0]
            pos += 2
        return packet_id, json.loads(body[pos:])

    @classmethod
    async def open(cls, port, user):
        ws = await ws_connect(f"ws://127.0.0.1:{port}/", subprotocols=["mqttv3.1"])
        client = cls(ws, user)
        await ws.send(mqtt_packet(0x10, mqtt_string("MQTT") + bytes([4, 0xC2]) + struct.pack(">H", 300)
                                  + mqtt_string("00" + str(uuid.uuid4())) + mqtt_string(user) + mqtt_string("imtoken-" + user)))
        connacked = False
        while True:
            for first, body in client.packets(await ws.recv()):
                if first >> 4 == 2:
                    if body[1] != 0:
                        raise RuntimeError(f"yun2win CONNACK {body[1]} for {user}")
                    connacked = True
                elif first >> 4 == 3 and connacked and client.publish_payload(first, body)[1] == {"returnCode": 11}:
                    return client

    async def command(self, cmd, message_id, to, **extra):
        self.session = "p2p_" + "_".join(sorted([self.user, to]))
        body = {"cmd": cmd, "y2wMessageId": message_id, "mts": 1479460000000,
                "message": {"syncs": [{"type": 0}, {"type": 1, "sessionId": self.session}], "pns": {"msg": BODY}}, **extra}
        await self.ws.send(mqtt_packet(0x30, mqtt_string("y2w/session/" + self.session) + json.dumps(body, separators=(",", ":")).encode()))

    async def prepare(self, to):
        """updateSession with both members (answered returnCode 20): imwire delivers to a session's members."""
        members = [{"uid": self.user, "isDel": False}, {"uid": to, "isDel": False}]
        await self.command("updateSession", "update-" + self.user, to, members=members, force=True)
        while True:
            events = await self.handle(await self.ws.recv())
            if events:
                return

    async def send(self, n, to):
        await self.command("sendMessage", f"{self.user}-{n}", to)

    async def handle(self, data):
        events = []
        for first, body in self.packets(data):
            if first >> 4 != 3:
                continue  # PINGRESP and the like
            packet_id, payload = self.publish_payload(first, body)
            if packet_id is not None:
                await self.ws.send(bytes([0x40, 0x02]) + struct.pack(">H", packet_id))  # PUBACK
            if "returnCode" in payload and "y2wMessageId" in payload:
                events.append(("answer", payload["returnCode"] == 20))
            elif payload.get("cmd") == "sendMessage":
                events.append(("push", payload["y2wMessageId"].split("-")[0]))
        return events


CLIENTS = {"nim": NIMClient, "jmessage": JMessageClient, "yun2win": Yun2winClient}


async def idle_sessions(client, port, count, retried):
    """COUNT clients logged in. A session refused is tried again (up to 4 times, 0.2 s apart),
    counted in retried[0]: imwire serve accepts 1,000 connections open at once, and a NIM
    session's handshake GET is a connection of its own, closed only once the client has read
    its answer, so at 1,000 NIM sessions a WebSocket can come while a handshake's connection is
    still counted."""
    async def open_one(user):
        for attempt in range(5):
            try:
                return await client.open(port, user)
            except Exception:
                if attempt == 4:
                    raise
                retried[0] += 1
                await asyncio.sleep(0.2)
    sockets = []
    for start in range(0, count, 50):
        sockets += await asyncio.gather(*(open_one(f"user{n}") for n in range(start, min(count, start + 50))))
    return sockets


async def dialect_throughput(client, port, messages, window, deliver):
    """alice sends MESSAGES to bob, WINDOW unanswered at a time. deliver: bob is connected and
    every push to him is counted (and acknowledged where the protocol has it); else bob is not
    connected and the rate is send -> answer. Returns (seconds, errors)."""
    alice = await client.open(port, "alice")
    bob = await client.open(port, "bob") if deliver else None
    await alice.prepare("bob")
    credits = asyncio.Semaphore(window)
    counts = {"answered": 0, "errors": 0, "received": 0}
    answered, received = asyncio.Event(), asyncio.Event()
    if not deliver:
        received.set()

    async def read_alice():
        async for data in alice.ws:
            for kind, value in await alice.handle(data):
                if kind == "answer":
                    counts["answered"] += 1
                    counts["errors"] += not value
                    credits.release()
                    if counts["answered"] == messages:
                        answered.set()

    async def read_bob():
        async for data in bob.ws:
            for kind, value in await bob.handle(data):
                if kind == "push" and value == "alice":
                    counts["received"] += 1
                    if counts["received"] == messages:
                        received.set()

    tasks = [asyncio.create_task(read_alice())] + ([asyncio.create_task(read_bob())] if deliver else [])
    start = time.monotonic()
    for n in range(messages):
        await credits.acquire()
        await alice.send(n, "bob")
    try:
        await asyncio.wait_for(asyncio.gather(answered.wait(), received.wait()), 600)
    except asyncio.TimeoutError:
        raise RuntimeError(f"timed out: {counts}")
    elapsed = time.monotonic() - start
    for task in tasks:
        task.cancel()
    for c in (alice, bob):
        if c:
            await c.ws.close()
    return elapsed, counts["errors"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def start_server(argv, port_of):
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        port = port_of(process)
        # Nothing reads the server's stderr after this (a mock logs every event there): drained.
        threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
        wait_for_port(port, process)
        time.sleep(1.0)
    except Exception:
        stop_server(process)
        raise
    return process, port


def stop_server(process):
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def measure_dialect(dialect, name, argv, port_of, args, with_delivery):
    """Idle sessions on one server process; then, on a fresh one, send -> answer (bob not
    connected), and for imwire (with_delivery) the same with bob connected and every push
    counted. A fresh process because the JMessage mock's TCP front dies when a client closes
    its connection (an eventlet EOFError out of its pump): every dialect is measured alike."""
    client = CLIENTS[dialect]
    retried = [0]
    process, port = start_server(argv, port_of)
    try:
        base = rss_kib(process.pid)

        async def idle():
            sockets = await asyncio.wait_for(idle_sessions(client, port, args.connections, retried), 300)
            await asyncio.sleep(2)
            loaded = rss_kib(process.pid)
            stop_server(process)
            for c in sockets:
                c.ws.transport.abort()
            return loaded
        loaded = asyncio.run(idle())
    finally:
        stop_server(process)
    process, port = start_server(argv, port_of)
    try:
        async def throughput():
            results = []
            for deliver in (False, True) if with_delivery else (False,):
                cpu = cpu_seconds(process.pid)
                elapsed, errors = await dialect_throughput(client, port, args.messages, args.window, deliver)
                results.append((deliver, elapsed, errors, cpu_seconds(process.pid) - cpu))
                await asyncio.sleep(1)
            return results
        results = asyncio.run(throughput())
    finally:
        stop_server(process)
    per = (loaded - base) / args.connections
    out = {}
    for deliver, elapsed, errors, cpu in results:
        rate = args.messages / elapsed
        cpu_per = cpu / args.messages * 1e6
        what = "sent, answered and delivered to bob" if deliver else "sent and answered (bob not connected)"
        print(f"{dialect + ' ' + name:32s} base {base / 1024:5.1f} MiB, {args.connections} idle sessions {loaded / 1024:5.1f} MiB "
              f"({per:4.1f} KiB each); {args.messages} messages {what} in {elapsed:5.2f} s = {rate:5.0f} msg/s, "
              f"server CPU {cpu_per:5.0f} us/message" + (f"; {errors} answers with an error code" if errors else "")
              + (f"; {retried[0]} logins refused and tried again" if retried[0] else ""), flush=True)
        out[deliver] = (per, rate, cpu_per)
    return out


def imwire_port(process):
    """The port `imwire serve --listen 127.0.0.1:0` names on the first line of its standard error."""
    line = process.stderr.readline()
    return int(re.search(r"on 127\.0\.0\.1:(\d+)", line).group(1))


def compare_dialect(dialect, args):
    imwire = measure_dialect(dialect, "imwire serve", [os.path.abspath(args.imwire), "serve", "--scenario", f"{dialect}/clean",
                                                       "--listen", "127.0.0.1:0", "--idle", "600", "--severity", "error"],
                             imwire_port, args, with_delivery=True)
    mock = os.path.join(ROOT, "Tests", "VendorSDKs", dialect, "server.py")
    port = free_port()
    argv = [sys.executable, mock, "clean", "--port", str(port)]
    if dialect == "jmessage":
        argv += ["--inner-port", str(free_port())]  # its TCP front is on --port, python-socketio behind it
    peer = measure_dialect(dialect, "Python mock (server.py)", argv, lambda _: port, args, with_delivery=False)
    i, m = imwire[False], peer[False]
    print(f"{dialect} imwire / Python mock: memory per idle session {i[0] / m[0]:.2f}x, messages/s (send -> answer) "
          f"{i[1] / m[1]:.2f}x, server CPU per message {i[2] / m[2]:.2f}x (the mock delivers to no other client)", flush=True)


def leancloud(args):
    imwire = measure("imwire serve", [os.path.abspath(args.imwire), "serve", "--scenario", "leancloud/clean", "--listen", "127.0.0.1:0",
                                      "--idle", "600", "--severity", "error"], imwire_port, args)

    with tempfile.TemporaryDirectory() as generated:
        subprocess.run(["protoc", f"--python_out={generated}", "-I", os.path.join(ROOT, "Spec", "leancloud"),
                        os.path.join(ROOT, "Spec", "leancloud", "messages2.proto")], check=True)
        os.environ["PYTHONPATH"] = generated
        port = 28880
        peer = measure("Python mock (server.py)", [sys.executable, os.path.join(ROOT, "Tests", "VendorSDKs", "leancloud", "server.py"),
                                                   "--port", str(port), "--scenario", "twouser"], lambda _: port, args)
        del os.environ["PYTHONPATH"]
    print(f"imwire / Python mock: memory per idle session {imwire[0] / peer[0]:.2f}x, messages/s {imwire[1] / peer[1]:.2f}x, "
          f"server CPU per message {imwire[2] / peer[2]:.2f}x", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("imwire")
    p.add_argument("--dialect", choices=["leancloud", "nim", "jmessage", "yun2win", "all"], default="leancloud")
    p.add_argument("--connections", type=int, default=1000)
    p.add_argument("--messages", type=int, default=20000)
    p.add_argument("--window", type=int, default=100)
    args = p.parse_args()
    for dialect in ["leancloud", "nim", "jmessage", "yun2win"] if args.dialect == "all" else [args.dialect]:
        if dialect == "leancloud":
            leancloud(args)
        else:
            compare_dialect(dialect, args)


if __name__ == "__main__":
    main()
