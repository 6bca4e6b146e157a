#!/usr/bin/env python3
"""Copies seed inputs for a fuzz target from Fixtures/ into Corpus/<target>/seed-*.

Usage: Fuzz/seeds.py TARGET [DIRECTORY]   (default DIRECTORY: Fuzz/Corpus/TARGET)

Each seed carries the option byte (0x00 FLAGS, see Sources/IMWireFuzzTargets/FuzzInput.swift)
that makes the target read it the way its fixture means it. Packet-capture seeds are the
committed pcapng, its pcap equivalent, and, when the imwire CLI is built (../.build/*/imwire),
every JSONL capture converted to pcapng and pcap; HAR seeds are the JSONL captures written as
Chrome HARs; compression seeds are fixture texts deflated by Python's zlib.
"""
import base64
import glob
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def options(flags, payload):
    return bytes([0, flags]) + payload


def load(pattern):
    for path in sorted(glob.glob(f"{ROOT}/Fixtures/{pattern}", recursive=True)):
        yield json.load(open(path))


def fixture_bytes(fixture):
    if "bytes_hex" in fixture:
        return bytes.fromhex(fixture["bytes_hex"])
    return fixture["text"].encode()


def leancloud(encodings):
    for fixture in load("leancloud/command/**/*.json"):
        if fixture.get("encoding") not in encodings:
            continue
        if "bytes_hex" in fixture:
            yield bytes.fromhex(fixture["bytes_hex"])
        else:
            variant = b"\x00\x04" if fixture["encoding"] == "json" else b""
            yield variant + fixture["text"].encode()


def captures():
    for path in sorted(glob.glob(f"{ROOT}/Fixtures/captures/*.jsonl")):
        yield open(path, "rb").read()


def lines():
    for capture in captures():
        yield from (line for line in capture.split(b"\n") if line)


def rendered(source):
    """Checker targets: each capture as it is, and once more with extra bit 0 (render the report)."""
    for data in source():
        yield data
        yield options(1 << 4, data)


# WebSocket: variant bit 0 the direction (0 client/send, 1 server/receive); extra bits 0-1 the
# permessage-deflate settings (1 defaults, 2 no context takeover, 3 window bits from bits 2-3).
WINDOW_CHOICES = [8, 9, 12, 15]


def deflate_extra(offer):
    if not offer:
        return 0
    if "no_context_takeover" in offer:
        return 2
    for part in offer.split(";"):
        if "max_window_bits=" in part:
            bits = int(part.split("=")[1])
            choice = min(range(4), key=lambda i: abs(WINDOW_CHOICES[i] - bits))
            return 3 | choice << 2
    return 1


def websocket_streams(with_deflate=True):
    for fixture in load("websocket/**/*.json"):
        given = fixture["input"]
        if fixture["layer"] == "handshake":
            continue
        extra = deflate_extra(given.get("permessage_deflate")) if with_deflate else 0
        for direction, key in ((0, "client_hex"), (1, "server_hex")):
            data = bytes.fromhex(given.get(key) or "")
            if data:
                yield options(direction << 2 | extra << 4, data)
                yield options(2 | direction << 2 | extra << 4, data)


def websocket_differential():
    # variant bit 1: RSV1 negotiated (for the permessage-deflate fixtures).
    for fixture in load("websocket/**/*.json"):
        given = fixture["input"]
        if fixture["layer"] == "handshake":
            continue
        rsv1 = 2 if given.get("permessage_deflate") else 0
        for direction, key in ((0, "client_hex"), (1, "server_hex")):
            data = bytes.fromhex(given.get(key) or "")
            if data:
                yield options((direction | rsv1) << 2, data)


def handshakes():
    for fixture in load("websocket/handshake/*.json"):
        given = fixture["input"]
        request = given["request"].encode()
        yield request + given.get("response", "").encode()
        yield options(1 << 2, request)


