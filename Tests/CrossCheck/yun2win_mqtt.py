#!/usr/bin/env python3
"""Independent cross-check of IMWire's MQTT 3.1/3.1.1 codec and yun2win dialect.

Part 1, fixtures: every MQTT packet in Fixtures/mqtt/packet and Fixtures/yun2win/packet is parsed
by scapy's MQTT layer (all 14 packet types) and, for the packets a client receives, by paho-mqtt's
own decoders (paho.mqtt._packet); their view must equal the fixture's `decoded` and what
`imwire decode --dialect mqtt` prints. For fixtures that expect findings, each expected rule is
re-derived from the parsed fields by a predicate written here (and the reported rule set must
equal the fixture's). yun2win payloads are re-read with Python's json module.

Part 2, live: a real mosquitto broker (Debian) on 127.0.0.1 and paho-mqtt clients using yun2win's
conventions (MQTT 3.1 like the Android SDK, 3.1.1 like the web and iOS SDKs: username = uid,
password = imToken, client id [0|1][platform]<uuid>, the platform keep-alive) connect through a
loopback relay that records the bytes of both directions. A second paho client plays the yun2win
server (returnCode 11, send acks, kick). Every recorded packet must decode with IMWire exactly as
paho logged sending or receiving it, with no error finding.

Run from the repository root: python3 Tests/CrossCheck/yun2win_mqtt.py
Installs what it needs (a venv with paho-mqtt and scapy; mosquitto with apt-get when missing),
builds imwire with `swift build` unless IMWIRE points at a binary. Exit 0 when everything agrees.
"""
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, "Tests", "CrossCheck", ".venv")
PIP_PACKAGES = ["paho-mqtt==2.2.0", "scapy==2.8.0"]


def ensure_environment():
    """Re-runs this script inside the venv that has paho-mqtt and scapy; installs mosquitto."""
    if shutil.which("mosquitto") is None and not os.path.exists("/usr/sbin/mosquitto"):
        subprocess.run(["apt-get", "update"], check=False, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "mosquitto"], check=True, stdout=subprocess.DEVNULL)
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", *PIP_PACKAGES], check=True)
    os.execv(python, [python, *sys.argv])


ensure_environment()

import paho.mqtt.client as paho  # noqa: E402
from paho.mqtt import _packet as paho_packet  # noqa: E402
from scapy.contrib import mqtt as smqtt  # noqa: E402
from scapy.error import Scapy_Exception  # noqa: E402

PROBLEMS = []
STATS = {"session_packets": 0, "fixtures": 0, "scapy": 0, "paho": 0, "paho_refused": 0, "rules": 0, "live_packets": 0, "live_connections": 0}


def problem(where, message):
    PROBLEMS.append(f"{where}: {message}")


