#!/usr/bin/env python3
"""Independent cross-check of the socket.io fixtures of Fixtures/nim/ and Fixtures/jmessage/.

engine.io 3 / socket.io protocol 4 (JMessage): every engine.io and JMessage event fixture is
parsed by python-engineio 3.14.2's and python-socketio 4.6.1's Packet classes (the releases that
speak EIO=3 / protocol 4, i.e. the JS socket.io 2.x the JMessage SDK bundles). For the clean
fixtures their packet type, namespace, id, attachment count and data must equal the fixture's
`decoded`, and python-socketio's encoder must give the fixture's text back (except a namespace
without data, which python-socketio writes without the comma socket.io-parser adds: counted as a
documented deviation).

Malformed fixtures are compared too. Those malformed above socket.io (a JM.* or NIM.* rule: the
transport is well-formed) must be accepted by the oracle and read as the packet the text spells.
Those malformed at the transport (EIO.*, SIO.*) are where the oracles, lenient parsers that
validate little, and IMWire part: which of them each oracle accepts, with what it reads, and
which it rejects, with the exception, is pinned in TRANSPORT_VERDICTS, so a change on either
side (a new fixture, another oracle release, a fixture that changed) is a disagreement.

socket.io 0.9 (NIM): no maintained parser exists. The fixtures are decoded by the packet module
of gevent-socketio 0.3.6 (2014, Python 2; two Python 2 spellings are rewritten when it is
loaded) and the U+FFFD payload framing by socketIO-client 0.5.7.4's `_yield_text_from_framed_data`;
both are independent of socket.io-client 0.9.11, whose grammar the fixtures follow. Every clean
0.9 packet (nim/socketio and the socket.io layer of nim/packet) must decode to the fixture's type,
id, ack, endpoint and data.

Run from the repository root: python3 Tests/CrossCheck/socketio.py. Installs what it needs in
Tests/CrossCheck/.venv-socketio; exits non-zero on any disagreement.
"""
import glob, importlib.util, json, os, re, subprocess, sys, tarfile, tempfile

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
STATS = {"eio_clean": 0, "eio_bad_dialect": 0, "eio_bad_rejected": 0, "eio_bad_accepted": 0, "encode_same": 0, "encode_deviation": 0,
         "v09_clean": 0, "v09_framed": 0, "v09_bad_dialect": 0, "v09_bad_rejected": 0, "v09_bad_accepted": 0}

