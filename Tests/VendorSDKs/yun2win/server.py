#!/usr/bin/env python3
"""A small mock of yun2win's push server for the genuine web SDK: MQTT 3.1.1 over WebSocket
(subprotocol mqttv3.1), written directly over `websockets` so that each scenario controls every
packet (refusals, kicks, acks with send-return codes, dropped and reset connections).

    server.py SCENARIO --port N [--log FILE]

What it plays (yun2win.md §3–§5; the SDK never SUBSCRIBEs, so the server delivers to the
connection on topic y2w/<uid>):
  CONNECT        → CONNACK 0, then PUBLISH {"returnCode":11} (the SDK is "connected" only on 11);
                   or CONNACK <code> and a close, or a TCP reset, as the scenario says
  sendMessage /  → PUBLISH {"y2wMessageId":…,"returnCode":20} (or the scenario's send-return code;
  updateSession    27/28 would carry "mts")
  PINGREQ        → PINGRESP;  DISCONNECT → the server closes
Scenarios:
  clean        accept; ack 20; a peer's message pushed at QoS 1 (the SDK PUBACKs it) and one at QoS 0
  keepalive    like clean, for the driver's 320-s session (one 300-s keep-alive interval)
  drop         accept; 3 s after the first ack, drop the TCP connection (FIN, no close frame);
               accept the reconnect
  refuse       like drop, then reset (RST) the next 3 connections right after their CONNECT;
               accept the 5th
  kick         accept; 3 s after the first ack, PUBLISH {"returnCode":10}; accept anything later
  error        connection 1: CONNACK 7 (authenticationServerError) and close; connection 2:
               accept, sendMessage acks 26 (sessionOnServerIsNotExist), 20, 31 (sessionMembersIsNull);
               updateSession ack 20
  error-token  connection 1: CONNACK 5 (tokenIsInvalid) and close; connection 2 (the app's
               reconnect with a new token): accept, and drop it 3 s after the first ack (the SDK's
               allowReconnect stays false after 5: does it come back?); accept anything later
  error-uid    connection 1: CONNACK 4 (uidIsInvalid) and close (the SDK should not come back)
  no-accept    CONNACK 0 but never {"returnCode":11}: the SDK's 10-s connect timer stops at CONNACK
"""
import argparse
import asyncio
import json
import socket
import struct
import sys
import time

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

T0 = time.monotonic()
LOG = sys.stderr


def log(conn, event, **kw):
    LOG.write(json.dumps({"t": round((time.monotonic() - T0) * 1000, 1), "conn": conn, "event": event, **kw},
                         ensure_ascii=False) + "\n")
    LOG.flush()


# ------------------------------------------------------------------------------------ MQTT bytes
def varint(n):
    out = bytearray()
    while True:
        b, n = n % 128, n // 128
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def mqtt_string(s):
    b = s.encode()
    return struct.pack(">H", len(b)) + b


def connack(code):
    return bytes([0x20, 0x02, 0x00, code])


def publish(topic, payload, qos=0, packet_id=None):
    body = mqtt_string(topic) + (struct.pack(">H", packet_id) if qos else b"") + payload
    return bytes([0x30 | (qos << 1)]) + varint(len(body)) + body


PINGRESP = bytes([0xD0, 0x00])


