#!/usr/bin/env python3
"""Testee: python-engineio 3.14.2 + python-socketio 4.6.1 (argument `engineio`, suite engineio.3)
or gevent-socketio 0.3.6's packet module with socketIO-client 0.5.7.4's U+FFFD framing
(argument `v09`, suite socketio.0.9), decode and encode.

The libraries' packet objects are mapped to IMWire's canonical JSON as in
Tests/CrossCheck/socketio.py (engine.io `data` is the text after the type character the library
parsed; the socket.io packet is python-socketio's reading of it). A library exception is a
rejection (no offset). Runs in Tests/CrossCheck/.venv-socketio; the two 0.9 libraries are read
from their PyPI sdists there (they need Python 2; two spellings are rewritten when loaded).
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else "engineio"
EIO_TYPES = ["open", "close", "ping", "pong", "message", "upgrade", "noop"]
SIO_TYPES = ["CONNECT", "DISCONNECT", "EVENT", "ACK", "ERROR", "BINARY_EVENT", "BINARY_ACK"]
V09_TYPES = ["disconnect", "connect", "heartbeat", "message", "json", "event", "ack", "error", "noop"]


def name(table, index):
    return table[index] if 0 <= index < len(table) else index


# ---- engine.io 3 / socket.io protocol 4 -----------------------------------------------------

def engineio(operation, given, options):
    from engineio import packet as eio_packet
    from socketio import packet as sio_packet
    if operation == "encode":
        value = given["value"]
        eio = value["engineio"]
        kind = EIO_TYPES.index(eio["type"])
        if "binaryHex" in eio:
            encoded = eio_packet.Packet(kind, data=bytes.fromhex(eio["binaryHex"])).encode(b64=bool(eio.get("base64")))
        elif value.get("socketio") is not None:
            s = value["socketio"]
            if s["type"].startswith("BINARY"):
                return {"result": "unsupported", "message": "python-socketio encodes placeholders only from real bytes"}
            text = sio_packet.Packet(SIO_TYPES.index(s["type"]), data=s.get("data"), namespace=None if s["nsp"] == "/" else s["nsp"],
                                     id=s.get("id"), binary=False).encode()
            encoded = eio_packet.Packet(kind, data=text).encode()
        else:
            encoded = eio_packet.Packet(kind, data=eio.get("data") or None).encode()
        if isinstance(encoded, bytes):
            return harness.ok_bytes(encoded)
        return harness.ok_bytes(encoded.encode("utf-8"), text=True)
    data = harness.input_bytes(given)
    try:
        if options.get("frame") == "binary":
            packet = eio_packet.Packet(encoded_packet=data)
            return harness.ok_value({"engineio": {"type": name(EIO_TYPES, packet.packet_type), "binaryHex": bytes(packet.data).hex()},
                                     "socketio": None})
        text = data.decode("utf-8")
        packet = eio_packet.Packet(encoded_packet=text)
        if packet.binary:
            return harness.ok_value({"engineio": {"type": name(EIO_TYPES, packet.packet_type), "binaryHex": bytes(packet.data).hex(),
                                                  "base64": True}, "socketio": None})
        eio = {"type": name(EIO_TYPES, packet.packet_type), "data": text[1:]}
        sio = None
        if packet.packet_type == 4:
            s = sio_packet.Packet(encoded_packet=text[1:])
            sio = {"type": name(SIO_TYPES, s.packet_type), "nsp": s.namespace or "/"}
            if s.id is not None:
                sio["id"] = s.id
            if isinstance(sio["type"], str) and sio["type"].startswith("BINARY"):
                sio["attachments"] = s.attachment_count
            if s.data is not None:
                sio["data"] = s.data
        return harness.ok_value({"engineio": eio, "socketio": sio})
    except Exception as error:
        return harness.rejected("%s: %s" % (type(error).__name__, error))


# ---- socket.io 0.9 --------------------------------------------------------------------------

LEGACY_DIR = os.path.join(sys.prefix, "legacy")
_v09 = {}


def v09_libraries():
    if not _v09:
        path = glob.glob(os.path.join(LEGACY_DIR, "gevent-socketio-*", "socketio", "packet.py"))[0]
        source = open(path, encoding="utf-8").read()
        source = source.replace("from socketio.defaultjson import default_json_dumps, default_json_loads",
                                "import json\ndefault_json_dumps = json.dumps\ndefault_json_loads = json.loads")
        source = source.replace(".iteritems()", ".items()").replace("except ValueError, e:", "except ValueError as e:")
        module = type(sys)("gevent_socketio_packet")
        exec(compile(source, path, "exec"), module.__dict__)
        transports = glob.glob(os.path.join(LEGACY_DIR, "socketIO-client-*", "socketIO_client", "transports.py"))[0]
        source = open(transports, encoding="utf-8").read()
        start = source.index("def _yield_text_from_framed_data")
        end = source.index("\ndef ", start + 10)
        namespace = {"_BOUNDARY": "\ufffd", "_log": type("L", (), {"warn": staticmethod(lambda *a: None)})}
        exec(source[start:end], namespace)
        _v09.update(packet=module, split=namespace["_yield_text_from_framed_data"])
    return _v09["packet"], _v09["split"]


def v09_canonical(one):
    mapped = {"type": one["type"]}
    if "id" in one:
        mapped["id"] = one["id"]
        mapped["ack"] = one["ack"]
    mapped["endpoint"] = one.get("endpoint", "")
    kind = one["type"]
    if kind == "connect":
        mapped["qs"] = one.get("qs", "")
    if kind in ("message", "json"):
        mapped["data"] = one.get("data")
    if kind == "event":
        mapped["name"] = one.get("name")
        mapped["args"] = one.get("args", [])
    if kind == "ack":
        mapped["ackId"] = one.get("ackId")
        mapped["args"] = one.get("args", [])
    if kind == "error":
        mapped["reason"] = one.get("reason", "")
        mapped["advice"] = one.get("advice", "")
    return mapped


def v09_library_form(packet):
    out = {k: v for k, v in packet.items() if k not in ("ackId",)}
    if "ackId" in packet:
        out["ackId"] = packet["ackId"]
    return out


def v09(operation, given, options):
    module, split = v09_libraries()
    if operation == "encode":
        texts = [module.encode(v09_library_form(p)) for p in given["value"]["packets"]]
        text = texts[0] if len(texts) == 1 else "".join("\ufffd%d\ufffd%s" % (len(t), t) for t in texts)
        return harness.ok_bytes(text.encode("utf-8"), text=True)
    try:
        text = harness.input_bytes(given).decode("utf-8")
        texts = list(split(text)) if text.startswith("\ufffd") else [text]
        if not texts:
            raise ValueError("no packet")
        return harness.ok_value({"packets": [v09_canonical(module.decode(t)) for t in texts]})
    except Exception as error:
        return harness.rejected("%s: %s" % (type(error).__name__, error))


harness.serve({"engineio.3": engineio} if MODE == "engineio" else {"socketio.0.9": v09})
