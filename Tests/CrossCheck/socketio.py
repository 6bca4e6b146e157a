#!/usr/bin/env python3
"""Independent cross-check of the socket.io fixtures of Fixtures/nim/ and Fixtures/jmessage/.

engine.io 3 / socket.io protocol 4 (JMessage): every engine.io and JMessage event fixture is
parsed by python-engineio 3.14.2's and python-socketio 4.6.1's Packet classes (the releases that
speak EIO=3 / protocol 4, i.e. the JS socket.io 2.x the JMessage SDK bundles). For the clean
fixtures their packet type, namespace, id, attachment count and data must equal the fixture's
`decoded`, and python-socketio's encoder must give the fixture's text back (except a namespace
without data, which python-socketio writes without the comma socket.io-parser adds: counted as a
documented deviation). Malformed fixtures are counted by whether the oracle rejects them too.

socket.io 0.9 (NIM): no maintained parser exists. The fixtures are decoded by the packet module
of gevent-socketio 0.3.6 (2014, Python 2; two Python 2 spellings are rewritten when it is
loaded) and the U+FFFD payload framing by socketIO-client 0.5.7.4's `_yield_text_from_framed_data`;
both are independent of socket.io-client 0.9.11, whose grammar the fixtures follow. Every clean
0.9 packet (nim/socketio and the socket.io layer of nim/packet) must decode to the fixture's type,
id, ack, endpoint and data.

Run from the repository root: python3 Tests/CrossCheck/socketio.py. Installs what it needs in
Tests/CrossCheck/.venv-socketio; exits non-zero on any disagreement.
"""
import glob, importlib.util, json, os, subprocess, sys, tarfile, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, "Tests", "CrossCheck", ".venv-socketio")
PIP = ["python-engineio==3.14.2", "python-socketio==4.6.1", "six"]
LEGACY = ["gevent-socketio==0.3.6", "socketIO-client==0.5.7.4"]

def ensure_environment():
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", *PIP], check=True)
    os.execv(python, [python, *sys.argv])

ensure_environment()
# This folder holds websocket.py (another cross-check); engineio imports the `websocket` package.
sys.path = [entry for entry in sys.path if os.path.abspath(entry or ".") != os.path.dirname(os.path.abspath(__file__))]
from engineio import packet as eio_packet  # noqa: E402
from socketio import packet as sio_packet  # noqa: E402

LEGACY_DIR = os.path.join(VENV, "legacy")

def legacy_sources():
    """The two 0.9 parsers' source files, from their PyPI sdists (not installed: they need Python 2)."""
    if not os.path.exists(os.path.join(LEGACY_DIR, "done")):
        os.makedirs(LEGACY_DIR, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "-d", LEGACY_DIR, *LEGACY], check=True)
        for archive in glob.glob(os.path.join(LEGACY_DIR, "*.tar.gz")):
            with tarfile.open(archive) as tar:
                tar.extractall(LEGACY_DIR)
        open(os.path.join(LEGACY_DIR, "done"), "w").close()
    packet = glob.glob(os.path.join(LEGACY_DIR, "gevent-socketio-*", "socketio", "packet.py"))[0]
    transports = glob.glob(os.path.join(LEGACY_DIR, "socketIO-client-*", "socketIO_client", "transports.py"))[0]
    return packet, transports

def load_gevent_packet(path):
    source = open(path, encoding="utf-8").read()
    source = source.replace("from socketio.defaultjson import default_json_dumps, default_json_loads",
                            "import json\ndefault_json_dumps = json.dumps\ndefault_json_loads = json.loads")
    source = source.replace(".iteritems()", ".items()").replace("except ValueError, e:", "except ValueError as e:")
    module = type(sys)("gevent_socketio_packet")
    exec(compile(source, path, "exec"), module.__dict__)
    return module

def framed_splitter(path):
    source = open(path, encoding="utf-8").read()
    start = source.index("def _yield_text_from_framed_data")
    end = source.index("\ndef ", start + 10)
    namespace = {"_BOUNDARY": "\ufffd", "_log": type("L", (), {"warn": staticmethod(lambda *a: None)})}
    exec(source[start:end], namespace)
    return namespace["_yield_text_from_framed_data"]

PROBLEMS = []
STATS = {"eio_clean": 0, "eio_bad_rejected": 0, "eio_bad_accepted": 0, "encode_same": 0, "encode_deviation": 0,
         "v09_clean": 0, "v09_framed": 0, "v09_bad_rejected": 0, "v09_bad_accepted": 0}
SIO_TYPES = ["CONNECT", "DISCONNECT", "EVENT", "ACK", "ERROR", "BINARY_EVENT", "BINARY_ACK"]
EIO_TYPES = ["open", "close", "ping", "pong", "message", "upgrade", "noop"]

def fixtures(pattern):
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", pattern))):
        yield os.path.relpath(path, ROOT), json.load(open(path, encoding="utf-8"))

def raw_input(body):
    if "bytes_hex" in body:
        return bytes.fromhex(body["bytes_hex"])
    return body["text"]