def compression():
    texts = [fixture_bytes(f) for f in load("jmessage/event/*.json")][:8]
    texts += [b"", b"a", b"\x00" * 600, bytes(range(256)) * 3]
    for index, text in enumerate(texts):
        for variant, wbits in ((0, -15), (1, 15), (2, 31)):
            yield options(variant << 2, deflate(text, wbits))
        # permessage-deflate style: raw, sync flush, trailer stripped (variant 3 adds it back)
        body = zlib.compressobj(6, zlib.DEFLATED, -15)
        data = body.compress(text) + body.flush(zlib.Z_SYNC_FLUSH)
        yield options(3 << 2 | (index % 4) << 6, data[:-4])
        # window bits 9 (extra 2) and tight limits
        yield options(2 | 2 << 4, deflate(text, -9))


def deflate(text, wbits):
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    return compressor.compress(text) + compressor.flush()


def mqtt():
    versions = {"3.1": 1, "3.1.1": 2}
    directions = {None: 0, "send": 1, "receive": 2}
    for pattern in ("mqtt/packet/*.json", "yun2win/packet/*.json"):
        for fixture in load(pattern):
            flags = versions.get(fixture.get("encoding"), 0) << 2 | directions[fixture.get("direction")] << 4
            yield options(flags, bytes.fromhex(fixture["bytes_hex"]))
    for fixture in load("yun2win/sessions/*.json"):
        for connection in fixture["input"]["connections"]:
            for direction in ("send", "receive"):
                data = b"".join(bytes.fromhex(e["hex"]) for e in connection["events"] if e.get("dir") == direction and "hex" in e)
                if data:
                    yield options(directions[direction] << 4, data)


def socketio():
    directions = {None: 0, "send": 1, "receive": 2}
    for fixture in load("nim/socketio/*.json"):
        yield options(0, fixture_bytes(fixture))
    for fixture in load("nim/packet/*.json"):
        yield options(directions[fixture.get("direction")] << 4, fixture_bytes(fixture))
    for fixture in load("jmessage/engineio/*.json"):
        binary = "bytes_hex" in fixture
        yield options((2 if binary else 1) << 2, fixture_bytes(fixture))
    for fixture in load("jmessage/event/*.json"):
        yield options(1 << 2 | directions[fixture.get("direction")] << 4, fixture_bytes(fixture))
    # socket.io 0.9 handshake bodies and WebSocket URLs (nim.md §3.1, jmessage.md §3)
    for body in (b"4d3b2c1a9f:60:60:websocket,flashsocket,xhr-polling", b"abc::25:websocket", b"abc:60:60:xhr-polling",
                 b"/socket.io/1/websocket/4d3b2c1a9f", b"wss://ws.netease.im/socket.io/1/websocket/abc",
                 b"wss://ws.im.jiguang.cn/socket.io/?EIO=3&transport=websocket"):
        yield options(3 << 2, body)


def imwire():
    for configuration in ("release", "debug"):
        path = os.path.join(ROOT, ".build", configuration, "imwire")
        if os.access(path, os.X_OK):
            return path
    return None


def reconnect_events():
    """The golden traces as they are (the target runs each against the policy it names), and
    their input as JSONL: a settings line, then one event per line."""
    for path in sorted(glob.glob(f"{ROOT}/Fixtures/reconnect/**/*.json", recursive=True)):
        data = open(path, "rb").read()
        yield data
        fixture = json.loads(data)
        given = fixture["input"]
        settings = {"seed": given.get("seed", 0), "policy": fixture["policy"]}
        if "until" in given:
            settings["until"] = given["until"]
        yield "\n".join(json.dumps(line) for line in [settings] + given["events"]).encode()


