#!/usr/bin/env python3
"""Testee: scapy 2.8.0's MQTT layer (scapy.contrib.mqtt) for mqtt.3.1 and mqtt.3.1.1, decode only.

scapy dissects any byte string it is given (it validates little: a dissection that raises is a
rejection); its fields are mapped to IMWire's canonical MQTT JSON as in
Tests/CrossCheck/yun2win_mqtt.py. Bytes left after the packet its remaining length covers, or a
packet shorter than that length, are rejections (one packet per case). Encode is unsupported.
Runs in Tests/CrossCheck/.venv (scapy==2.8.0).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from scapy.contrib import mqtt as smqtt  # noqa: E402
from scapy.error import Scapy_Exception  # noqa: E402

NAMES = {1: "CONNECT", 2: "CONNACK", 3: "PUBLISH", 4: "PUBACK", 5: "PUBREC", 6: "PUBREL", 7: "PUBCOMP", 8: "SUBSCRIBE",
         9: "SUBACK", 10: "UNSUBSCRIBE", 11: "UNSUBACK", 12: "PINGREQ", 13: "PINGRESP", 14: "DISCONNECT"}


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


def canonical(p, version):
    kind = p.type
    if kind not in NAMES:
        return None
    out = {"type": NAMES[kind]}
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
        layer = {4: smqtt.MQTTPuback, 5: smqtt.MQTTPubrec, 6: smqtt.MQTTPubrel, 7: smqtt.MQTTPubcomp, 11: smqtt.MQTTUnsuback}[kind]
        out["packetId"] = p[layer].msgid
        if kind == 6 and p.DUP:
            out["dup"] = True
    elif kind == 8:
        c = p[smqtt.MQTTSubscribe]
        out.update({"packetId": c.msgid, "subscriptions": [{"topicFilter": text(t.topic), "qos": min(t.QOS & 3, 2)} for t in c.topics]})
        if p.DUP:
            out["dup"] = True
    elif kind == 9:
        c = p[smqtt.MQTTSuback]
        out.update({"packetId": c.msgid, "returnCodes": list(c.retcodes or [])})
    elif kind == 10:
        c = p[smqtt.MQTTUnsubscribe]
        out.update({"packetId": c.msgid, "topicFilters": [text(t.topic) for t in c.topics]})
    return out


def mqtt(version):
    def handle(operation, given, options):
        if operation != "decode":
            return {"result": "unsupported", "message": "scapy is used as a decoder only"}
        data = harness.input_bytes(given)
        if len(data) < 2:
            return harness.rejected("shorter than a fixed header", len(data))
        try:
            first = smqtt.MQTT(data)
        except Scapy_Exception as error:
            return harness.rejected("%s: %s" % (type(error).__name__, error))
        end = header_length(data) + first.len
        if end != len(data):
            return harness.rejected("remaining length %d for %d bytes" % (first.len, len(data) - header_length(data)), min(end, len(data)))
        try:
            value = canonical(smqtt.MQTT(data), version)
        except (IndexError, Scapy_Exception) as error:  # scapy could not dissect the packet's layer
            return harness.rejected("%s: %s" % (type(error).__name__, error))
        if value is None:
            return harness.rejected("packet type %d" % first.type, 0)
        return harness.ok_value(value)
    return handle


harness.serve({"mqtt.3.1": mqtt("3.1"), "mqtt.3.1.1": mqtt("3.1.1")})
