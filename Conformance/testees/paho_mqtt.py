#!/usr/bin/env python3
"""Testee: paho-mqtt 2.2.0's packet decoders (paho.mqtt._packet, what its client runs on what it
receives) for mqtt.3.1 and mqtt.3.1.1, decode only.

paho decodes the packets a client receives (CONNACK, PUBLISH, PUBACK, PUBREC, PUBREL, PUBCOMP,
SUBACK, UNSUBACK, PINGRESP); the others are unsupported (skipped). The fixed header and remaining
length are read here as paho's client reads them (at most four length bytes, the body exactly that
long); a paho exception (MalformedPacket, struct.error…) is a rejection. Fields are mapped to
IMWire's canonical MQTT JSON as in Tests/CrossCheck/yun2win_mqtt.py. Runs in Tests/CrossCheck/.venv.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import paho.mqtt.client as paho  # noqa: E402
from paho.mqtt import _packet as paho_packet  # noqa: E402

TYPES = {2: "CONNACK", 3: "PUBLISH", 4: "PUBACK", 5: "PUBREC", 6: "PUBREL", 7: "PUBCOMP", 9: "SUBACK", 11: "UNSUBACK", 13: "PINGRESP"}


def fixed_header(data):
    """(remaining length, header length) as paho's client reads them, or None when malformed."""
    length, multiplier, index = 0, 1, 1
    while True:
        if index >= len(data) or index > 4:
            return None
        byte = data[index]
        length += (byte & 127) * multiplier
        multiplier *= 128
        index += 1
        if not byte & 128:
            return length, index


def bytes_field(key, data):
    try:
        return {key: bytes(data).decode("utf-8")}
    except UnicodeDecodeError:
        return {key + "Hex": bytes(data).hex()}


def fields(command, body, version):
    protocol = paho.MQTTv31 if version == "3.1" else paho.MQTTv311
    kind = command >> 4
    if kind == 2:
        r = paho_packet.decode_connack(command, body, protocol)
        # paho exposes the MQTT 5 reason it maps the 3.x return code to (5 → 135): the code is the byte it read.
        return {"type": "CONNACK", "sessionPresent": bool(r.flags & 1) if version == "3.1.1" else False, "returnCode": body[1]}
    if kind == 3:
        r = paho_packet.decode_publish(command, body, protocol)
        out = {"type": "PUBLISH", "dup": bool(r.dup), "qos": r.qos, "retain": bool(r.retain),
               "topic": bytes(r.topic).decode("utf-8", errors="replace")}
        if r.qos:
            out["packetId"] = r.mid
        out.update(bytes_field("payload", r.payload))
        return out
    if kind in (4, 5, 6, 7):
        decode = {4: paho_packet.decode_puback, 5: paho_packet.decode_pubrec, 6: paho_packet.decode_pubrel, 7: paho_packet.decode_pubcomp}[kind]
        out = {"type": TYPES[kind], "packetId": decode(command, body, protocol).mid}
        if kind == 6 and command & 0x08:
            out["dup"] = True
        return out
    if kind == 9:
        r = paho_packet.decode_suback(command, body, protocol)
        return {"type": "SUBACK", "packetId": r.mid, "returnCodes": [int(getattr(q, "value", q)) for q in r.granted_qos]}
    if kind == 11:
        return {"type": "UNSUBACK", "packetId": paho_packet.decode_unsuback(command, body, protocol).mid}
    return {"type": "PINGRESP"}


def mqtt(version):
    def handle(operation, given, options):
        if operation != "decode":
            return {"result": "unsupported", "message": "paho-mqtt is used as a decoder only"}
        data = harness.input_bytes(given)
        if not data or data[0] >> 4 not in TYPES:
            return {"result": "unsupported", "message": "paho-mqtt decodes only what a client receives"}
        header = fixed_header(data)
        if header is None:
            return harness.rejected("malformed remaining length", min(len(data), 5))
        length, start = header
        if start + length != len(data):
            return harness.rejected("remaining length %d for %d bytes" % (length, len(data) - start), min(start + length, len(data)))
        try:
            return harness.ok_value(fields(data[0], data[start:], version))
        except Exception as error:
            return harness.rejected("%s: %s" % (type(error).__name__, error))
    return handle


harness.serve({"mqtt.3.1": mqtt("3.1"), "mqtt.3.1.1": mqtt("3.1.1")})