def imwire_binary():
    if os.environ.get("IMWIRE"):
        return os.environ["IMWIRE"]
    subprocess.run(["swift", "build", "--product", "imwire"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()
    return os.path.join(path, "imwire")


IMWIRE = imwire_binary()


def imwire_decode_lines(dialect, version, hex_lines, direction=None):
    """One `imwire decode --lines` run: one JSON result per hex stream."""
    args = [IMWIRE, "decode", "--dialect", dialect, "--lines", "--show-secrets", "-"]
    if version:
        args += ["--mqtt-version", version]
    if direction:
        args += ["--direction", direction]
    out = subprocess.run(args, input="\n".join(hex_lines) + "\n", capture_output=True, text=True)
    if out.returncode not in (0, 1, 2):
        raise SystemExit(f"imwire decode failed: {out.stderr}")
    results = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    if len(results) != len(hex_lines):
        raise SystemExit(f"imwire decode gave {len(results)} results for {len(hex_lines)} lines")
    return results


# ---------------------------------------------------------------- scapy's view


def header_length(data):
    index = 1
    while index < len(data) and data[index] & 0x80 and index < 5:
        index += 1
    return index + 1


def text(data):
    return data.decode("utf-8", errors="replace")


def bytes_field(key, data):
    try:
        return {key: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {key + "Hex": data.hex()}


def scapy_parse(data):
    """The first packet only: the fixed header, then the bytes its remaining length covers."""
    first = smqtt.MQTT(data)
    end = header_length(data) + first.len
    return smqtt.MQTT(data[:end]) if end <= len(data) else first


def scapy_canonical(data, version):
    """The canonical JSON (as IMWire defines it) built from scapy's fields; None if scapy cannot."""
    p = scapy_parse(data)
    kind = p.type
    names = {1: "CONNECT", 2: "CONNACK", 3: "PUBLISH", 4: "PUBACK", 5: "PUBREC", 6: "PUBREL", 7: "PUBCOMP",
             8: "SUBSCRIBE", 9: "SUBACK", 10: "UNSUBSCRIBE", 11: "UNSUBACK", 12: "PINGREQ", 13: "PINGRESP",
             14: "DISCONNECT"}
    if kind not in names:
        return None
    out = {"type": names[kind]}
    if kind == 1:
        c = p[smqtt.MQTTConnect]
        out.update({"protocolName": text(c.protoname), "protocolLevel": c.protolevel, "cleanSession": bool(c.cleansess),
                    "keepAlive": c.klive, "clientId": text(c.clientId)})
        if c.willflag:
            out["will"] = {"topic": text(c.willtopic), **bytes_field("message", c.willmsg), "qos": c.willQOSflag,
                           "retain": bool(c.willretainflag)}
        if c.usernameflag:
            out["username"] = text(c.username)
        if c.passwordflag:
            out.update(bytes_field("password", c.password))
    elif kind == 2:
        c = p[smqtt.MQTTConnack]
        out.update({"sessionPresent": version == "3.1.1" and bool(c.sessPresentFlag & 1), "returnCode": c.retcode})
    elif kind == 3:
        c = p[smqtt.MQTTPublish]
        out.update({"dup": bool(p.DUP), "qos": p.QOS, "retain": bool(p.RETAIN), "topic": text(c.topic)})
        if p.QOS in (1, 2):
            out["packetId"] = c.msgid
        out.update(bytes_field("payload", c.value))
    elif kind in (4, 5, 6, 7, 11):
        layer = {4: smqtt.MQTTPuback, 5: smqtt.MQTTPubrec, 6: smqtt.MQTTPubrel, 7: smqtt.MQTTPubcomp,
                 11: smqtt.MQTTUnsuback}[kind]
        out["packetId"] = p[layer].msgid
        if kind == 6 and p.DUP:
            out["dup"] = True
    elif kind == 8:
        c = p[smqtt.MQTTSubscribe]
        out.update({"packetId": c.msgid, "subscriptions": [{"topicFilter": text(t.topic), "qos": min(t.QOS & 3, 2)}
                                                            for t in c.topics]})
        if p.DUP:
            out["dup"] = True
    elif kind == 9:
        c = p[smqtt.MQTTSuback]
        out.update({"packetId": c.msgid, "returnCodes": list(c.retcodes or [])})
    elif kind == 10:
        c = p[smqtt.MQTTUnsubscribe]
        out.update({"packetId": c.msgid, "topicFilters": [text(t.topic) for t in c.topics]})
    return out


# ---------------------------------------------------------------- paho's view (packets a client receives)

PAHO_TYPES = {2: "CONNACK", 3: "PUBLISH", 4: "PUBACK", 5: "PUBREC", 6: "PUBREL", 7: "PUBCOMP", 9: "SUBACK",
              11: "UNSUBACK", 13: "PINGRESP"}


def paho_fields(data, version):
    """paho-mqtt's decoding of a packet it would receive: a dict of the fields paho exposes."""
    protocol = paho.MQTTv31 if version == "3.1" else paho.MQTTv311
    hl = header_length(data)
    command, body = data[0], data[hl:]
    kind = command >> 4
    if kind == 2:
        r = paho_packet.decode_connack(command, body, protocol)
        return {"type": "CONNACK", "sessionPresent": bool(r.flags & 1) if version == "3.1.1" else False,
                "returnCode": r.rc}
    if kind == 3:
        r = paho_packet.decode_publish(command, body, protocol)
        out = {"type": "PUBLISH", "dup": bool(r.dup), "qos": r.qos, "retain": bool(r.retain), "topic": text(r.topic)}
        if r.qos:
            out["packetId"] = r.mid
        out.update(bytes_field("payload", r.payload))
        return out
    if kind in (4, 5, 6, 7):
        decode = {4: paho_packet.decode_puback, 5: paho_packet.decode_pubrec, 6: paho_packet.decode_pubrel,
                  7: paho_packet.decode_pubcomp}[kind]
        out = {"type": PAHO_TYPES[kind], "packetId": decode(command, body, protocol).mid}
        if kind == 6 and command & 0x08:
            out["dup"] = True
        return out
    if kind == 9:
        r = paho_packet.decode_suback(command, body, protocol)
        return {"type": "SUBACK", "packetId": r.mid, "returnCodes": list(r.granted_qos)}
    if kind == 11:
        return {"type": "UNSUBACK", "packetId": paho_packet.decode_unsuback(command, body, protocol).mid}
    if kind == 13:
        return {"type": "PINGRESP"}
    return None


# ---------------------------------------------------------------- rule predicates (independent of IMWire)

REQUIRED_FLAGS = {6: 2, 8: 2, 10: 2}
VENDOR_CONNACK = {6, 7, 99, 100}


def filter_problem(f):
    if not f:
        return True
    levels = f.split("/")
    for i, level in enumerate(levels):
        if "#" in level and (level != "#" or i != len(levels) - 1):
            return True
        if "+" in level and level != "+":
            return True
    return False


def json_payload(p):
    try:
        return json.loads(p[smqtt.MQTTPublish].value)
    except ValueError:
        return None


CONN_TRAVEL = {2: "connack", 3: "connack", 4: "connack", 5: "connack", 6: "connack", 7: "connack", 99: "connack",
               100: "connack", 10: "publish", 11: "publish", 101: "local"}
SEND_TRAVEL = {20: "publish", 22: "publish", 26: "publish", 27: "publish", 28: "publish", 30: "publish", 31: "publish",
               1000: "publish", 21: "local", 23: "local", 24: "local", 25: "local", 29: "local"}
PLATFORM = {"0": (4, 300), "1": (3, 30), "2": (4, 60)}


def uuid_like(s):
    parts = s.split("-")
    return [len(x) for x in parts] == [8, 4, 4, 4, 12] and all(c in "0123456789abcdefABCDEF" for c in "".join(parts))


def predicate(rule, data, version, direction):
    """True when the rule's condition holds for these bytes, judged from scapy's fields and json."""
    kind = data[0] >> 4
    flags = data[0] & 0x0F
    hl = header_length(data)
    if rule == "MQTT.REMAINING-LENGTH-OVERLONG":
        return len(data) >= 5 and all(b & 0x80 for b in data[1:5])
    if rule == "MQTT.PACKET-TYPE-RESERVED":
        return kind in (0, 15)
    if rule == "MQTT.REMAINING-LENGTH-NON-MINIMAL":
        return hl > 2 and data[hl - 1] == 0
    p = scapy_parse(data)
    body_len = p.len
    if rule == "MQTT.TRUNCATED":
        return hl + body_len > len(data)
    if rule == "MQTT.FIXED-HEADER-FLAGS":
        return version == "3.1.1" and kind != 3 and flags != REQUIRED_FLAGS.get(kind, 0)
    if rule == "MQTT.FIXED-HEADER-FLAGS-V31":
        return version == "3.1" and kind != 3 and flags not in (REQUIRED_FLAGS.get(kind, 0), 0x0A if kind in REQUIRED_FLAGS else -1)
    if rule == "MQTT.TRAILING-BYTES":
        return (kind in (4, 5, 6, 7, 11) and body_len > 2) or (kind in (12, 13, 14) and body_len > 0)
    if rule == "MQTT.FIELD-OVERRUN":
        if kind in (4, 5, 6, 7, 11):
            return body_len < 2
        if kind == 3:
            return body_len < 2 or int.from_bytes(data[hl:hl + 2], "big") + 2 > body_len
        return False
    if rule == "MQTT.PUBLISH-QOS-INVALID":
        return kind == 3 and p.QOS == 3
    if rule == "MQTT.PUBLISH-DUP-QOS0":
        return kind == 3 and p.DUP == 1 and p.QOS == 0
    if rule == "MQTT.STRING-NUL":
        return kind == 3 and b"\x00" in p[smqtt.MQTTPublish].topic
    if rule == "MQTT.STRING-INVALID-UTF8":
        try:
            p[smqtt.MQTTPublish].topic.decode("utf-8")
            return False
        except UnicodeDecodeError:
            return True
    if rule == "MQTT.TOPIC-WILDCARD":
        return kind == 3 and any(c in p[smqtt.MQTTPublish].topic for c in b"+#")
    if rule == "MQTT.TOPIC-EMPTY":
        return kind == 3 and p[smqtt.MQTTPublish].length == 0
    if rule == "MQTT.PACKET-ID-ZERO":
        return kind == 3 and p.QOS in (1, 2) and p[smqtt.MQTTPublish].msgid == 0
    if kind == 1:
        c = p[smqtt.MQTTConnect]
        level = c.protolevel if c.protolevel in (3, 4) else (3 if c.protoname == b"MQIsdp" else 4)
        checks = {
            "MQTT.PASSWORD-WITHOUT-USERNAME": c.passwordflag == 1 and c.usernameflag == 0,
            "MQTT.CONNECT-RESERVED-FLAG": c.reserved == 1,
            "MQTT.WILL-FLAGS-INCONSISTENT": c.willflag == 0 and (c.willQOSflag != 0 or c.willretainflag != 0),
            "MQTT.PROTOCOL-NAME-INVALID": c.protoname not in (b"MQTT", b"MQIsdp"),
            "MQTT.PROTOCOL-LEVEL-UNSUPPORTED": c.protolevel not in (3, 4),
            "MQTT.PROTOCOL-NAME-LEVEL-MISMATCH": (c.protoname, c.protolevel) in ((b"MQIsdp", 4), (b"MQTT", 3)),
            "MQTT.CLIENT-ID-EMPTY": c.clientIdlen == 0 and (level == 3 or c.cleansess == 0),
            "MQTT.CLIENT-ID-TOO-LONG-V31": level == 3 and len(text(c.clientId)) > 23,
            "Y2W.CONNECT-USERNAME-MISSING": c.usernameflag == 0 or not c.username,
            "Y2W.CONNECT-PASSWORD-MISSING": c.passwordflag == 0 or not c.password,
        }
        cid = text(c.clientId)
        prefixed = len(cid) >= 2 and cid[0] in "01" and cid[1] in "012"
        checks["Y2W.CLIENT-ID-FORMAT"] = not prefixed or not uuid_like(cid[2:])
        if prefixed:
            want_level, want_keep = PLATFORM[cid[1]]
            checks["Y2W.CONNECT-CONVENTION"] = (c.protolevel != want_level or c.klive != want_keep
                                                 or not c.cleansess or c.willflag)
        return checks.get(rule, False)
    if kind == 2:
        c = p[smqtt.MQTTConnack]
        return {
            "MQTT.CONNACK-SESSION-PRESENT-ON-REFUSAL": version == "3.1.1" and c.sessPresentFlag & 1 and c.retcode != 0,
            "MQTT.CONNACK-FLAGS-RESERVED": c.sessPresentFlag & (0xFF if version == "3.1" else 0xFE) != 0,
            "MQTT.CONNACK-RETURN-CODE-RESERVED": c.retcode > 5 and (direction is None or c.retcode not in VENDOR_CONNACK),
            "Y2W.CONNACK-CODE-UNUSED": c.retcode == 1,
            "Y2W.RETURN-CODE-WRONG-TRAVEL": SEND_TRAVEL.get(c.retcode) == "publish" or CONN_TRAVEL.get(c.retcode) == "publish",
            "Y2W.CLIENT-LOCAL-CODE-ON-WIRE": "local" in (SEND_TRAVEL.get(c.retcode), CONN_TRAVEL.get(c.retcode)),
            "Y2W.RETURN-CODE-UNKNOWN": c.retcode not in CONN_TRAVEL and c.retcode not in SEND_TRAVEL and c.retcode > 1,
        }.get(rule, False)
    if kind == 8 or kind == 10:
        layer = p[smqtt.MQTTSubscribe] if kind == 8 else p[smqtt.MQTTUnsubscribe]
        return {
            "MQTT.PAYLOAD-EMPTY": len(layer.topics) == 0,
            "MQTT.TOPIC-FILTER-INVALID": any(filter_problem(text(t.topic)) for t in layer.topics),
            "MQTT.SUBSCRIBE-QOS-INVALID": kind == 8 and any(t.QOS > 2 for t in layer.topics),
        }.get(rule, False)
    if kind == 9:
        codes = list(p[smqtt.MQTTSuback].retcodes or [])
        valid = {0, 1, 2} | ({0x80} if version == "3.1.1" else set())
        return rule == "MQTT.SUBACK-RETURN-CODE-INVALID" and any(code not in valid for code in codes)
    if kind == 3:
        topic = text(p[smqtt.MQTTPublish].topic)
        obj = json_payload(p)
        if rule == "Y2W.PAYLOAD-NOT-JSON":
            return not isinstance(obj, dict)
        if not isinstance(obj, dict):
            return False
        if direction == "receive":
            code = obj.get("returnCode")
            acked = "y2wMessageId" in obj
            table = SEND_TRAVEL if acked else CONN_TRAVEL
            other = CONN_TRAVEL if acked else SEND_TRAVEL
            return {
                "Y2W.FIELD-INVALID": not isinstance(code, int),
                "Y2W.CLIENT-LOCAL-CODE-ON-WIRE": isinstance(code, int) and "local" in (table.get(code), other.get(code)),
                "Y2W.RETURN-CODE-WRONG-TRAVEL": isinstance(code, int) and (table.get(code) == "connack" or
                                                                           (code not in table and other.get(code) in ("publish", "connack"))),
                "Y2W.RETURN-CODE-UNKNOWN": isinstance(code, int) and code not in table and code not in other,
                "Y2W.ACK-MTS-MISSING": acked and code in (27, 28) and "mts" not in obj,
            }.get(rule, False)
        cmd = obj.get("cmd")
        allowed = {"sendMessage": {"cmd", "y2wMessageId", "mts", "message"},
                   "updateSession": {"cmd", "y2wMessageId", "mts", "members", "force", "message"},
                   "updateToken": {"cmd", "token"}}
        syncs = obj.get("message", {}).get("syncs", []) if isinstance(obj.get("message"), dict) else []
        return {
            "Y2W.CMD-MISSING": cmd is None,
            "Y2W.CMD-UNKNOWN": cmd is not None and cmd not in allowed,
            "Y2W.MESSAGE-ID-MISSING": cmd in ("sendMessage", "updateSession") and not isinstance(obj.get("y2wMessageId"), str),
            "Y2W.MTS-INVALID": cmd in ("sendMessage", "updateSession") and not isinstance(obj.get("mts"), (int, float)),
            "Y2W.FIELD-INVALID": cmd == "updateSession" and not isinstance(obj.get("members"), list),
            "Y2W.UNKNOWN-KEY": cmd in allowed and bool(set(obj) - allowed[cmd]),
            "Y2W.APP-MESSAGE-INVALID": any(isinstance(s.get("type"), int) and s["type"] not in range(5) for s in syncs),
            "Y2W.TOPIC-UNKNOWN": not topic.startswith("y2w/"),
            "Y2W.TOPIC-COMMAND-MISMATCH": (cmd == "updateToken") != topic.startswith("y2w/single") and topic.startswith("y2w/"),
            "Y2W.PUBLISH-CONVENTION": p.QOS != 0 or p.RETAIN == 1,
        }.get(rule, False)
    return False


# ---------------------------------------------------------------- part 1: fixtures


def check_fixtures():
    fixtures = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "mqtt", "packet", "*.json")) +
                       glob.glob(os.path.join(ROOT, "Fixtures", "yun2win", "packet", "*.json"))):
        with open(path) as f:
            fixtures.append((os.path.relpath(path, ROOT), json.load(f)))
    by_version = {}
    for name, fx in fixtures:
        by_version.setdefault(fx.get("encoding", "3.1.1"), []).append((name, fx))
    for version, group in by_version.items():
        # imwire's MQTT view, and for yun2win fixtures its full view (for the rule set).
        mqtt_results = imwire_decode_lines("mqtt", version, [fx["bytes_hex"] for _, fx in group])
        for (name, fx), result in zip(group, mqtt_results):
            check_fixture(name, fx, version, result)
            if fx["dialect"] == "mqtt":
                check_rules(name, fx, version, None, result)
        y2w = [(n, fx) for n, fx in group if fx["dialect"] == "yun2win"]
        for direction in ("send", "receive"):
            subset = [(n, fx) for n, fx in y2w if fx.get("direction") == direction]
            if not subset:
                continue
            results = imwire_decode_lines("yun2win", version, [fx["bytes_hex"] for _, fx in subset], direction)
            for (name, fx), result in zip(subset, results):
                check_rules(name, fx, version, direction, result)
    check_json_fixtures()
    check_session_packets()