def pcapng_to_pcap(data):
    """The packets of a little-endian pcapng with one interface (if_tsresol 6 or 9) as classic
    pcap (microsecond or nanosecond magic)."""
    out = bytearray()
    offset, link, units = 0, None, 10 ** 6
    while offset + 12 <= len(data):
        block, length = struct.unpack_from("<II", data, offset)
        if length < 12:
            break
        body = data[offset + 8:offset + length - 4]
        if block == 1 and link is None:
            link, _, snap = struct.unpack_from("<HHI", body)
            at = 8
            while at + 4 <= len(body):
                code, size = struct.unpack_from("<HH", body, at)
                if code == 0:
                    break
                if code == 9 and size == 1 and body[at + 4] in (6, 9):
                    units = 10 ** body[at + 4]
                at += 4 + (size + 3) // 4 * 4
            magic = 0xa1b2c3d4 if units == 10 ** 6 else 0xa1b23c4d
            out += struct.pack("<IHHiIII", magic, 2, 4, 0, 0, snap or 262144, link)
        elif block == 6 and link is not None:
            _, high, low, captured, original = struct.unpack_from("<IIIII", body)
            stamp = high << 32 | low
            out += struct.pack("<IIII", stamp // units, stamp % units, captured, original)
            out += body[20:20 + captured]
        offset += length
    return bytes(out)


def pcapngs():
    yield open(f"{ROOT}/Fixtures/captures/leancloud-real.pcapng", "rb").read()
    tool = imwire()
    if tool is None:
        return
    with tempfile.TemporaryDirectory() as work:
        for path in sorted(glob.glob(f"{ROOT}/Fixtures/captures/*.jsonl")):
            out = os.path.join(work, "capture.pcapng")
            if subprocess.run([tool, "convert", path, "--to", "pcapng", "--show-secrets", "-o", out], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                yield open(out, "rb").read()


def pcaps():
    for data in pcapngs():
        pcap = pcapng_to_pcap(data)
        if pcap:
            yield pcap


def hars():
    """Each JSONL capture as a Chrome-style HAR (binary messages as base64, opcode 2)."""
    for capture in captures():
        entries = {}
        for line in capture.split(b"\n"):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue  # the broken sample capture has an unreadable line on purpose
            entry = entries.setdefault(event.get("conn", "c"), {
                "request": {"url": "wss://example.invalid/", "headers": []},
                "response": {"status": 101, "headers": []}, "_webSocketMessages": []})
            if event.get("type") == "open":
                entry["request"]["url"] = event.get("url", "wss://example.invalid/")
                if "subprotocol" in event:
                    entry["response"]["headers"].append({"name": "Sec-WebSocket-Protocol", "value": event["subprotocol"]})
            elif "dir" in event:
                message = {"type": event["dir"], "time": event.get("t", 0)}
                if "text" in event:
                    message.update(opcode=1, data=event["text"])
                elif "hex" in event or "base64" in event:
                    raw = bytes.fromhex(event["hex"]) if "hex" in event else base64.b64decode(event["base64"])
                    message.update(opcode=2, data=base64.b64encode(raw).decode())
                else:
                    continue
                entry["_webSocketMessages"].append(message)
        yield json.dumps({"log": {"version": "1.2", "entries": list(entries.values())}}).encode()


def tls():
    """The recorded sessions of Tests/IMWireTLSTests/Resources as segments (direction byte, 16-bit
    length, bytes), and RFC 8448's ClientHello and server flight with its secrets (variant 0)."""
    folder = os.path.join(HERE, "..", "Tests", "IMWireTLSTests", "Resources")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".chunks"):
            continue
        blob, index, out = open(os.path.join(folder, name), "rb").read(), 0, bytearray()
        while index + 5 <= len(blob):
            length = int.from_bytes(blob[index + 1:index + 5], "big")
            data = blob[index + 5:index + 5 + length]
            for start in range(0, len(data), 0xffff):
                piece = data[start:start + 0xffff]
                out += bytes([0 if blob[index:index + 1] == b"c" else 1]) + len(piece).to_bytes(2, "big") + piece
            index += 5 + length
        yield bytes(out)
        yield b"\x00\x04" + bytes(out)  # variant 1: without the RFC 8448 secrets


def key_logs():
    """The key logs of Fixtures/captures/tls (TLS 1.2 and 1.3, every suite, a defect)."""
    folder = os.path.join(HERE, "..", "Fixtures", "captures", "tls")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".keylog"):
            yield open(os.path.join(folder, name), "rb").read()


def scenarios():
    """Every scenario of Fixtures/serve, of all four dialects."""
    folder = os.path.join(HERE, "..", "Fixtures", "serve")
    for dialect in sorted(os.listdir(folder)):
        for name in sorted(os.listdir(os.path.join(folder, dialect))):
            yield open(os.path.join(folder, dialect, name), "rb").read()


