#!/usr/bin/env python3
"""Writes the MQTT and yun2win golden fixtures (Fixtures/mqtt/packet, Fixtures/yun2win/*).

The bytes, the decoded forms and the expected findings are built here, in Python, from the
MQTT 3.1 / 3.1.1 specifications and yun2win.md, independently of the Swift codec; the fixtures
were then checked by `imwire fixtures verify` (Swift) and by Tests/CrossCheck/yun2win_mqtt.py
(scapy and paho-mqtt) before being committed. Run once; the JSON files are the frozen record.

Usage: scripts/generate-mqtt-yun2win-fixtures.py   (from the repository root)
"""
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCAPY = "scapy 2.8.0 (scapy.contrib.mqtt)"
PAHO = "paho-mqtt 2.2.0 (paho.mqtt._packet decoders)"
PYJSON = "Python 3 json"
PAHO_RECEIVES = {"CONNACK", "PUBLISH", "PUBACK", "PUBREC", "PUBREL", "PUBCOMP", "SUBACK", "UNSUBACK", "PINGRESP"}

# ---------------------------------------------------------------- MQTT building blocks


def u16(n):
    return struct.pack(">H", n)


def mstr(value):
    data = value.encode() if isinstance(value, str) else value
    return u16(len(data)) + data


def vbi(n):
    out = bytearray()
    while True:
        digit, n = n % 128, n // 128
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def packet(first, body):
    return bytes([first]) + vbi(len(body)) + body