def check_session_packets():
    """Every packet of the sample sessions reads the same with scapy and with imwire."""
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "yun2win", "sessions", "*.json"))):
        fx = json.load(open(path))
        STATS["fixtures"] += 1
        for connection in fx["input"]["connections"]:
            events = connection["events"]
            first = bytes.fromhex(events[0]["hex"])
            version = "3.1" if first[0] >> 4 == 1 and scapy_parse(first)[smqtt.MQTTConnect].protolevel == 3 else "3.1.1"
            results = imwire_decode_lines("mqtt", version, [e["hex"] for e in events])
            for event, result in zip(events, results):
                data = bytes.fromhex(event["hex"])
                theirs = scapy_canonical(data, version)
                ours = [p["decoded"] for p in result["packets"]]
                STATS["session_packets"] += 1
                if ours != [theirs]:
                    problem(path, f"event at t={event['t']}: imwire {ours} != scapy {theirs}")


def expected_rules(fx):
    expect = fx["expect"]
    if expect == "ok":
        return []
    return [e["rule"] for e in (expect if isinstance(expect, list) else [expect])]


def check_fixture(name, fx, version, result):
    STATS["fixtures"] += 1
    data = bytes.fromhex(fx["bytes_hex"])
    decoded = fx["decoded"]
    expected = decoded.get("mqtt") if fx["dialect"] == "yun2win" and decoded is not None else decoded
    packets = result["packets"]
    if len(packets) != 1:
        problem(name, f"imwire decoded {len(packets)} packets")
        return
    ours = packets[0]["decoded"]
    if ours != expected:
        problem(name, f"imwire {ours} != fixture {expected}")
    try:
        theirs = scapy_canonical(data, version)
    except (Scapy_Exception, IndexError, AttributeError, TypeError):
        theirs = None  # scapy cannot read it either
    if expected is not None:
        STATS["scapy"] += 1
        if theirs != expected:
            problem(name, f"scapy {theirs} != fixture {expected}")
        if data[0] >> 4 in PAHO_TYPES:
            STATS["paho"] += 1
            try:
                paho_view = paho_fields(data, version)
            except Exception as exc:  # paho refuses what it finds malformed
                paho_view = f"refused: {exc}"
            if isinstance(paho_view, str) and expected_rules(fx):
                STATS["paho_refused"] += 1  # paho rejects a packet the fixture flags: they agree it is malformed
            elif paho_view != expected:
                problem(name, f"paho {paho_view} != fixture {expected}")