# What the oracles do with the transport-level malformed fixtures: ("accepts", what they read) or
# ("rejects", the exception's class), and why they differ from IMWire, which reports each one.
# python-engineio 3.14.2 / python-socketio 4.6.1 (engine.io 3, socket.io 4):
TRANSPORT_VERDICTS = {
    "jmessage/engineio/bad-ack-no-id": ("accepts", 'eio 4 / sio 3 nsp None id None data [1]', "an ACK without id: no id check"),
    "jmessage/engineio/bad-attachments": ("accepts", 'eio 4 / sio 5 nsp None id None data ["x"]', "the attachment count is not matched with placeholders"),
    "jmessage/engineio/bad-attachments-count": ("rejects", "JSONDecodeError", "'x' is read as the start of the JSON data"),
    "jmessage/engineio/bad-base64": ("accepts", "eio 4 binary b''", "Python's b64decode drops the non-alphabet characters"),
    "jmessage/engineio/bad-binary-type": ("accepts", "eio 9 binary b'\\x01'", "no range check of the type byte"),
    "jmessage/engineio/bad-close-data": ("accepts", 'eio 1 data "bye"', "data after close is kept"),
    "jmessage/engineio/bad-connect-data": ("accepts", 'eio 4 / sio 0 nsp None id None data {"token": 1}', "CONNECT data (protocol 5 auth) is parsed for any type"),
    "jmessage/engineio/bad-empty": ("accepts", "eio 6 data null", "an empty string decodes as noop"),
    "jmessage/engineio/bad-event-empty": ("accepts", "eio 4 / sio 2 nsp None id None data []", "no event-name check"),
    "jmessage/engineio/bad-event-name": ("accepts", "eio 4 / sio 2 nsp None id None data [1, 2]", "no event-name check"),
    "jmessage/engineio/bad-event-object": ("accepts", 'eio 4 / sio 2 nsp None id None data {"a": 1}', "EVENT data is not required to be an array"),
    "jmessage/engineio/bad-id-overflow": ("accepts", 'eio 4 / sio 2 nsp None id 99999999999999999 data ["e"]', "Python ints have no 2^53 limit"),
    "jmessage/engineio/bad-json": ("rejects", "JSONDecodeError", "truncated JSON"),
    "jmessage/engineio/bad-namespace-comma": ("accepts", "eio 4 / sio 0 nsp /chat id None data null", "the namespace ends at the comma or the end"),
    "jmessage/engineio/bad-open-json": ("accepts", 'eio 0 data "not json"', "open data that is not JSON is kept as text"),
    "jmessage/engineio/bad-open-sid": ("accepts", 'eio 0 data {"sid": 1}', "the open handshake is not validated"),
    "jmessage/engineio/bad-sio-type": ("accepts", "eio 4 / sio 9 nsp None id None data null", "no range check of the socket.io type"),
    "jmessage/engineio/bad-type-7": ("accepts", "eio 7 data null", "no range check of the engine.io type"),
    "jmessage/engineio/bad-type-letter": ("accepts", "eio 72 data null", "the type is ord(char) - 48, unchecked"),
    "jmessage/engineio/bad-utf8": ("rejects", "UnicodeDecodeError", "a text frame must be UTF-8"),
    # gevent-socketio 0.3.6 packet module and socketIO-client 0.5.7.4 framing (socket.io 0.9):
    "nim/socketio/bad-ack-args": ("accepts", '[{"ackId": 1, "args": {}, "endpoint": "", "type": "ack"}]', "ack args are not required to be an array"),
    "nim/socketio/bad-ack-id": ("rejects", "ValueError", "int('x')"),
    "nim/socketio/bad-error-reason": ("rejects", "KeyError", "reason 5 is not in its table"),
    "nim/socketio/bad-event-args": ("accepts", '[{"args": {}, "endpoint": "", "name": "e", "type": "event"}]', "event args are not required to be an array"),
    "nim/socketio/bad-event-array": ("rejects", "TypeError", "the event JSON is indexed by 'name'"),
    "nim/socketio/bad-event-no-name": ("rejects", "KeyError", "no 'name'"),
    "nim/socketio/bad-framing-length": ("rejects", "ValueError", "the splitter yields no packet"),
    "nim/socketio/bad-heartbeat-data": ("accepts", '[{"endpoint": "", "type": "heartbeat"}]', "heartbeat data is dropped"),
    "nim/socketio/bad-id": ("rejects", "ValueError", "int('a')"),
    "nim/socketio/bad-id-overflow": ("accepts", '[{"ack": true, "data": "x", "endpoint": "", "id": 99999999999999999, "type": "message"}]',
                                     "Python ints have no 2^53 limit"),
    "nim/socketio/bad-json": ("rejects", "JSONDecodeError", "json data that is not JSON"),
    "nim/socketio/bad-no-colon": ("rejects", "IndexError", "no ':' to split at"),
    "nim/socketio/bad-type-9": ("rejects", "Exception", "unknown message type"),
    "nim/socketio/bad-type-letters": ("rejects", "ValueError", "int('x1')"),
    "nim/socketio/bad-utf8": ("rejects", "UnicodeDecodeError", "a text frame must be UTF-8"),
}
OBSERVED = {}

def fixture_name(path):
    return os.path.splitext(os.path.relpath(path, os.path.join(ROOT, "Fixtures")) if os.path.isabs(path) else path[len("Fixtures/"):])[0]

def dialect_level(body):
    """Malformed above socket.io: every expected rule is the dialect's own."""
    return all(item["rule"].startswith(("JM.", "NIM.")) for item in body["expect"])