def vendor_sdk_recordings():
    """Each genuine SDK recording of Fixtures/captures/vendor-sdk with a link (a connection opened
    with a URL): its dialect, its events and those links' ids."""
    folder = os.path.join(HERE, "..", "Fixtures", "captures", "vendor-sdk")
    for dialect in sorted(["jmessage", "leancloud", "nim", "yun2win"]):
        for name in sorted(os.listdir(os.path.join(folder, dialect))):
            if not name.endswith(".jsonl"):
                continue
            events = [json.loads(line) for line in open(os.path.join(folder, dialect, name))]
            links = [e["conn"] for e in events if e.get("type") == "open" and "url" in e]
            if links:
                yield dialect, events, links


def serve_clients():
    """The client side of the genuine SDKs' recordings (Fixtures/captures/vendor-sdk) as the Serve
    target's segments ([connection][16-bit length][bytes]), one seed per recording, the variant byte
    naming the dialect: LeanCloud's router then its link; NIM's handshake then its link (over
    WebSocket, and over xhr-polling) on the session id the harness's first handshake gives out
    (ServeFuzzing.firstNIMSession); JMessage's link; yun2win's MQTT over WebSocket and on plain TCP.
    Frames masked with the key 0."""
    nim_sid = "74307646539756239902"

    def segment(connection, data):
        return bytes([connection]) + len(data).to_bytes(2, "big") + data

    def frame(opcode, payload):
        head = bytes([0x80 | opcode])
        head += bytes([0x80 | len(payload)]) if len(payload) < 126 else b"\xfe" + len(payload).to_bytes(2, "big")
        return head + b"\0\0\0\0" + payload

    def upgrade(target, protocol=None):
        head = (f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
        return (head + (f"Sec-WebSocket-Protocol: {protocol}\r\n" if protocol else "") + "\r\n").encode()

    variants = {"leancloud": 0, "nim": 1, "jmessage": 2, "yun2win": 3}
    for dialect, events, links in vendor_sdk_recordings():
        sent = []
        for event in events:
            if event.get("conn") != links[0] or event.get("dir") != "send":
                continue
            if "text" in event:
                sent.append((1, event["text"].encode()))
            elif "hex" in event:
                sent.append((2, bytes.fromhex(event["hex"])))
        sent = [(opcode, data) for opcode, data in sent if len(data) < 60000][:40]
        frames = [frame(opcode, data) for opcode, data in sent]
        if dialect == "leancloud":
            out = segment(0, b"GET /v1/route?appId=app HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            out += b"".join(segment(1, data) for data in [upgrade("/", "lc.protobuf2.3")] + frames)
        elif dialect == "nim":
            handshake = segment(0, b"GET /socket.io/1/?t=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            out = handshake + b"".join(segment(1, data) for data in [upgrade(f"/socket.io/1/websocket/{nim_sid}")] + frames)
            poll = f"GET /socket.io/1/xhr-polling/{nim_sid}?t=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
            posts = [f"POST /socket.io/1/xhr-polling/{nim_sid}?t=3 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n\r\n".encode()
                     + data for _, data in sent[:8]]
            yield options(1 << 2, handshake + segment(1, poll) + b"".join(segment(2, post) for post in posts) + segment(3, poll))
        elif dialect == "jmessage":
            out = b"".join(segment(0, data) for data in [upgrade("/socket.io/?EIO=3&transport=websocket")] + frames)
        else:
            out = b"".join(segment(0, data) for data in [upgrade("/", "mqttv3.1")] + frames)
            yield options(3 << 2, b"".join(segment(1, data) for _, data in sent))  # plain TCP
        yield options(variants[dialect] << 2, out)


def run_imwire(*arguments):
    """Runs the imwire CLI (None when it is not built); its exit status is not checked (1 means findings)."""
    tool = imwire()
    if tool is None:
        return None
    return subprocess.run([tool, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


def shard_report(path, work):
    """`imwire check --format json --merge-data` of a capture, cut to what `imwire merge` reads
    (version, source, threshold, firstTime, merge), its imwire version the target's ("fuzz")."""
    out = os.path.join(work, "report.json")
    if run_imwire("check", path, "--format", "json", "--merge-data", "-o", out) is None or not os.path.exists(out):
        return None
    report = json.load(open(out))
    os.remove(out)
    if "merge" not in report:
        return None
    report["merge"]["imwire"] = "fuzz"
    kept = {key: report[key] for key in ("version", "source", "threshold", "firstTime", "merge") if key in report}
    return json.dumps(kept, separators=(",", ":")).encode()


def spool_seeds(report):
    """Variants 2 and 3 of MergeReports: each connection's spool bytes ([16-bit length][report]
    [judge]) and the capture findings' spool bytes."""
    merge = json.loads(report)["merge"]
    for connection in merge["connections"]:
        body = base64.b64decode(connection["report"])
        judge = base64.b64decode(connection["judge"]) if connection.get("judge") else b""
        if len(body) < 0x10000:
            yield options(2 << 2, len(body).to_bytes(2, "big") + body + judge)
    yield options(3 << 2, base64.b64decode(merge["captureFindings"]))


def merge_reports():
    """The reports of every JSONL capture (variant 0, also rendered), their connections' and capture
    findings' spool bytes (variants 2, 3), and the shards of the JSONL captures of several clients
    cut into shards of about 100 bytes, separated by 0x1E (variant 1); needs the imwire CLI
    (../.build/*/imwire), else one hand-made report of no connection."""
    empty = {"version": 1, "source": "x", "threshold": "warning", "merge": {
        "version": 1, "imwire": "fuzz", "shard": None, "options": {"lenient": False, "rules": {}, "policies": [], "settings": [],
                                                                      "timelines": False},
        "firstPacket": None, "lastTime": None, "connections": [], "captureFindings": "AA==", "packets": []}}
    yield json.dumps(empty, separators=(",", ":")).encode()
    if imwire() is None:
        return
    with tempfile.TemporaryDirectory() as work:
        for path in sorted(glob.glob(f"{ROOT}/Fixtures/captures/*.jsonl")):
            report = shard_report(path, work)
            if report is None:
                continue
            yield report
            yield options(1 << 4, report)
            yield from spool_seeds(report)
        for name in ("leancloud-reconnect.jsonl", "leancloud-clean.jsonl", "nim-login-sync-send-kicked.jsonl", "yun2win-kicked-reconnect.jsonl"):
            out = os.path.join(work, name)
            run_imwire("shard", f"{ROOT}/Fixtures/captures/{name}", "--out", out, "--max-megabytes", "0.0001")
            shards = sorted(p for p in glob.glob(os.path.join(out, "*")) if os.path.basename(p) != "manifest.jsonl")
            reports = [r for r in (shard_report(p, work) for p in shards) if r is not None]
            if reports:
                yield options(1 << 2, b"\x1e".join(reports))
                yield options(1 << 2, b"\x1e".join(reversed(reports)))


def frames(data):
    """The framed messages of a testee-protocol stream (4-byte little-endian length, body)."""
    out, index = [], 0
    while index + 4 <= len(data):
        length = int.from_bytes(data[index:index + 4], "little")
        out.append(data[index:index + 4 + length])
        index += 4 + length
    return out


def head(messages, limit=4000):
    """The first framed messages that fit in `limit` bytes (at least one)."""
    out = b""
    for message in messages:
        if out and len(out) + len(message) > limit:
            break
        out += message
    return out


SUITES = ["leancloud.binary", "leancloud.base64", "leancloud.json", "websocket.frames", "websocket.permessage-deflate", "mqtt.3.1",
          "mqtt.3.1.1", "socketio.0.9", "engineio.3", "nim", "jmessage", "yun2win"]


def testee_responses():
    """Per suite (extra bits 0-3, ConformanceSuite.allCases order), the first responses IMWire's own
    testee gives the conformance runner, and (variant 1) the first requests the runner sends it:
    recorded from `imwire conformance run -- sh -c 'tee REQUESTS | imwire conformance testee | tee
    RESPONSES'` when the CLI is built. Also a few streams by hand: an answer to another id, garbage,
    a length prefix over 64 MiB, one cut short."""
    def frame(body):
        return len(body).to_bytes(4, "little") + body
    yield frame(b'{"id":1,"result":"ok","value":{}}') + frame(b'{"id":3,"result":"rejected","rule":"X","offset":0}')
    yield frame(b"not json") + (64 << 20 | 1).to_bytes(4, "little") + b"{}"
    yield options(2, frame(b'{"id":1,"result":"error","message":"\xef\xbf\xbf"}') + frame(b'{"id":2,"result":"ok","hex":"0A"}')[:9])
    tool = imwire()
    if tool is None:
        return
    with tempfile.TemporaryDirectory() as work:
        for index, suite in enumerate(SUITES):
            requests, responses = os.path.join(work, "requests"), os.path.join(work, "responses")
            script = f"tee {requests} | {tool} conformance testee | tee {responses}"
            run_imwire("conformance", "run", "--suite", suite, "--format", "json", "-o", os.path.join(work, "report.json"),
                       "--fixtures", f"{ROOT}/Fixtures", "--", "sh", "-c", script)
            if not os.path.exists(responses):
                continue
            sent, answered = frames(open(requests, "rb").read()), frames(open(responses, "rb").read())
            # The target leaves out the cases whose request (with id 0) is over 16 KB
            # (TesteeFuzzing.maxRequest): their answers go, the others are numbered again.
            kept = []
            for request, response in zip(sent, answered):
                case = json.loads(request[4:])
                if len(request) - 4 - len(str(case["id"])) + 1 > 16384:
                    continue
                body = json.loads(response[4:])
                body["id"] = len(kept) + 1
                body = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
                kept.append(len(body).to_bytes(4, "little") + body)
            yield options(index << 4, head(kept))
            yield options(1 << 2 | index << 4, head(sent))


def proxy_openings():
    """ProxyOpening: what clients of `imwire proxy --explicit` send first (a CONNECT, plain-HTTP
    requests, SOCKS5, a ClientHello after them), whole and byte at a time (variant 1), with TLS
    sniffed (flag bit 4) and with the server unreachable (bit 5)."""
    hello = bytes.fromhex(
        "16030100c4010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece70000061301130313020100"
        "00910000000b0009000006736572766572ff01000100000a00140012001d00170018001901000101010201030104002300000033"
        "00260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020304000d002000"
        "1e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001")
    body = b"GET http://b.example/ HTTP/1.1\r\n\r\n"
    openings = [
        b"CONNECT rtm.example.com:443 HTTP/1.1\r\nHost: rtm.example.com:443\r\n\r\n" + hello,
        b"CONNECT [::1]:8443 HTTP/1.1\r\n\r\nfirst bytes",
        b"GET http://lbs.example.com/lbs/webconf.jsp?k=v HTTP/1.1\r\nHost: lbs.example.com\r\n\r\n"
        b"POST http://lbs.example.com/x HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        + b"GET http://other.example:81/ HTTP/1.1\r\n\r\n",
        b"GET http://a.example/ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n\x81\x00",
        b"\x05\x01\x00\x05\x01\x00\x03\x09localhost\x1f\x90" + hello,
        b"\x05\x02\x02\x00\x05\x01\x00\x01\x7f\x00\x00\x01\x01\xbb",
        b"\x05\x01\x00\x05\x01\x00\x04" + b"\x00" * 15 + b"\x01\x01\xbb",
        b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
        hello,
    ]
    for opening in openings:
        for flags in (0x00, 0x04, 0x10, 0x20, 0x30):
            yield (bytes([0, flags]) + opening) if flags else opening


def ws_frame(opcode, payload, masked):
    """One WebSocket frame, FIN set; masked with the key 0 (the payload as it is) when `masked`."""
    first = bytes([0x80 | opcode])
    mask = 0x80 if masked else 0
    if len(payload) < 126:
        first += bytes([mask | len(payload)])
    elif len(payload) < 0x10000:
        first += bytes([mask | 126]) + len(payload).to_bytes(2, "big")
    else:
        first += bytes([mask | 127]) + len(payload).to_bytes(8, "big")
    return first + (b"\0\0\0\0" if masked else b"") + payload


def nio_handlers():
    """NIOHandlers (flags: variant bits 2-3 the pipeline; extra bit 0, flag bit 4, the role: 0 server
    reading a client's masked frames, 1 client): the WebSocket fixtures' byte streams (variant 0,
    permessage-deflate as negotiated), MQTT and yun2win packets and sessions on TCP and in a
    binary frame (variant 1), engine.io and socket.io 0.9 fixtures in frames (variant 2), and the
    genuine SDKs' recordings (Fixtures/captures/vendor-sdk) as each side's frames (variant 3, the
    dialect in extra bits 1-2; yun2win also on the raw stream)."""
    for fixture in load("websocket/**/*.json"):
        given = fixture["input"]
        if fixture["layer"] == "handshake":
            continue
        offer = given.get("permessage_deflate") or ""
        deflate = 0 if not offer else 2 if "no_context_takeover" in offer else 1
        for role, key in ((0, "client_hex"), (1, "server_hex")):
            data = bytes.fromhex(given.get(key) or "")
            if data:
                yield options(role << 4 | deflate << 5, data)
                yield options(2 | role << 4 | deflate << 5 | 1 << 7, data)
    versions = {"3.1": 1, "3.1.1": 2}
    for pattern in ("mqtt/packet/*.json", "yun2win/packet/*.json"):
        for fixture in load(pattern):
            version = 3 if pattern.startswith("yun2win") else versions.get(fixture.get("encoding"), 0)
            data = bytes.fromhex(fixture["bytes_hex"])
            yield options(1 << 2 | version << 5, data)
            yield options(1 << 2 | version << 5 | 1 << 7, ws_frame(2, data, True))
    for fixture in load("yun2win/sessions/*.json"):
        for connection in fixture["input"]["connections"]:
            for role, direction in ((0, "send"), (1, "receive")):
                data = b"".join(bytes.fromhex(e["hex"]) for e in connection["events"] if e.get("dir") == direction and "hex" in e)
                if data:
                    yield options(1 << 2 | role << 4 | 3 << 5, data[:4000])
    for folder, kind in (("jmessage/engineio", 0), ("jmessage/event", 0), ("nim/socketio", 1), ("nim/packet", 1)):
        for fixture in load(f"{folder}/*.json"):
            role = 1 if fixture.get("direction") == "receive" else 0
            opcode = 2 if "bytes_hex" in fixture and kind == 0 else 1
            yield options(2 << 2 | role << 4 | kind << 5, ws_frame(opcode, fixture_bytes(fixture), role == 0))
    dialects = {"leancloud": 0, "nim": 1, "jmessage": 2, "yun2win": 3}
    for dialect, events, links in vendor_sdk_recordings():
        for role, direction in ((0, "send"), (1, "receive")):
            messages = []
            for event in events:
                if event.get("conn") != links[0] or event.get("dir") != direction:
                    continue
                if "text" in event:
                    messages.append((1, event["text"].encode()))
                elif "hex" in event:
                    messages.append((2, bytes.fromhex(event["hex"])))
            data = head([ws_frame(opcode, payload, role == 0) for opcode, payload in messages])
            if data:
                yield options(3 << 2 | role << 4 | dialects[dialect] << 5, data)
            if dialect == "yun2win" and messages:
                yield options(3 << 2 | role << 4 | 3 << 5 | 1 << 7, head([payload for _, payload in messages]))


SEEDS = {
    "LeanCloudBinary": lambda: leancloud({"protobuf"}),
    "LeanCloudDifferential": lambda: leancloud({"protobuf"}),
    "LeanCloudText": lambda: leancloud({"base64", "json"}),
    "Transcript": lines,
    "Checker": lambda: rendered(captures),
    "WebSocket": websocket_streams,
    "WebSocketHandshake": handshakes,
    "WebSocketDifferential": websocket_differential,
    "Compression": compression,
    "MQTT": mqtt,
    "SocketIO": socketio,
    "Pcap": pcaps,
    "Pcapng": pcapngs,
    "HAR": hars,
    "CaptureChecker": lambda: rendered(lambda: (data for source in (pcapngs, pcaps) for data in source())),
    "ReconnectEvents": reconnect_events,
    "TLS": tls,
    "KeyLog": key_logs,
    "Scenario": scenarios,
    "Serve": serve_clients,
    "MergeReports": merge_reports,
    "TesteeResponses": testee_responses,
    "NIOHandlers": nio_handlers,
    "ProxyOpening": proxy_openings,
}


def main():
    target = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "Corpus", target)
    os.makedirs(out, exist_ok=True)
    count = 0
    for data in SEEDS[target]():
        name = "seed-" + hashlib.sha1(data).hexdigest()
        with open(os.path.join(out, name), "wb") as fh:
            fh.write(data)
        count += 1
    print(f"{count} seeds in {os.path.relpath(out, HERE)}")


if __name__ == "__main__":
    main()