def check_rules(name, fx, version, direction, result):
    """Each expected rule holds by an independent predicate; imwire's reported set equals the fixture's."""
    data = bytes.fromhex(fx["bytes_hex"])
    for rule in expected_rules(fx):
        STATS["rules"] += 1
        try:
            holds = predicate(rule, data, version, direction if fx["dialect"] == "yun2win" else None)
        except Exception as exc:
            holds = False
            problem(name, f"predicate for {rule} failed: {exc}")
        if not holds:
            problem(name, f"independent check does not confirm {rule}")
    if result is not None:
        reported = sorted(f["rule"] for p in result["packets"] for f in p["findings"] if f["severity"] != "info")
        if reported != sorted(expected_rules(fx)):
            problem(name, f"imwire reports {reported}, fixture expects {sorted(expected_rules(fx))}")


def check_json_fixtures():
    """yun2win payload and gate fixtures: Python's json / urllib read the same values."""
    from urllib.parse import parse_qsl
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "yun2win", "payload", "*.json"))):
        fx = json.load(open(path))
        STATS["fixtures"] += 1
        obj = json.loads(fx["text"])
        y2w = fx["decoded"]
        command = y2w.get("command")
        if command is not None and command != obj:
            problem(path, f"json {obj} != decoded command {command}")
        if y2w["kind"] in ("send-ack", "connection-return-code") and obj.get("returnCode") != y2w["returnCode"]:
            problem(path, "returnCode differs")
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "yun2win", "gate", "*.json"))):
        fx = json.load(open(path))
        STATS["fixtures"] += 1
        body = fx["text"]
        parsed = json.loads(body) if body.startswith("{") else dict(parse_qsl(body, keep_blank_values=True))
        if fx["decoded"] is not None and parsed != fx["decoded"]:
            problem(path, f"{parsed} != {fx['decoded']}")
        ok = parsed.get("oper") == "register" if fx["encoding"] == "request" else (
            parsed.get("rtnval") == "success" and bool(parsed.get("data", {}).get("url")))
        if ok != (fx["expect"] == "ok"):
            problem(path, "verdict differs from the fixture")