def check_engineio():
    for path, body in list(fixtures("jmessage/engineio/*.json")) + list(fixtures("jmessage/event/*.json")):
        data = raw_input(body)
        clean = body["expect"] == "ok"
        try:
            if isinstance(data, bytes) and body.get("frame") != "binary":
                data.decode("utf-8")
            packet = eio_packet.Packet(encoded_packet=data if isinstance(data, bytes) and body.get("frame") == "binary" else
                                       (data.decode("utf-8") if isinstance(data, bytes) else data))
            sio = None
            if packet.packet_type == 4 and not packet.binary:
                text = packet.data if isinstance(packet.data, str) else json.dumps(packet.data)
                sio = sio_packet.Packet(encoded_packet=text)
                attachments = sio.attachment_count if hasattr(sio, "attachment_count") else None
        except Exception as error:  # the oracle rejects it
            if clean:
                PROBLEMS.append("%s: python-engineio/socketio reject a clean fixture: %s" % (path, error))
            else:
                STATS["eio_bad_rejected"] += 1
            continue
        if not clean:
            STATS["eio_bad_accepted"] += 1
            continue
        decoded = body["decoded"]
        expected_eio = decoded["engineio"]
        if EIO_TYPES[packet.packet_type] != expected_eio["type"]:
            PROBLEMS.append("%s: engine.io type %s" % (path, packet.packet_type))
        if packet.binary:
            if packet.data.hex() != expected_eio.get("binary_hex"):
                PROBLEMS.append("%s: binary data %s" % (path, packet.data.hex()))
        elif packet.packet_type != 4:
            expected = expected_eio.get("data", "")
            try:
                parsed = json.loads(expected)
                if isinstance(parsed, int): raise ValueError
            except ValueError:
                parsed = expected if expected else None
            if packet.data != parsed:
                PROBLEMS.append("%s: engine.io data %r, fixture %r" % (path, packet.data, parsed))
        expected_sio = decoded.get("socketio")
        if sio is not None:
            if expected_sio is None:
                PROBLEMS.append("%s: the oracle reads a socket.io packet, the fixture none" % path)
            else:
                got = {"type": SIO_TYPES[sio.packet_type], "nsp": sio.namespace or "/"}
                if sio.id is not None: got["id"] = sio.id
                count = int(text[1:text.index("-")]) if SIO_TYPES[sio.packet_type].startswith("BINARY") else None
                if count is not None: got["attachments"] = count
                if sio.data is not None: got["data"] = sio.data
                want = {k: v for k, v in expected_sio.items() if k != "query"}
                if got != want:
                    PROBLEMS.append("%s: python-socketio %s, fixture %s" % (path, got, want))
                reencoded = text if SIO_TYPES[sio.packet_type].startswith("BINARY") else sio_packet.Packet(
                    packet_type=sio.packet_type, namespace=sio.namespace, data=sio.data, id=sio.id, binary=False).encode()
                if isinstance(reencoded, list):
                    reencoded = reencoded[0]
                if SIO_TYPES[sio.packet_type].startswith("BINARY"):
                    pass  # python-socketio re-encodes placeholders only from real bytes
                elif reencoded == text:
                    STATS["encode_same"] += 1
                elif reencoded + "," == text or (sio.namespace and reencoded.replace(sio.namespace, sio.namespace + ",", 1) == text):
                    STATS["encode_deviation"] += 1
                else:
                    PROBLEMS.append("%s: python-socketio encodes %r, fixture %r" % (path, reencoded, text))
        STATS["eio_clean"] += 1

def check_v09(packet_module, split):
    cases = []
    for path, body in fixtures("nim/socketio/*.json"):
        cases.append((path, body, [p for p in (body.get("decoded") or {}).get("packets", [])]))
    for path, body in fixtures("nim/packet/*.json"):
        if body["expect"] == "ok":
            cases.append((path, body, [item["socketio"] for item in body["decoded"]]))
    for path, body, expected in cases:
        data = raw_input(body)
        clean = body["expect"] == "ok"
        try:
            text = data.decode("utf-8") if isinstance(data, bytes) else data
            texts = list(split(text)) if text.startswith("\ufffd") else [text]
            if text.startswith("\ufffd"):
                STATS["v09_framed"] += 1
            got = [packet_module.decode(t) for t in texts]
            if not texts: raise ValueError("no packet")
        except Exception as error:
            if clean:
                PROBLEMS.append("%s: gevent-socketio rejects a clean packet: %s" % (path, error))
            else:
                STATS["v09_bad_rejected"] += 1
            continue
        if not clean:
            STATS["v09_bad_accepted"] += 1
            continue
        for one, want in zip(got, expected):
            mapped = {"type": one["type"]}
            if "id" in one:
                mapped["id"] = one["id"]; mapped["ack"] = one["ack"]
            mapped["endpoint"] = one.get("endpoint", "")
            kind = one["type"]
            if kind == "connect": mapped["qs"] = one.get("qs", "")
            if kind in ("message", "json"): mapped["data"] = one.get("data")
            if kind == "event": mapped["name"] = one.get("name"); mapped["args"] = one.get("args", [])
            if kind == "ack": mapped["ack_id"] = one.get("ackId"); mapped["args"] = one.get("args", [])
            if kind == "error": mapped["reason"] = one.get("reason", ""); mapped["advice"] = one.get("advice", "")
            if mapped != want:
                PROBLEMS.append("%s: gevent-socketio %s, fixture %s" % (path, mapped, want))
        if len(got) != len(expected):
            PROBLEMS.append("%s: %d packets, fixture %d" % (path, len(got), len(expected)))
        STATS["v09_clean"] += 1

check_engineio()
packet_path, transports_path = legacy_sources()
check_v09(load_gevent_packet(packet_path), framed_splitter(transports_path))
for problem in PROBLEMS:
    print("DISAGREE", problem)
summary = ", ".join("%s %d" % item for item in STATS.items())
print("socket.io cross-check: %s; %d disagreements" % (summary, len(PROBLEMS)))
sys.exit(1 if PROBLEMS else 0)