def eio_reading(packet, sio):
    if packet.binary:
        return "eio %d binary %r" % (packet.packet_type, packet.data)
    if sio is None:
        return "eio %d data %s" % (packet.packet_type, json.dumps(packet.data))
    return "eio %d / sio %d nsp %s id %s data %s" % (packet.packet_type, sio.packet_type, sio.namespace, sio.id, json.dumps(sio.data))
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
            elif dialect_level(body):
                PROBLEMS.append("%s: python-engineio/socketio reject a fixture malformed only above socket.io: %s" % (path, error))
            else:
                STATS["eio_bad_rejected"] += 1
                OBSERVED[fixture_name(path)] = ("rejects", type(error).__name__)
            continue
        if not clean and dialect_level(body):
            # The text is 4<socket.io type>[id]<JSON> by construction: the oracle must read that.
            spelled = re.match(r"^4(\d)(\d*)([\s\S]*)$", body["text"])
            want = (4, int(spelled.group(1)), None, int(spelled.group(2)) if spelled.group(2) else None, json.loads(spelled.group(3)))
            got = (packet.packet_type, sio.packet_type if sio else None, sio.namespace if sio else None, sio.id if sio else None,
                   sio.data if sio else None)
            if got != want:
                PROBLEMS.append("%s: python-socketio reads %s, the text spells %s" % (path, got, want))
            STATS["eio_bad_dialect"] += 1
            continue
        if not clean:
            STATS["eio_bad_accepted"] += 1
            OBSERVED[fixture_name(path)] = ("accepts", eio_reading(packet, sio))
            continue
        decoded = body["decoded"]
        expected_eio = decoded["engineio"]
        if EIO_TYPES[packet.packet_type] != expected_eio["type"]:
            PROBLEMS.append("%s: engine.io type %s" % (path, packet.packet_type))
        if packet.binary:
            if packet.data.hex() != expected_eio.get("binaryHex"):
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
        elif dialect_level(body):
            cases.append((path, body, [v09_spelled(body["text"])]))
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
            elif dialect_level(body):
                PROBLEMS.append("%s: gevent-socketio rejects a packet malformed only above socket.io: %s" % (path, error))
            else:
                STATS["v09_bad_rejected"] += 1
                OBSERVED[fixture_name(path)] = ("rejects", type(error).__name__)
            continue
        if not clean and not dialect_level(body):
            STATS["v09_bad_accepted"] += 1
            OBSERVED[fixture_name(path)] = ("accepts", json.dumps(got, sort_keys=True))
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
            if kind == "ack": mapped["ackId"] = one.get("ackId"); mapped["args"] = one.get("args", [])
            if kind == "error": mapped["reason"] = one.get("reason", ""); mapped["advice"] = one.get("advice", "")
            if mapped != want:
                PROBLEMS.append("%s: gevent-socketio %s, fixture %s" % (path, mapped, want))
        if len(got) != len(expected):
            PROBLEMS.append("%s: %d packets, fixture %d" % (path, len(got), len(expected)))
        STATS["v09_clean" if clean else "v09_bad_dialect"] += 1

def v09_spelled(text):
    """The 0.9 packet a dialect-level malformed NIM fixture's text spells (type:id:endpoint:data)."""
    m = re.match(r"^(\d):(\d*)(\+?):([^:]*):([\s\S]*)$", text)
    kind = ["disconnect", "connect", "heartbeat", "message", "json", "event", "ack", "error", "noop"][int(m.group(1))]
    out = {"type": kind, "endpoint": m.group(4)}
    if kind == "message": out["data"] = m.group(5)
    if kind == "event":
        value = json.loads(m.group(5)); out["name"] = value["name"]; out["args"] = value.get("args", [])
    return out

def compare_verdicts():
    for name in sorted(set(TRANSPORT_VERDICTS) | set(OBSERVED)):
        if name not in OBSERVED:
            PROBLEMS.append("%s: a pinned oracle verdict without its malformed fixture" % name)
        elif name not in TRANSPORT_VERDICTS:
            PROBLEMS.append("%s: a malformed fixture without a pinned oracle verdict: the oracle %s %s" % ((name,) + OBSERVED[name]))
        elif OBSERVED[name] != TRANSPORT_VERDICTS[name][:2]:
            PROBLEMS.append("%s: the oracle %s %s, pinned %s %s" % ((name,) + OBSERVED[name] + TRANSPORT_VERDICTS[name][:2]))
    accepted = sorted(name for name, (verdict, _) in OBSERVED.items() if verdict == "accepts")
    print("malformed transport fixtures the oracles accept (%d): %s" % (len(accepted), " ".join(accepted)))

check_engineio()
packet_path, transports_path = legacy_sources()
check_v09(load_gevent_packet(packet_path), framed_splitter(transports_path))
compare_verdicts()
for problem in PROBLEMS:
    print("DISAGREE", problem)
summary = ", ".join("%s %d" % item for item in STATS.items())
print("socket.io cross-check: %s; %d disagreements" % (summary, len(PROBLEMS)))
sys.exit(1 if PROBLEMS else 0)