def text_or_hex(key, data):
    try:
        return {key: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {key + "Hex": data.hex()}


def connect(version, client_id, keep_alive, clean=True, username=None, password=None, will=None):
    name, level = ("MQIsdp", 3) if version == "3.1" else ("MQTT", 4)
    flags = (0x02 if clean else 0) | (0x80 if username is not None else 0) | (0x40 if password is not None else 0)
    if will:
        flags |= 0x04 | will["qos"] << 3 | (0x20 if will["retain"] else 0)
    body = mstr(name) + bytes([level, flags]) + u16(keep_alive) + mstr(client_id)
    decoded = {"type": "CONNECT", "protocolName": name, "protocolLevel": level, "cleanSession": clean,
               "keepAlive": keep_alive, "clientId": client_id}
    if will:
        body += mstr(will["topic"]) + mstr(will["message"])
        decoded["will"] = {"topic": will["topic"], **text_or_hex("message", will["message"]), "qos": will["qos"],
                           "retain": will["retain"]}
    if username is not None:
        body += mstr(username)
        decoded["username"] = username
    if password is not None:
        pw = password.encode() if isinstance(password, str) else password
        body += mstr(pw)
        decoded.update(text_or_hex("password", pw))
    return packet(0x10, body), decoded


def connack(code, session_present=False):
    return packet(0x20, bytes([1 if session_present else 0, code])), \
        {"type": "CONNACK", "sessionPresent": session_present, "returnCode": code}


def publish(topic, payload, qos=0, dup=False, retain=False, pid=None):
    data = payload.encode() if isinstance(payload, str) else payload
    body = mstr(topic) + (u16(pid) if qos else b"") + data
    decoded = {"type": "PUBLISH", "dup": dup, "qos": qos, "retain": retain, "topic": topic}
    if qos:
        decoded["packetId"] = pid
    decoded.update(text_or_hex("payload", data))
    return packet(0x30 | (0x08 if dup else 0) | qos << 1 | (1 if retain else 0), body), decoded


def ack(kind, pid, first):
    return packet(first, u16(pid)), {"type": kind, "packetId": pid}


def subscribe(pid, subs):
    body = u16(pid) + b"".join(mstr(t) + bytes([q]) for t, q in subs)
    return packet(0x82, body), {"type": "SUBSCRIBE", "packetId": pid,
                                "subscriptions": [{"topicFilter": t, "qos": q} for t, q in subs]}


def suback(pid, codes):
    return packet(0x90, u16(pid) + bytes(codes)), {"type": "SUBACK", "packetId": pid, "returnCodes": codes}


def unsubscribe(pid, topics):
    return packet(0xA2, u16(pid) + b"".join(mstr(t) for t in topics)), \
        {"type": "UNSUBSCRIBE", "packetId": pid, "topicFilters": topics}


def bare(kind, first):
    return bytes([first, 0]), {"type": kind}


# ---------------------------------------------------------------- fixture files

COUNT = {}


def write(rel, description, dialect, layer, expect="ok", decoded=None, data=None, text=None, input=None,
          encoding=None, direction=None, source="", verified_by=()):
    fixture = {"description": description, "dialect": dialect, "layer": layer}
    if encoding:
        fixture["encoding"] = encoding
    if direction:
        fixture["direction"] = direction
    if data is not None:
        fixture["bytes_hex"] = data.hex()
    if text is not None:
        fixture["text"] = text
    if input is not None:
        fixture["input"] = input
    fixture["decoded"] = decoded
    fixture["expect"] = expect
    fixture["verified_by"] = list(verified_by)
    fixture["source"] = source
    path = os.path.join(ROOT, "Fixtures", dialect, layer, rel + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        json.dump(fixture, out, indent=2, ensure_ascii=False)
        out.write("\n")
    COUNT[(dialect, layer, expect == "ok")] = COUNT.get((dialect, layer, expect == "ok"), 0) + 1


def finding(rule, offset):
    return {"rule": rule, "offset": offset}


def mqtt_verifiers(kind):
    return [SCAPY] + ([PAHO] if kind in PAHO_RECEIVES else [])


# ---------------------------------------------------------------- MQTT packet fixtures

SPEC311 = "MQTT 3.1.1 (OASIS) §3"
SPEC31 = "MQTT 3.1 (IBM/Eurotech 2010) §3"


def mqtt_packets():
    for version in ("3.1", "3.1.1"):
        v = "v31" if version == "3.1" else "v311"
        spec = SPEC31 if version == "3.1" else SPEC311
        cases = [
            ("connect", connect(version, "client-1", 60, username="user", password="secret")),
            ("connect-will", connect(version, "client-2", 0, clean=False,
                                     will={"topic": "status/client-2", "message": b"\x00offline", "qos": 1, "retain": True})),
            ("connack", connack(0, session_present=(version == "3.1.1"))),
            ("connack-refused", connack(5)),
            ("publish-qos0", publish("a/b", '{"x":1}')),
            ("publish-qos1", publish("a/b", b"\xff\xfe", qos=1, pid=10)),
            ("publish-qos2-retain-dup", publish("a/b/c", "", qos=2, dup=True, retain=True, pid=65535)),
            ("puback", ack("PUBACK", 10, 0x40)),
            ("pubrec", ack("PUBREC", 11, 0x50)),
            ("pubrel", ack("PUBREL", 11, 0x62)),
            ("pubcomp", ack("PUBCOMP", 11, 0x70)),
            ("subscribe", subscribe(1, [("y2w/u1", 0), ("sport/+/score", 1), ("#", 2)])),
            ("suback", suback(1, [0, 1, 0x80] if version == "3.1.1" else [0, 1, 2])),
            ("unsubscribe", unsubscribe(2, ["y2w/u1", "sport/#"])),
            ("unsuback", ack("UNSUBACK", 2, 0xB0)),
            ("pingreq", bare("PINGREQ", 0xC0)),
            ("pingresp", bare("PINGRESP", 0xD0)),
            ("disconnect", bare("DISCONNECT", 0xE0)),
        ]
        for name, (data, decoded) in cases:
            write(f"{v}-{name}", f"MQTT {version} {decoded['type']} ({name})", "mqtt", "packet", decoded=decoded,
                  data=data, encoding=version, source=spec, verified_by=mqtt_verifiers(decoded["type"]))

    # 3.1 allows DUP on a re-sent SUBSCRIBE.
    data, decoded = subscribe(3, [("a", 1)])
    data = bytes([0x8A]) + data[1:]
    decoded["dup"] = True
    write("v31-subscribe-resent-dup", "MQTT 3.1 SUBSCRIBE re-sent with DUP (allowed in 3.1)", "mqtt", "packet",
          decoded=decoded, data=data, encoding="3.1", source="MQTT 3.1 §2.1 (DUP)", verified_by=[SCAPY])
    big = "x" * 200
    data, decoded = publish("t", big)
    write("v311-publish-2-byte-length", "PUBLISH whose remaining length needs two bytes", "mqtt", "packet",
          decoded=decoded, data=data, encoding="3.1.1", source="MQTT 3.1.1 §2.2.3", verified_by=mqtt_verifiers("PUBLISH"))


def bad(name, description, data, expect, decoded=None, version="3.1.1", source=SPEC311, kind=None):
    write(f"bad-{name}", description, "mqtt", "packet", expect=expect, decoded=decoded, data=data, encoding=version,
          source=source, verified_by=mqtt_verifiers(kind) if kind else [SCAPY])


def mqtt_malformed():
    bad("remaining-length-5-bytes", "Remaining length in 5 bytes (ff ff ff ff 7f)",
        bytes([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), [finding("MQTT.REMAINING-LENGTH-OVERLONG", 4)], kind="PUBLISH",
        source="MQTT 3.1.1 §2.2.3")
    bad("remaining-length-non-minimal", "PINGRESP with remaining length 0 written as 80 00",
        bytes([0xD0, 0x80, 0x00]), [finding("MQTT.REMAINING-LENGTH-NON-MINIMAL", 1)], decoded={"type": "PINGRESP"},
        kind="PINGRESP", source="MQTT 3.1.1 §2.2.3")
    bad("publish-qos3", "PUBLISH with QoS 3", bytes([0x36]) + vbi(5) + mstr("a") + u16(1),
        [finding("MQTT.PUBLISH-QOS-INVALID", 0)], kind="PUBLISH", source="MQTT 3.1.1 [MQTT-3.3.1-4]")
    d = publish("a", "x")
    bad("publish-dup-qos0", "PUBLISH with DUP and QoS 0", bytes([0x38]) + d[0][1:],
        [finding("MQTT.PUBLISH-DUP-QOS0", 0)], decoded={**d[1], "dup": True}, kind="PUBLISH",
        source="MQTT 3.1.1 [MQTT-3.3.1-2]")
    d = publish("a\x00b", "")
    bad("topic-nul", "PUBLISH topic containing U+0000", d[0], [finding("MQTT.STRING-NUL", 5)], decoded=d[1],
        kind="PUBLISH", source="MQTT 3.1.1 [MQTT-1.5.3-2]")
    d = publish("y2w/session/#", "{}")
    bad("topic-wildcard-hash", "PUBLISH topic with the # wildcard", d[0], [finding("MQTT.TOPIC-WILDCARD", 16)],
        decoded=d[1], kind="PUBLISH", source="MQTT 3.1.1 [MQTT-3.3.2-2]")
    d = publish("a/+/b", "")
    bad("topic-wildcard-plus", "PUBLISH topic with the + wildcard", d[0], [finding("MQTT.TOPIC-WILDCARD", 6)],
        decoded=d[1], kind="PUBLISH", source="MQTT 3.1.1 [MQTT-3.3.2-2]")
    d = publish("", "x")
    bad("topic-empty", "PUBLISH with a zero-length topic", d[0], [finding("MQTT.TOPIC-EMPTY", 2)], decoded=d[1],
        kind="PUBLISH", source="MQTT 3.1.1 [MQTT-4.7.3-1]")
    bad("topic-invalid-utf8", "PUBLISH topic with an invalid UTF-8 sequence (c3 28)",
        packet(0x30, u16(2) + b"\xc3\x28"), [finding("MQTT.STRING-INVALID-UTF8", 5)],
        decoded={"type": "PUBLISH", "dup": False, "qos": 0, "retain": False, "topic": "\ufffd(", "payload": ""},
        kind="PUBLISH", source="MQTT 3.1.1 [MQTT-1.5.3-1]")
    bad("publish-qos1-packet-id-0", "QoS 1 PUBLISH with packet identifier 0", publish("a", "x", qos=1, pid=0)[0],
        [finding("MQTT.PACKET-ID-ZERO", 5)], decoded=publish("a", "x", qos=1, pid=0)[1], kind="PUBLISH",
        source="MQTT 3.1.1 [MQTT-2.3.1-1]")
    data, decoded = connect("3.1.1", "c", 60, password="secret")
    bad("connect-password-without-username", "CONNECT with a password and no user name", data,
        [finding("MQTT.PASSWORD-WITHOUT-USERNAME", 9)], decoded=decoded, source="MQTT 3.1.1 [MQTT-3.1.2-22]")
    data, decoded = connect("3.1.1", "c", 60)
    bad("connect-reserved-flag", "CONNECT flags with the reserved bit 0 set", data[:9] + bytes([data[9] | 1]) + data[10:],
        [finding("MQTT.CONNECT-RESERVED-FLAG", 9)], decoded=decoded, source="MQTT 3.1.1 [MQTT-3.1.2-3]")
    bad("connect-will-qos-without-will", "CONNECT with will QoS 1 and no will flag", data[:9] + bytes([data[9] | 0x08]) + data[10:],
        [finding("MQTT.WILL-FLAGS-INCONSISTENT", 9)], decoded=decoded, source="MQTT 3.1.1 [MQTT-3.1.2-11]")
    bad("connect-protocol-name", "CONNECT with protocol name MQTX",
        data[:4] + b"MQTX" + data[8:], [finding("MQTT.PROTOCOL-NAME-INVALID", 4)],
        decoded={**decoded, "protocolName": "MQTX"}, source="MQTT 3.1.1 [MQTT-3.1.2-1]")
    bad("connect-protocol-level-5", "CONNECT with protocol level 5 (MQTT 5 is not spoken here)",
        data[:8] + b"\x05" + data[9:], [finding("MQTT.PROTOCOL-LEVEL-UNSUPPORTED", 8)],
        decoded={**decoded, "protocolLevel": 5}, source="MQTT 3.1.1 [MQTT-3.1.2-2]")
    data31, decoded31 = connect("3.1", "c", 60)
    bad("connect-mqisdp-level-4", "CONNECT naming MQIsdp with level 4", data31[:10] + b"\x04" + data31[11:],
        [finding("MQTT.PROTOCOL-NAME-LEVEL-MISMATCH", 10)], decoded={**decoded31, "protocolLevel": 4},
        source="MQTT 3.1 §3.1; MQTT 3.1.1 §3.1.2.1")
    data, decoded = connect("3.1", "", 30)
    bad("connect-v31-empty-client-id", "MQTT 3.1 CONNECT with an empty client id", data,
        [finding("MQTT.CLIENT-ID-EMPTY", 14)], decoded=decoded, version="3.1", source="MQTT 3.1 §3.1")
    data, decoded = connect("3.1.1", "", 30, clean=False)
    bad("connect-empty-client-id-persistent", "MQTT 3.1.1 CONNECT with an empty client id and clean session 0", data,
        [finding("MQTT.CLIENT-ID-EMPTY", 12)], decoded=decoded, source="MQTT 3.1.1 [MQTT-3.1.3-8]")
    bad("pubrel-flags-0000", "PUBREL with flags 0000 under 3.1.1", bytes([0x60, 2, 0, 1]),
        [finding("MQTT.FIXED-HEADER-FLAGS", 0)], decoded={"type": "PUBREL", "packetId": 1}, kind="PUBREL",
        source="MQTT 3.1.1 [MQTT-3.6.1-1]")
    bad("v31-pubrel-flags-0000", "PUBREL with flags 0000 under 3.1 (a warning there)", bytes([0x60, 2, 0, 1]),
        [finding("MQTT.FIXED-HEADER-FLAGS-V31", 0)], decoded={"type": "PUBREL", "packetId": 1}, version="3.1",
        kind="PUBREL", source="MQTT 3.1 §3.6")
    bad("subscribe-flags-0000", "SUBSCRIBE with flags 0000", bytes([0x80]) + subscribe(1, [("a", 0)])[0][1:],
        [finding("MQTT.FIXED-HEADER-FLAGS", 0)], decoded=subscribe(1, [("a", 0)])[1], source="MQTT 3.1.1 [MQTT-3.8.1-1]")
    bad("pingreq-flags", "PINGREQ with flags 0001", bytes([0xC1, 0]), [finding("MQTT.FIXED-HEADER-FLAGS", 0)],
        decoded={"type": "PINGREQ"}, source="MQTT 3.1.1 [MQTT-2.2.2-2]")
    bad("reserved-type-15", "Control packet type 15 (reserved in 3.1/3.1.1)", bytes([0xF0, 0]),
        [finding("MQTT.PACKET-TYPE-RESERVED", 0)], source="MQTT 3.1.1 §2.2.1")
    bad("reserved-type-0", "Control packet type 0 (reserved)", bytes([0x00, 1, 0]),
        [finding("MQTT.PACKET-TYPE-RESERVED", 0)], source="MQTT 3.1.1 §2.2.1")
    bad("disconnect-with-body", "DISCONNECT with a 1-byte body", bytes([0xE0, 1, 0]),
        [finding("MQTT.TRAILING-BYTES", 2)], decoded={"type": "DISCONNECT"}, source="MQTT 3.1.1 §3.14")
    bad("puback-remaining-length-3", "PUBACK with remaining length 3", bytes([0x40, 3, 0, 1, 0]),
        [finding("MQTT.TRAILING-BYTES", 4)], decoded={"type": "PUBACK", "packetId": 1}, kind="PUBACK",
        source="MQTT 3.1.1 §3.4")
    bad("puback-remaining-length-1", "PUBACK with remaining length 1", bytes([0x40, 1, 0]),
        [finding("MQTT.FIELD-OVERRUN", 2)], kind="PUBACK", source="MQTT 3.1.1 §3.4")
    bad("publish-topic-length-past-end", "PUBLISH whose topic length runs past the packet", bytes([0x30, 3, 0, 5, 0x61]),
        [finding("MQTT.FIELD-OVERRUN", 4)], kind="PUBLISH", source="MQTT 3.1.1 §1.5.3")
    bad("truncated", "PUBLISH announcing 10 bytes, only 3 present", bytes([0x30, 10, 0, 1, 0x61]),
        [finding("MQTT.TRUNCATED", 5)], kind="PUBLISH", source="MQTT 3.1.1 §2.2.3")
    bad("connack-session-present-refused", "CONNACK with session present and return code 5", bytes([0x20, 2, 1, 5]),
        [finding("MQTT.CONNACK-SESSION-PRESENT-ON-REFUSAL", 2)],
        decoded={"type": "CONNACK", "sessionPresent": True, "returnCode": 5}, kind="CONNACK",
        source="MQTT 3.1.1 [MQTT-3.2.2-4]")
    bad("v31-connack-flags", "MQTT 3.1 CONNACK with a non-zero first byte", bytes([0x20, 2, 1, 0]),
        [finding("MQTT.CONNACK-FLAGS-RESERVED", 2)], decoded={"type": "CONNACK", "sessionPresent": False, "returnCode": 0},
        version="3.1", kind="CONNACK", source="MQTT 3.1 §3.2")
    bad("connack-return-code-9", "CONNACK return code 9 (reserved)", bytes([0x20, 2, 0, 9]),
        [finding("MQTT.CONNACK-RETURN-CODE-RESERVED", 3)], decoded={"type": "CONNACK", "sessionPresent": False, "returnCode": 9},
        kind="CONNACK", source="MQTT 3.1.1 §3.2.2.3")
    bad("subscribe-no-topics", "SUBSCRIBE without a topic filter", bytes([0x82, 2, 0, 1]),
        [finding("MQTT.PAYLOAD-EMPTY", 4)], decoded={"type": "SUBSCRIBE", "packetId": 1, "subscriptions": []},
        source="MQTT 3.1.1 [MQTT-3.8.3-3]")
    d = subscribe(1, [("a/#/b", 0)])
    bad("subscribe-hash-not-last", "SUBSCRIBE filter with # before the last level", d[0],
        [finding("MQTT.TOPIC-FILTER-INVALID", 8)], decoded=d[1], source="MQTT 3.1.1 [MQTT-4.7.1-2]")
    d = subscribe(1, [("a", 3)])
    bad("subscribe-qos3", "SUBSCRIBE requesting QoS 3", d[0], [finding("MQTT.SUBSCRIBE-QOS-INVALID", 7)],
        decoded={**d[1], "subscriptions": [{"topicFilter": "a", "qos": 2}]}, source="MQTT 3.1.1 [MQTT-3-8.3-4]")
    d = unsubscribe(1, ["a+/b"])
    bad("unsubscribe-plus-in-level", "UNSUBSCRIBE filter with + sharing a level", d[0],
        [finding("MQTT.TOPIC-FILTER-INVALID", 7)], decoded=d[1], source="MQTT 3.1.1 [MQTT-4.7.1-3]")
    bad("suback-code-3", "SUBACK return code 3", bytes([0x90, 3, 0, 1, 3]),
        [finding("MQTT.SUBACK-RETURN-CODE-INVALID", 4)], decoded={"type": "SUBACK", "packetId": 1, "returnCodes": [3]},
        kind="SUBACK", source="MQTT 3.1.1 [MQTT-3.9.3-2]")
    bad("v31-suback-0x80", "SUBACK failure code 0x80 under 3.1 (3.1.1 only)", bytes([0x90, 3, 0, 1, 0x80]),
        [finding("MQTT.SUBACK-RETURN-CODE-INVALID", 4)], decoded={"type": "SUBACK", "packetId": 1, "returnCodes": [128]},
        version="3.1", kind="SUBACK", source="MQTT 3.1 §3.9")
    cid = "01" + "a" * 36
    data, decoded = connect("3.1", cid, 30, username="u", password="p")
    bad("v31-client-id-38-characters", "MQTT 3.1 client id of 38 characters (the 3.1 limit is 23)", data,
        [finding("MQTT.CLIENT-ID-TOO-LONG-V31", 14)], decoded=decoded, version="3.1", source="MQTT 3.1 §3.1")


# ---------------------------------------------------------------- yun2win

UUID_WEB = "5f0c8e8a-1b2c-4d3e-8f90-a1b2c3d4e5f6"
UUID_ANDROID = "0b9f6c1e-7d2a-4e8b-9c3f-2a1b0c9d8e7f"
UUID_IOS = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
PLATFORM = {"web": ("0", "3.1.1", 300, UUID_WEB), "android": ("1", "3.1", 30, UUID_ANDROID),
            "ios": ("2", "3.1.1", 60, UUID_IOS)}
CONN_NAMES = {2: "identifierRejected", 3: "unacceptableProtocolVersion", 4: "uidIsInvalid", 5: "tokenIsInvalid",
              6: "tokenHasExpired", 7: "authenticationServerError", 10: "kicked", 11: "acceptConnect",
              99: "serverUnavailable", 100: "serverInternalError", 101: "requestGateError"}
SEND_NAMES = {20: "success", 21: "timeout", 22: "cmdIsInvalid", 23: "sessionIsInvalid", 24: "sessionIdIsInvalid",
              25: "sessionMTSIsInvalid", 26: "sessionOnServerIsNotExist", 27: "sessionMTSOnClientHasExpired",
              28: "sessionMTSOnServerHasExpired", 29: "sessionMembersIsInvalid", 30: "invalidFormatOfJSONContent",
              31: "sessionMembersIsNull", 1000: "UPDATE_MESSAGE"}
Y2W = "yun2win.md"
USER = "u1001"
TOKEN = "imtoken-3b1f"
SESSION_TOPIC = "y2w/session/p2p_2001"
SERVER_TOPIC = "y2w/u1001"
APP_MESSAGE = {"syncs": [{"type": 0}, {"type": 1, "sessionId": "p2p_2001"}], "pns": {"msg": "您有一条新消息"}}


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def y2w_connect(platform, reconnect=False, uid=USER, token=TOKEN, keep_alive=None, client_id=None, version=None):
    digit, ver, keep, uuid = PLATFORM[platform]
    version = version or ver
    cid = client_id if client_id is not None else ("1" if reconnect else "0") + digit + uuid
    keep = keep if keep_alive is None else keep_alive
    data, mqtt = connect(version, cid, keep, username=uid, password=token)
    parsed = None
    if len(cid) >= 2 and cid[0] in "01" and cid[1] in "012":
        parsed = {"reconnect": cid[0] == "1", "platform": {"0": "web", "1": "android", "2": "ios"}[cid[1]], "uuid": cid[2:]}
    y2w = {"kind": "connect", "uid": uid, "token": token, "clientId": parsed, "mqttVersion": version, "keepAlive": keep}
    return data, {"mqtt": mqtt, "yun2win": y2w}


def y2w_connack(code):
    data, mqtt = connack(code)
    name = "accepted" if code == 0 else CONN_NAMES.get(code, SEND_NAMES.get(code))
    if code not in CONN_NAMES and code != 0:
        name = None
    return data, {"mqtt": mqtt, "yun2win": {"kind": "connack", "returnCode": code, "name": name}}


def session_topic_json(topic):
    if topic.startswith("y2w/session/") and len(topic) > len("y2w/session/"):
        sid = topic[len("y2w/session/"):]
        out = {"kind": "session", "sessionId": sid}
        if "_" in sid:
            out["sessionType"], out["businessId"] = sid.split("_", 1)
        return out
    if topic.startswith("y2w/single"):
        return {"kind": "single", "suffix": topic[len("y2w/single"):]}
    return {"kind": "other", "name": topic}


def y2w_command(topic, command, qos=0, pid=None, raw=None):
    payload = raw if raw is not None else compact(command)
    data, mqtt = publish(topic, payload, qos=qos, pid=pid)
    y2w = {"kind": "command", "topic": session_topic_json(topic), "command": command} if command is not None else None
    return data, {"mqtt": mqtt, "yun2win": y2w}


def y2w_server(payload_obj, topic=SERVER_TOPIC, raw=None):
    payload = raw if raw is not None else compact(payload_obj)
    data, mqtt = publish(topic, payload)
    y2w = None
    obj = payload_obj
    if obj is not None and "returnCode" in obj:
        code = obj["returnCode"]
        if "y2wMessageId" in obj:
            y2w = {"kind": "send-ack", "y2wMessageId": obj["y2wMessageId"], "returnCode": code,
                   "name": SEND_NAMES.get(code), "topic": topic}
            if "mts" in obj:
                y2w["mts"] = obj["mts"]
        else:
            y2w = {"kind": "connection-return-code", "returnCode": code, "name": CONN_NAMES.get(code), "topic": topic}
    elif obj is not None and obj.get("cmd") == "sendMessage":
        y2w = {"kind": "relayed-message", "command": obj, "topic": topic}
    elif obj is not None:
        y2w = {"kind": "data", "value": obj, "topic": topic}
    return data, {"mqtt": mqtt, "yun2win": y2w}


def topic_offset(data):
    """Where a PUBLISH topic's 2-byte length starts: after the type byte and the remaining length."""
    length_bytes = 1
    while data[length_bytes] & 0x80:
        length_bytes += 1
    return 1 + length_bytes


def payload_offset(data):
    """Where the payload of a QoS 0 PUBLISH starts: fixed header, topic length, topic."""
    length_bytes = 1
    while data[length_bytes] & 0x80:
        length_bytes += 1
    topic_length = struct.unpack(">H", data[1 + length_bytes:3 + length_bytes])[0]
    return 1 + length_bytes + 2 + topic_length


def y2w_packet(name, description, built, direction, expect="ok", version=None, source=Y2W, decoded=True):
    data, dec = built
    mqtt_version = version or dec["mqtt"].get("protocolLevel") and ("3.1" if dec["mqtt"]["protocolLevel"] == 3 else "3.1.1")
    write(name, description, "yun2win", "packet", expect=expect, decoded=dec if decoded else None, data=data,
          encoding=mqtt_version or "3.1.1", direction=direction, source=source,
          verified_by=mqtt_verifiers(dec["mqtt"]["type"]) + ([PYJSON] if dec["mqtt"]["type"] == "PUBLISH" else []))


def send_message(mid, mts=1479460000000, message=APP_MESSAGE):
    return {"cmd": "sendMessage", "y2wMessageId": mid, "mts": mts, "message": message}


def update_session(mid, members, force, mts=1479460000000, message=None):
    return {"cmd": "updateSession", "y2wMessageId": mid, "mts": mts,
            "members": [{"uid": u, "isDel": d} for u, d in members], "force": force,
            "message": message if message is not None else {"syncs": [{"type": 4, "sessionId": "group_3001"}]}}


def yun2win_packets():
    # CONNECT per platform, first connect and reconnect.
    for platform in ("web", "android", "ios"):
        for reconnect in (False, True):
            built = y2w_connect(platform, reconnect)
            # The Android id has 38 characters, over MQTT 3.1's 23: yun2win's brokers accept it, so
            # under the yun2win dialect MQTT.CLIENT-ID-TOO-LONG-V31 is information only.
            expect = "ok"
            note = " (38-character id: over MQTT 3.1's 23-character limit, an info finding)" if platform == "android" else ""
            y2w_packet(f"connect-{platform}{'-reconnect' if reconnect else ''}",
                       f"{platform} SDK CONNECT, {'reconnect (prefix 1)' if reconnect else 'first connect (prefix 0)'}{note}",
                       built, "send", expect=expect, source="yun2win.md §3 (MQTT CONNECT parameters, clientId)")
    # CONNACK codes: 0, every ConnectionReturnCode that travels in CONNACK, under 3.1.1 and one under 3.1.
    for code in (0, 2, 3, 4, 5, 6, 7, 99, 100):
        y2w_packet(f"connack-{code}", f"CONNACK {code} ({'accepted' if code == 0 else CONN_NAMES[code]})",
                   y2w_connack(code), "receive", version="3.1.1", source="yun2win.md §2, §5 (CONNACK byte)")
    y2w_packet("v31-connack-4", "CONNACK 4 (uidIsInvalid) to an MQTT 3.1 (Android) client", y2w_connack(4), "receive",
               version="3.1", source="yun2win.md §2, §5")
    # Server PUBLISH: 11, 10, acks, relayed message, other data.
    y2w_packet("publish-return-code-11", "PUBLISH {\"returnCode\":11}: accept, now connected",
               y2w_server({"returnCode": 11}), "receive", source="yun2win.md §5")
    y2w_packet("publish-return-code-10", "PUBLISH {\"returnCode\":10}: kicked", y2w_server({"returnCode": 10}),
               "receive", source="yun2win.md §5")
    for code in (20, 22, 26, 30, 31):
        y2w_packet(f"ack-{code}", f"send ack {code} ({SEND_NAMES[code]})",
                   y2w_server({"y2wMessageId": "m-0001", "returnCode": code}), "receive", source="yun2win.md §5")
    for code in (27, 28):
        y2w_packet(f"ack-{code}", f"send ack {code} ({SEND_NAMES[code]}) with the server's mts",
                   y2w_server({"y2wMessageId": "m-0001", "returnCode": code, "mts": 1479460000123}), "receive",
                   source="yun2win.md §5")
    y2w_packet("ack-1000-android", "ack 1000 (Android UPDATE_MESSAGE; whether servers send it is UNCONFIRMED)",
               y2w_server({"y2wMessageId": "m-0001", "returnCode": 1000}), "receive", source="yun2win.md §2 (SendReturnCode 1000)")
    y2w_packet("relayed-send-message", "a peer's sendMessage relayed by the server",
               y2w_server(send_message("m-9001")), "receive", source="yun2win.md §5")
    y2w_packet("server-data", "another server payload (handed to the app)", y2w_server({"hello": "world"}), "receive",
               source="yun2win.md §3 (iOS didReceiveData)")
    # The Android SDK speaks MQTT 3.1: the same PUBLISHes under 3.1.
    y2w_packet("v31-publish-return-code-11", "PUBLISH {\"returnCode\":11} to an MQTT 3.1 (Android) client",
               y2w_server({"returnCode": 11}), "receive", version="3.1", source="yun2win.md §3 (Android), §5")
    y2w_packet("v31-ack-20", "send ack 20 to an MQTT 3.1 (Android) client",
               y2w_server({"y2wMessageId": UUID_ANDROID, "returnCode": 20}), "receive", version="3.1",
               source="yun2win.md §5")
    y2w_packet("v31-send-message-android", "Android sendMessage (MQTT 3.1, y2wMessageId from UUID.randomUUID)",
               y2w_command(SESSION_TOPIC, send_message(UUID_ANDROID)), "send", version="3.1", source="yun2win.md §4")
    # Client commands.
    y2w_packet("send-message", "sendMessage (web key order)", y2w_command(SESSION_TOPIC, send_message("m-0001")), "send",
               source="yun2win.md §4")
    y2w_packet("send-message-app-session", "sendMessage to the y2wIMApp_<uid> session with an A/V sync entry",
               y2w_command("y2w/session/y2wIMApp_u2002", send_message(
                   "m-0002", message={"syncs": [{"type": "singleavcall", "content": {"receiversIds": ["u2002"]}}],
                                      "pns": {"msg": "call"}, "av": {"mode": "audio"}})), "send",
               source="yun2win.md §2 (Demo-level), §4")
    y2w_packet("update-session-force", "updateSession, force with deleted members",
               y2w_command("y2w/session/group_3001", update_session("m-0003", [("u1001", False), ("u1002", True)], True)),
               "send", source="yun2win.md §4")
    y2w_packet("update-session", "updateSession, members changed since mts",
               y2w_command("y2w/session/group_3001", update_session("m-0004", [("u1003", False)], False)), "send",
               source="yun2win.md §4")
    y2w_packet("update-token-ios", "iOS updateToken to y2w/single<clientId>",
               y2w_command("y2w/single02" + UUID_IOS, {"cmd": "updateToken", "token": "a1b2c3d4e5f6"}), "send",
               source="yun2win.md §4 (iOS updateToken; topic UNCONFIRMED)")
    for platform, kind, first in (("3.1", "PINGREQ", 0xC0), ("3.1", "PINGRESP", 0xD0), ("3.1", "DISCONNECT", 0xE0),
                                  ("3.1.1", "PINGREQ", 0xC0), ("3.1.1", "PINGRESP", 0xD0), ("3.1.1", "DISCONNECT", 0xE0)):
        data, mqtt = bare(kind, first)
        write(f"{'v31' if platform == '3.1' else 'v311'}-{kind.lower()}", f"{kind} on a yun2win MQTT {platform} connection",
              "yun2win", "packet", decoded={"mqtt": mqtt, "yun2win": None}, data=data, encoding=platform,
              direction="receive" if kind == "PINGRESP" else "send", source="yun2win.md §3 (keep-alive)",
              verified_by=mqtt_verifiers(kind))


def yun2win_malformed():
    def bad_y2w(name, description, built, direction, expect, version=None, decoded=True, source=Y2W):
        y2w_packet(f"bad-{name}", description, built, direction, expect=expect, version=version, decoded=decoded,
                   source=source)

    bad_y2w("connect-no-password", "CONNECT without the imToken", y2w_connect("web", token=None), "send",
            [finding("Y2W.CONNECT-PASSWORD-MISSING", 0)])
    built = y2w_connect("web", uid=None, token=None)
    bad_y2w("connect-no-credentials", "CONNECT without uid and imToken", built, "send",
            [finding("Y2W.CONNECT-USERNAME-MISSING", 0), finding("Y2W.CONNECT-PASSWORD-MISSING", 0)])
    bad_y2w("connect-client-id-no-prefix", "CONNECT with a client id lacking the [01][012] prefix",
            y2w_connect("web", client_id="web-" + UUID_WEB), "send", [finding("Y2W.CLIENT-ID-FORMAT", 0)])
    bad_y2w("connect-client-id-not-uuid", "CONNECT with a prefix but no uuid",
            y2w_connect("web", client_id="00abc"), "send", [finding("Y2W.CLIENT-ID-FORMAT", 0)])
    bad_y2w("connect-ios-keepalive-300", "iOS client id with the web keep-alive",
            y2w_connect("ios", keep_alive=300), "send", [finding("Y2W.CONNECT-CONVENTION", 0)])
    bad_y2w("connect-android-on-3.1.1", "Android client id on MQTT 3.1.1", y2w_connect("android", version="3.1.1"), "send",
            [finding("Y2W.CONNECT-CONVENTION", 0)])
    data, mqtt = connect("3.1.1", "00" + UUID_WEB, 300, password=TOKEN)
    write("bad-connect-password-without-username", "CONNECT with the imToken but no uid (MQTT forbids it too)",
          "yun2win", "packet", expect=[finding("MQTT.PASSWORD-WITHOUT-USERNAME", 9), finding("Y2W.CONNECT-USERNAME-MISSING", 0)],
          decoded={"mqtt": mqtt, "yun2win": {"kind": "connect", "uid": None, "token": TOKEN,
                                             "clientId": {"reconnect": False, "platform": "web", "uuid": UUID_WEB},
                                             "mqttVersion": "3.1.1", "keepAlive": 300}},
          data=data, encoding="3.1.1", direction="send", source="MQTT 3.1.1 [MQTT-3.1.2-22]; yun2win.md §3",
          verified_by=[SCAPY])
    bad_y2w("connack-1", "CONNACK 1: standard MQTT, never used by yun2win", y2w_connack(1), "receive",
            [finding("Y2W.CONNACK-CODE-UNUSED", 3)], version="3.1.1")
    bad_y2w("connack-10", "CONNACK 10: kicked travels in a PUBLISH, not in CONNACK", y2w_connack(10), "receive",
            [finding("MQTT.CONNACK-RETURN-CODE-RESERVED", 3), finding("Y2W.RETURN-CODE-WRONG-TRAVEL", 3)], version="3.1.1")
    bad_y2w("connack-101", "CONNACK 101: a client-local gate error on the wire", y2w_connack(101), "receive",
            [finding("MQTT.CONNACK-RETURN-CODE-RESERVED", 3), finding("Y2W.CLIENT-LOCAL-CODE-ON-WIRE", 3)], version="3.1.1")
    bad_y2w("connack-42", "CONNACK 42: no yun2win table has it", y2w_connack(42), "receive",
            [finding("MQTT.CONNACK-RETURN-CODE-RESERVED", 3), finding("Y2W.RETURN-CODE-UNKNOWN", 3)], version="3.1.1")

    def server_case(name, description, obj, rule, key="returnCode", raw=None, decodes=True):
        built = y2w_server(obj, raw=raw)
        if not decodes:
            built = (built[0], {**built[1], "yun2win": None})
        payload = raw if raw is not None else compact(obj)
        offset = payload_offset(built[0]) + payload.encode().find(f'"{key}"'.encode())
        bad_y2w(name, description, built, "receive", [finding(rule, offset)])

    server_case("publish-return-code-5", "PUBLISH {\"returnCode\":5}: 5 travels in CONNACK", {"returnCode": 5},
                "Y2W.RETURN-CODE-WRONG-TRAVEL")
    server_case("publish-return-code-20-without-id", "ack code 20 without y2wMessageId", {"returnCode": 20},
                "Y2W.RETURN-CODE-WRONG-TRAVEL")
    server_case("publish-return-code-42", "PUBLISH returnCode 42 (unknown)", {"returnCode": 42}, "Y2W.RETURN-CODE-UNKNOWN")
    server_case("ack-21", "ack 21 (timeout) from the server: 21 is client-local",
                {"y2wMessageId": "m-0001", "returnCode": 21}, "Y2W.CLIENT-LOCAL-CODE-ON-WIRE")
    for code in (23, 24, 25, 29):
        server_case(f"ack-{code}", f"ack {code} ({SEND_NAMES[code]}) from the server: only clients generate it",
                    {"y2wMessageId": "m-0001", "returnCode": code}, "Y2W.CLIENT-LOCAL-CODE-ON-WIRE")
    server_case("ack-connection-code-6", "ack with connection code 6", {"y2wMessageId": "m-0001", "returnCode": 6},
                "Y2W.RETURN-CODE-WRONG-TRAVEL")
    server_case("ack-28-without-mts", "ack 28 without the server's mts", {"y2wMessageId": "m-0001", "returnCode": 28},
                "Y2W.ACK-MTS-MISSING")
    server_case("ack-return-code-string", "ack whose returnCode is a string", {"y2wMessageId": "m-0001", "returnCode": "20"},
                "Y2W.FIELD-INVALID", decodes=False)

    def client_case(name, description, obj, rule, key, topic=SESSION_TOPIC, raw=None, qos=0, command=None):
        # `command`: what still decodes (a warning leaves the command usable; unknown keys are dropped).
        built = y2w_command(topic, command, raw=raw if raw is not None else compact(obj), qos=qos, pid=1 if qos else None)
        payload = raw if raw is not None else compact(obj)
        base = payload_offset(built[0]) + (2 if qos else 0)
        offset = base + (payload.encode().find(f'"{key}"'.encode()) if key else 0)
        bad_y2w(name, description, built, "send", [finding(rule, offset)], decoded=True)

    client_case("cmd-unknown", "cmd deleteSession (the server acks 22)", {"cmd": "deleteSession", "y2wMessageId": "m"},
                "Y2W.CMD-UNKNOWN", "cmd")
    client_case("cmd-missing", "a command payload without cmd", {"y2wMessageId": "m", "mts": 1}, "Y2W.CMD-MISSING", None)
    client_case("message-id-missing", "sendMessage without y2wMessageId", {"cmd": "sendMessage", "mts": 1, "message": {}},
                "Y2W.MESSAGE-ID-MISSING", None)
    client_case("mts-string", "sendMessage with mts as a string",
                {"cmd": "sendMessage", "y2wMessageId": "m", "mts": "1479460000000", "message": {}}, "Y2W.MTS-INVALID", "mts")
    client_case("members-not-array", "updateSession with members as an object (web: 29)",
                {"cmd": "updateSession", "y2wMessageId": "m", "mts": 1, "members": {"uid": "a"}, "force": False, "message": {}},
                "Y2W.FIELD-INVALID", "members")
    client_case("payload-not-json", "a command payload that is not JSON", None, "Y2W.PAYLOAD-NOT-JSON", None,
                raw="cmd=sendMessage")
    client_case("unknown-key", "sendMessage with a key no SDK sends",
                {"cmd": "sendMessage", "y2wMessageId": "m", "mts": 1, "message": {}, "priority": 1}, "Y2W.UNKNOWN-KEY",
                "priority", command={"cmd": "sendMessage", "y2wMessageId": "m", "mts": 1, "message": {}})
    client_case("sync-type-7", "sendMessage whose app message syncs type 7",
                {"cmd": "sendMessage", "y2wMessageId": "m", "mts": 1, "message": {"syncs": [{"type": 7}]}},
                "Y2W.APP-MESSAGE-INVALID", "type",
                command={"cmd": "sendMessage", "y2wMessageId": "m", "mts": 1, "message": {"syncs": [{"type": 7}]}})
    # Topic and QoS conventions: the command decodes, so decoded carries it.
    cmd = send_message("m-0005")
    built = y2w_command("chat/room1", cmd)
    y2w_packet("bad-topic-unknown", "sendMessage to a topic outside y2w/", built, "send",
               expect=[finding("Y2W.TOPIC-UNKNOWN", topic_offset(built[0]))])
    built = y2w_command(SESSION_TOPIC, {"cmd": "updateToken", "token": "ab"})
    y2w_packet("bad-update-token-on-session-topic", "updateToken on a session topic", built, "send",
               expect=[finding("Y2W.TOPIC-COMMAND-MISMATCH", 2)])
    built = y2w_command(SESSION_TOPIC, cmd, qos=1, pid=7)
    y2w_packet("bad-send-message-qos1", "sendMessage with QoS 1 (the SDKs use QoS 0)", built, "send",
               expect=[finding("Y2W.PUBLISH-CONVENTION", 0)])


def payload_fixtures():
    cases = [
        ("send-message", "sendMessage payload", send_message("m-0001"), "send",
         {"kind": "command", "topic": {"kind": "other", "name": ""}, "command": send_message("m-0001")}),
        ("update-session", "updateSession payload (web key order)", update_session("m-0002", [("u1", False)], False), "send",
         {"kind": "command", "topic": {"kind": "other", "name": ""},
          "command": update_session("m-0002", [("u1", False)], False)}),
        ("ack-27", "ack 27 with mts", {"y2wMessageId": "m-0001", "returnCode": 27, "mts": 1479460000123}, "receive",
         {"kind": "send-ack", "y2wMessageId": "m-0001", "returnCode": 27, "name": SEND_NAMES[27], "mts": 1479460000123,
          "topic": ""}),
        ("return-code-11", "accept", {"returnCode": 11}, "receive",
         {"kind": "connection-return-code", "returnCode": 11, "name": "acceptConnect", "topic": ""}),
    ]
    for name, description, obj, direction, decoded in cases:
        write(name, description, "yun2win", "payload", decoded=decoded, text=compact(obj), direction=direction,
              source="yun2win.md §4, §5", verified_by=[PYJSON])


def gate_fixtures():
    write("request-form", "web/Android gate request (form)", "yun2win", "gate", encoding="request",
          text="oper=register&country=", decoded={"oper": "register", "country": ""}, source="yun2win.md §3 (Gate discovery)",
          verified_by=["Python 3 urllib.parse.parse_qsl"])
    write("request-ios-json", "iOS gate request (JSON; appKey holds the token, UNCONFIRMED intent)", "yun2win", "gate",
          encoding="request", text=compact({"oper": "register", "appKey": "k-42", "uid": USER}),
          decoded={"oper": "register", "appKey": "k-42", "uid": USER}, source="yun2win.md §3", verified_by=[PYJSON])
    write("reply", "gate reply naming the MQTT host", "yun2win", "gate", encoding="reply",
          text=compact({"rtnval": "success", "data": {"url": "im1.example.net", "region": "hangzhou"}}),
          decoded={"rtnval": "success", "data": {"url": "im1.example.net", "region": "hangzhou"}},
          source="yun2win.md §3", verified_by=[PYJSON])
    write("bad-request-oper", "gate request with oper=login", "yun2win", "gate", encoding="request",
          text="oper=login&country=", decoded={"oper": "login", "country": ""},
          expect=[finding("Y2W.GATE-REQUEST-INVALID", 0)], source="yun2win.md §3",
          verified_by=["Python 3 urllib.parse.parse_qsl"])
    write("bad-reply-failure", "gate reply with rtnval fail (the SDK reports 101)", "yun2win", "gate", encoding="reply",
          text=compact({"rtnval": "fail", "data": {}}), decoded=None, expect=[finding("Y2W.GATE-REPLY-INVALID", 1)],
          source="yun2win.md §3", verified_by=[PYJSON])


def session_fixtures():
    def ev(t, d, built):
        return {"t": t, "dir": d, "hex": built[0].hex()}

    web = lambda reconnect=False: y2w_connect("web", reconnect)
    established = [ev(0.0, "send", web()), ev(0.08, "receive", y2w_connack(0)),
                   ev(0.12, "receive", y2w_server({"returnCode": 11}))]
    clean = established + [
        ev(1.0, "send", y2w_command(SESSION_TOPIC, send_message("m-0001"))),
        ev(1.2, "receive", y2w_server({"y2wMessageId": "m-0001", "returnCode": 26})),
        ev(1.3, "send", y2w_command(SESSION_TOPIC, update_session("m-0002", [("u1001", False), ("u2001", False)], True))),
        ev(1.5, "receive", y2w_server({"y2wMessageId": "m-0002", "returnCode": 20})),
        ev(1.6, "send", y2w_command(SESSION_TOPIC, send_message("m-0003"))),
        ev(1.8, "receive", y2w_server({"y2wMessageId": "m-0003", "returnCode": 20})),
        ev(3.0, "receive", y2w_server(send_message("m-9001"))),
        ev(300.5, "send", bare("PINGREQ", 0xC0)), ev(300.6, "receive", bare("PINGRESP", 0xD0)),
        ev(420.0, "send", bare("DISCONNECT", 0xE0)),
    ]
    write("clean", "clean web session: connect, accept (11), 26 answered by updateSession, resend, ping, disconnect",
          "yun2win", "sessions", input={"connections": [{"events": clean, "end": 420.1}]}, decoded=None,
          source="yun2win.md §3 (state machine), §5 (recovery rules)", verified_by=[SCAPY + " (every packet)"])
    kicked = established + [
        ev(1.0, "send", y2w_command(SESSION_TOPIC, send_message("m-0001"))),
        ev(1.2, "receive", y2w_server({"y2wMessageId": "m-0001", "returnCode": 20})),
        ev(60.0, "receive", y2w_server({"returnCode": 10})),
    ]
    again = [ev(61.0, "send", web(reconnect=True)), ev(61.1, "receive", y2w_connack(0)),
             ev(61.2, "receive", y2w_server({"returnCode": 11}))]
    write("kicked-then-reconnect", "kicked (10), then the client reconnects automatically with prefix 1 and the same uid",
          "yun2win", "sessions", input={"connections": [{"events": kicked, "end": 60.1}, {"events": again, "end": 62}]},
          decoded=None, expect=[{"rule": "Y2W.RECONNECT-AFTER-KICK"}],
          source="yun2win.md §3 (10 -> logout), §5", verified_by=[SCAPY + " (every packet)"])
    early = [ev(0.0, "send", web()), ev(0.08, "receive", y2w_connack(0)),
             ev(0.09, "send", y2w_command(SESSION_TOPIC, send_message("m-0001"))),
             ev(0.12, "receive", y2w_server({"returnCode": 11})),
             ev(0.3, "receive", y2w_server({"y2wMessageId": "m-0001", "returnCode": 28, "mts": 5})),
             ev(0.4, "send", y2w_command(SESSION_TOPIC, send_message("m-0002")))]
    write("publish-early-and-resend", "publish after CONNACK 0 but before 11; resend after 28 without updateSession; no ack",
          "yun2win", "sessions", input={"connections": [{"events": early, "end": 30}]}, decoded=None,
          expect=[{"rule": "Y2W.PUBLISH-BEFORE-ESTABLISHED"}, {"rule": "Y2W.RESEND-WITHOUT-UPDATE-SESSION"},
                  {"rule": "Y2W.SEND-UNANSWERED"}],
          source="yun2win.md §3, §5", verified_by=[SCAPY + " (every packet)"])
    android = [ev(0.0, "send", y2w_connect("android")), ev(0.1, "receive", y2w_connack(0)),
               ev(0.2, "receive", y2w_server({"returnCode": 11})), ev(50.0, "send", bare("PINGREQ", 0xC0)),
               ev(50.1, "receive", bare("PINGRESP", 0xD0))]
    write("android-keepalive-late", "Android (30 s keep-alive) pings after 50 s of silence", "yun2win", "sessions",
          input={"connections": [{"events": android, "end": 51}]}, decoded=None,
          expect=[{"rule": "Y2W.KEEPALIVE-EXCEEDED"}],
          source="yun2win.md §3 (Android keep-alive 30 s); MQTT 3.1.1 [MQTT-3.1.2-24]", verified_by=[SCAPY + " (every packet)"])


if __name__ == "__main__":
    mqtt_packets()
    mqtt_malformed()
    yun2win_packets()
    yun2win_malformed()
    payload_fixtures()
    gate_fixtures()
    session_fixtures()
    for key in sorted(COUNT):
        print(f"{key[0]}/{key[1]} {'ok' if key[2] else 'findings'}: {COUNT[key]}")