# ---------------------------------------------------------------- part 2: live broker, clients and relay


class Relay:
    """A loopback TCP relay: records (time, direction, bytes) for each connection it carries."""

    def __init__(self, target_port):
        self.target = target_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.connections = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            record = []
            self.connections.append(record)
            for source, sink, direction in ((client, upstream, "send"), (upstream, client, "receive")):
                threading.Thread(target=self.pump, args=(source, sink, direction, record), daemon=True).start()

    @staticmethod
    def pump(source, sink, direction, record):
        while True:
            try:
                chunk = source.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                try:
                    sink.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            record.append((time.monotonic(), direction, chunk))
            sink.sendall(chunk)

    def close(self):
        self.server.close()


def start_broker(workdir):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    conf = os.path.join(workdir, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_type none\n")
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([binary, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("mosquitto did not start")


class Logged:
    """A paho client whose debug log lines and callbacks are kept."""

    def __init__(self, client_id, protocol, keepalive, uid, token, port):
        self.log = []
        self.messages = []
        self.events = {"connect": threading.Event(), "subscribe": threading.Event(), "unsubscribe": threading.Event(),
                       "message": threading.Event()}
        self.granted = None
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol,
                                  clean_session=True)
        if uid is not None:
            self.client.username_pw_set(uid, token)
        self.client.on_log = lambda c, u, level, line: self.log.append(line)
        self.client.on_connect = lambda c, u, f, rc, p: self.events["connect"].set()
        self.client.on_subscribe = self.on_subscribe
        self.client.on_unsubscribe = lambda c, u, mid, rc, p: self.events["unsubscribe"].set()
        self.client.on_message = self.on_message
        self.client.connect("127.0.0.1", port, keepalive=keepalive)
        self.client.loop_start()

    def on_subscribe(self, client, userdata, mid, reason_codes, properties):
        self.granted = [int(rc.value) for rc in reason_codes]
        self.events["subscribe"].set()

    def on_message(self, client, userdata, message):
        self.messages.append(message)
        self.events["message"].set()

    def wait(self, name, timeout=5):
        if not self.events[name].wait(timeout):
            raise SystemExit(f"timed out waiting for {name}")
        self.events[name].clear()

    def stop(self):
        self.client.disconnect()
        time.sleep(0.3)
        self.client.loop_stop()


def run_scenario(version, platform_digit, keepalive, uuid, relay, broker_port):
    """One yun2win-style client session through the relay; returns (paho log, messages, record)."""
    uid = f"u{platform_digit}001"
    protocol = paho.MQTTv31 if version == "3.1" else paho.MQTTv311
    before = len(relay.connections)
    server = Logged("server-emulator-" + platform_digit, paho.MQTTv311, 60, None, None, broker_port)
    server.wait("connect")
    client = Logged(f"0{platform_digit}{uuid}", protocol, keepalive, uid, "imtoken-" + platform_digit, relay.port)
    client.wait("connect")
    inbox = f"y2w/{uid}"
    client.client.subscribe(inbox, qos=1)  # a stock broker needs it; yun2win's server delivers implicitly
    client.wait("subscribe")
    server.client.publish(inbox, json.dumps({"returnCode": 11}, separators=(",", ":")), qos=0)
    client.wait("message")
    session = "y2w/session/p2p_2001"
    send = {"cmd": "sendMessage", "y2wMessageId": "m-1", "mts": 1479460000000,
            "message": {"syncs": [{"type": 0}, {"type": 1, "sessionId": "p2p_2001"}], "pns": {"msg": "您有一条新消息"}}}
    update = {"cmd": "updateSession", "y2wMessageId": "m-2", "mts": 1479460000000,
              "members": [{"uid": uid, "isDel": False}], "force": True, "message": {}}
    client.client.publish(session, json.dumps(send, ensure_ascii=False, separators=(",", ":")).encode(), qos=0)
    client.client.publish(session, json.dumps(update, separators=(",", ":")), qos=1).wait_for_publish(5)
    client.client.publish(session, json.dumps({**send, "y2wMessageId": "m-3"}, ensure_ascii=False,
                                              separators=(",", ":")).encode(), qos=2).wait_for_publish(5)
    for ack in ({"y2wMessageId": "m-1", "returnCode": 20}, {"y2wMessageId": "m-2", "returnCode": 28, "mts": 1479460000999}):
        server.client.publish(inbox, json.dumps(ack, separators=(",", ":")), qos=1)
        client.wait("message")
    server.client.publish(inbox, json.dumps({"y2wMessageId": "m-3", "returnCode": 20}, separators=(",", ":")),
                          qos=2)
    client.wait("message")
    client.client._send_pingreq()  # paho sends PINGREQ only when idle for the keep-alive
    time.sleep(0.3)
    client.client.unsubscribe(inbox)
    client.wait("unsubscribe")
    client.stop()
    server.stop()
    time.sleep(0.2)
    records = relay.connections[before:]
    return client, records


def paho_view(log):
    """(direction, fields) for each packet paho logged sending or receiving."""
    import re
    out = []
    for line in log:
        m = re.match(r"(Sending|Received) (\w+)(.*)", line)
        if not m:
            continue
        direction = "send" if m.group(1) == "Sending" else "receive"
        kind, rest = m.group(2), m.group(3)
        fields = {"type": kind}
        if kind == "CONNECT":
            f = re.match(r" \(u(\d), p(\d), wr(\d), wq(\d), wf(\d), c(\d), k(\d+)\) client_id=b'([^']*)'", rest)
            u, pw, wr, wq, wf, c, k, cid = f.groups()
            fields.update({"username": u == "1", "password": pw == "1", "will": wf == "1", "cleanSession": c == "1",
                           "keepAlive": int(k), "clientId": cid})
        elif kind == "PUBLISH":
            f = re.match(r" \(d(\d), q(\d), r(\d), m(\d+)\), '(?:b')?([^']*)'?'?, .*\((\d+) bytes\)", rest)
            d, q, r, mid, topic, size = f.groups()
            fields.update({"dup": d == "1", "qos": int(q), "retain": r == "1", "topic": topic, "size": int(size)})
            if int(q):
                fields["packetId"] = int(mid)
        elif kind in ("PUBACK", "PUBREC", "PUBREL", "PUBCOMP", "UNSUBACK"):
            fields["packetId"] = int(re.search(r"Mid: (\d+)", rest).group(1))
        elif kind in ("SUBSCRIBE", "UNSUBSCRIBE"):
            fields["packetId"] = int(re.search(r"m(\d+)\)", rest).group(1))
        elif kind == "CONNACK":
            f = re.match(r" \((\d+), (\d+)\)", rest)
            fields.update({"flags": int(f.group(1)), "returnCode": int(f.group(2))})
        out.append((direction, fields))
    return out


def imwire_view(packet):
    d = packet["decoded"]["mqtt"]
    fields = {"type": d["type"]}
    if d["type"] == "CONNECT":
        fields.update({"username": "username" in d, "password": "password" in d or "passwordHex" in d,
                       "will": "will" in d, "cleanSession": d["cleanSession"], "keepAlive": d["keepAlive"],
                       "clientId": d["clientId"]})
    elif d["type"] == "PUBLISH":
        payload = d["payload"].encode() if "payload" in d else bytes.fromhex(d["payloadHex"])
        fields.update({"dup": d["dup"], "qos": d["qos"], "retain": d["retain"], "topic": d["topic"], "size": len(payload)})
        if d["qos"]:
            fields["packetId"] = d["packetId"]
    elif d["type"] in ("PUBACK", "PUBREC", "PUBREL", "PUBCOMP", "UNSUBACK", "SUBSCRIBE", "UNSUBSCRIBE"):
        fields["packetId"] = d["packetId"]
    elif d["type"] == "CONNACK":
        fields.update({"flags": 1 if d["sessionPresent"] else 0, "returnCode": d["returnCode"]})
    return fields


def check_live():
    workdir = tempfile.mkdtemp(prefix="y2w-mqtt-")
    broker, port = start_broker(workdir)
    relay = Relay(port)
    uuids = {"1": "0b9f6c1e-7d2a-4e8b-9c3f-2a1b0c9d8e7f", "0": "5f0c8e8a-1b2c-4d3e-8f90-a1b2c3d4e5f6",
             "2": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}
    try:
        for version, digit, keepalive in (("3.1", "1", 30), ("3.1.1", "0", 300), ("3.1.1", "2", 60)):
            where = f"live MQTT {version} platform {digit}"
            client, records = run_scenario(version, digit, keepalive, uuids[digit], relay, port)
            if len(records) != 1:
                problem(where, f"expected one relayed connection, saw {len(records)}")
                continue
            STATS["live_connections"] += 1
            record = records[0]
            streams = {d: b"".join(chunk for _, way, chunk in record if way == d) for d in ("send", "receive")}
            ours = []
            for direction in ("send", "receive"):
                result = imwire_decode_lines("yun2win", version, [streams[direction].hex()], direction)[0]
                for packet in result["packets"]:
                    STATS["live_packets"] += 1
                    if packet["decoded"] is None:
                        problem(where, f"{direction} packet at {packet['offset']} did not decode: {packet['findings']}")
                        continue
                    errors = [f["rule"] for f in packet["findings"] if f["severity"] == "error"]
                    if errors:
                        problem(where, f"{direction} {packet['summary']}: error findings {errors}")
                    ours.append((direction, imwire_view(packet), packet))
            theirs = paho_view(client.log)
            for direction in ("send", "receive"):
                a = [f for d, f in theirs if d == direction]
                b = [f for d, f, _ in ours if d == direction]
                if a != b:
                    problem(where, f"{direction}: paho logged {a}\n    imwire decoded {b}")
            # Payloads: what paho delivered equals what imwire decoded, byte for byte.
            received = [p["decoded"]["mqtt"] for d, f, p in ours if d == "receive" and f["type"] == "PUBLISH"]
            delivered = [m.payload for m in client.messages]
            decoded_payloads = [(r["payload"].encode() if "payload" in r else bytes.fromhex(r["payloadHex"])) for r in received]
            if delivered != decoded_payloads:
                problem(where, f"paho delivered {delivered}, imwire decoded {decoded_payloads}")
            kinds = [y["yun2win"]["kind"] for _, _, p in ours if (y := p["decoded"])["yun2win"] is not None]
            for kind in ("connect", "connack", "command", "connection-return-code", "send-ack"):
                if kind not in kinds:
                    problem(where, f"no {kind} seen by the yun2win decoder (saw {sorted(set(kinds))})")
    finally:
        relay.close()
        broker.terminate()
        broker.wait(5)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    check_fixtures()
    check_live()
    for line in PROBLEMS:
        print("DISAGREE", line)
    s = STATS
    print(f"yun2win_mqtt: {s['fixtures']} fixtures ({s['scapy']} against scapy, {s['paho']} against paho, "
          f"{s['paho_refused']} of them refused by paho as malformed, {s['rules']} expected rules re-derived, {s['session_packets']} sample-session packets against scapy); live mosquitto: {s['live_connections']} connections, "
          f"{s['live_packets']} packets compared with paho's log; {len(PROBLEMS)} disagreements")
    sys.exit(1 if PROBLEMS else 0)