class Stream:
    """MQTT packets from a byte stream in any chunking."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data
        packets = []
        while len(self.buf) >= 2:
            mult, length, i = 1, 0, 1
            while True:
                if i >= len(self.buf):
                    return packets
                b = self.buf[i]
                length += (b & 0x7F) * mult
                mult *= 128
                i += 1
                if not b & 0x80:
                    break
            if len(self.buf) < i + length:
                return packets
            packets.append((self.buf[0], bytes(self.buf[i:i + length])))
            del self.buf[:i + length]
        return packets


def parse_connect(body):
    pos = 0

    def take_string():
        nonlocal pos
        n = struct.unpack(">H", body[pos:pos + 2])[0]
        s = body[pos + 2:pos + 2 + n]
        pos += 2 + n
        return s

    protocol = take_string().decode()
    level, flags = body[pos], body[pos + 1]
    keepalive = struct.unpack(">H", body[pos + 2:pos + 4])[0]
    pos += 4
    client_id = take_string().decode()
    if flags & 0x04:
        take_string(), take_string()
    username = take_string().decode() if flags & 0x80 else None
    password = take_string().decode() if flags & 0x40 else None
    return {"protocol": protocol, "level": level, "flags": flags, "keepalive": keepalive,
            "clientId": client_id, "username": username, "password": password}


def parse_publish(first, body):
    qos = (first >> 1) & 3
    n = struct.unpack(">H", body[:2])[0]
    topic = body[2:2 + n].decode()
    pos = 2 + n
    packet_id = None
    if qos:
        packet_id = struct.unpack(">H", body[pos:pos + 2])[0]
        pos += 2
    return topic, qos, packet_id, body[pos:]


# ------------------------------------------------------------------------------------- scenarios
class Server:
    def __init__(self, scenario):
        self.scenario = scenario
        self.connections = 0
        self.tasks = set()

    def later(self, delay, coro):
        async def run():
            await asyncio.sleep(delay)
            await coro
        task = asyncio.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def on_connect(self, n):
        """What to answer connection n's CONNECT: ('accept',), ('refuse', code) or ('reset',)."""
        s = self.scenario
        if s == "refuse" and 2 <= n <= 4:
            return ("reset",)
        if s == "error" and n == 1:
            return ("refuse", 7)
        if s == "error-token" and n == 1:
            return ("refuse", 5)
        if s == "error-uid" and n == 1:
            return ("refuse", 4)
        return ("accept",)

    def ack_code(self, n, cmd, index):
        """The send-return code for the index-th command of this cmd on connection n."""
        if self.scenario == "error" and cmd == "sendMessage":
            return [26, 20, 31][index] if index < 3 else 20
        return 20

    async def handler(self, ws):
        self.connections += 1
        n = self.connections
        log(n, "open", path=ws.request.path, subprotocol=ws.subprotocol,
            peer=list(ws.remote_address) if ws.remote_address else None)
        stream = Stream()
        state = {"uid": None, "sent": {}, "first_ack": False, "next_id": 1}

        async def send(data, what):
            log(n, "send", what=what, hex=data.hex())
            await ws.send(data)

        def reset():
            sock = ws.transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            ws.transport.abort()

        async def push(obj, qos=0, what="push"):
            pid = None
            if qos:
                pid = state["next_id"]
                state["next_id"] += 1
            await send(publish("y2w/" + (state["uid"] or ""), json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode(), qos, pid),
                       f"{what} q{qos}" + (f" id={pid}" if pid else ""))

        async def after_first_ack():
            s = self.scenario
            if s in ("clean", "keepalive"):
                peer = {"cmd": "sendMessage", "y2wMessageId": "peer-0001", "mts": 1479460000000,
                        "message": {"syncs": [{"type": 0}, {"type": 1, "sessionId": "p2p_2001"}],
                                    "pns": {"msg": "您有一条新消息"}}}
                self.later(3, push(peer, qos=1, what="peer message"))
                peer2 = dict(peer, y2wMessageId="peer-0002")
                self.later(30, push(peer2, qos=0, what="peer message"))
            elif (s in ("drop", "refuse") and n == 1) or (s == "error-token" and n == 2):
                async def drop():
                    log(n, "drop", how="FIN, no close frame")
                    ws.transport.abort()
                self.later(3, drop())
            elif s == "kick" and n == 1:
                self.later(3, push({"returnCode": 10}, what="kick"))

        try:
            async for data in ws:
                if isinstance(data, str):
                    log(n, "text-frame", text=data)
                    continue
                for first, body in stream.feed(data):
                    kind = first >> 4
                    if kind == 1:  # CONNECT
                        c = parse_connect(body)
                        state["uid"] = c["username"]
                        log(n, "recv", what="CONNECT", **c)
                        action = self.on_connect(n)
                        if action[0] == "reset":
                            log(n, "reset", how="RST after CONNECT")
                            reset()
                            return
                        if action[0] == "refuse":
                            await send(connack(action[1]), f"CONNACK {action[1]}")
                            await ws.close()
                            return
                        await send(connack(0), "CONNACK 0")
                        if self.scenario == "no-accept":
                            continue  # never {"returnCode":11}: does the SDK time out?
                        await push({"returnCode": 11}, what="accept")
                    elif kind == 3:  # PUBLISH
                        topic, qos, pid, payload = parse_publish(first, body)
                        try:
                            cmd = json.loads(payload)
                        except ValueError:
                            log(n, "recv", what="PUBLISH (not JSON)", topic=topic, hex=payload.hex())
                            continue
                        log(n, "recv", what="PUBLISH", topic=topic, qos=qos, payload=cmd)
                        name = cmd.get("cmd")
                        if name in ("sendMessage", "updateSession") and "y2wMessageId" in cmd:
                            index = state["sent"].get(name, 0)
                            state["sent"][name] = index + 1
                            code = self.ack_code(n, name, index)
                            ack = {"y2wMessageId": cmd["y2wMessageId"], "returnCode": code}
                            if code in (27, 28):
                                ack["mts"] = 1479460000001
                            await push(ack, what=f"ack {code}")
                            if not state["first_ack"]:
                                state["first_ack"] = True
                                await after_first_ack()
                    elif kind == 4:  # PUBACK
                        log(n, "recv", what="PUBACK", packetId=struct.unpack(">H", body[:2])[0])
                    elif kind == 12:  # PINGREQ
                        log(n, "recv", what="PINGREQ")
                        await send(PINGRESP, "PINGRESP")
                    elif kind == 14:  # DISCONNECT
                        log(n, "recv", what="DISCONNECT")
                        await ws.close()
                        return
                    else:
                        log(n, "recv", what=f"type {kind}", hex=body.hex())
        except ConnectionClosed as e:
            log(n, "closed", code=e.rcvd.code if e.rcvd else None)
        finally:
            log(n, "end")


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=["clean", "keepalive", "drop", "refuse", "kick", "error", "error-token", "error-uid", "no-accept"])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--log")
    a = ap.parse_args()
    global LOG
    if a.log:
        LOG = open(a.log, "w", encoding="utf-8")
    server = Server(a.scenario)
    async with serve(server.handler, "127.0.0.1", a.port, subprotocols=["mqttv3.1"], compression=None,
                     ping_interval=None, close_timeout=2) as s:
        log(0, "listening", port=a.port, scenario=a.scenario)
        await s.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
