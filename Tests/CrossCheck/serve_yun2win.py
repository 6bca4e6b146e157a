#!/usr/bin/env python3
"""`imwire serve --dialect yun2win` against an independent MQTT client: paho-mqtt 2.2.0 (no IMWire
code) playing yun2win's clients as Spec/yun2win.md and the web SDK's recordings show them: the web
SDK over WebSocket (MQTT 3.1.1, keep-alive 300 s, client id `00`+uuid, `10`+uuid once connected)
and the Android SDK over plain TCP (MQTT 3.1, keep-alive 30 s, `01`+uuid); connected only on
{"returnCode":11}; updateSession and sendMessage on y2w/session/<id>, each matched to its ack by
y2wMessageId; after an ack 26 an updateSession, then the resend; a reconnect about a second after a
drop or a CONNACK 7, none after a kick ({"returnCode":10}: DISCONNECT) or a CONNACK 4. Each
scenario of Fixtures/serve/yun2win/ is played right, and wrong on purpose:

  well-behaved     every scenario (web), those without a reconnect  -> OK (close over WebSocket: FAILED, paho's
                   and one drop (Android)                           unmasked close frame, a true finding)
  relogin          connects again at once after a kick             -> kick: behaviour FAILED (and Y2W.RECONNECT-AFTER-KICK)
  early            publishes before {"returnCode":11}              -> clean: protocol FAILED (Y2W.PUBLISH-BEFORE-ESTABLISHED)
  no-update        resends after an ack 26 without updateSession   -> error-send: protocol NON-STRICT (Y2W.RESEND-WITHOUT-UPDATE-SESSION)
  no-reconnect     gives up when the server drops it               -> drop: behaviour FAILED
  never-sends      only connects and leaves                        -> kick: UNIMPLEMENTED (the kick waits for a send)
  never-acks       never PUBACKs the server's QoS 1 push           -> clean: protocol NON-STRICT (Y2W.PUBLISH-NOT-ACKNOWLEDGED)
  2 s keep-alive   gives up a connection with no PINGRESP, again   -> heartbeat-silence: behaviour OK (protocol NON-STRICT:
                   (and without the reconnect)                        Y2W.CONNECT-CONVENTION); without it behaviour FAILED
and two clients (web and Android) exchange messages through the server: each sendMessage is
delivered to the other member of the session at QoS 1, as sent; hostile MQTT on plain TCP (a
CONNECT announcing 256 MiB, a five-byte remaining length, a PUBLISH before CONNECT, a member that
never reads while 8 MiB are delivered to it) is closed or dropped at the bound beside a good client.

Usage: Tests/CrossCheck/serve_yun2win.py [path/to/imwire]   (uses Tests/CrossCheck/.venv, as proxy.py does)
"""
import asyncio
import json
import os
import socket
import struct
import sys
import threading
import time
import uuid
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import serve as lc  # noqa: E402  (imwire serve's runner; it sets up Tests/CrossCheck/.venv as proxy.py does)

import paho.mqtt.client as mqtt  # noqa: E402

warnings.simplefilter("ignore", DeprecationWarning)  # paho's callback API version 1: it passes CONNACK codes as they are


class Client:
    """A yun2win client on paho-mqtt, the web SDK's (WebSocket) or Android's (TCP), with switches that make it wrong."""

    def __init__(self, port, uid, peer="u2001", android=False, sends=1, reconnects=True, relogin=False, early=False,
                 updates_after_26=True, never_acks=False, linger=3.0, wait_for=0, barrier=None, keepalive=None):
        self.port, self.uid, self.peer, self.android = port, uid, peer, android
        self.sends, self.reconnects, self.relogin, self.early = sends, reconnects, relogin, early
        self.updates_after_26, self.linger, self.wait_for, self.barrier = updates_after_26, linger, wait_for, barrier
        self.never_acks = never_acks
        # The SDKs' keep-alive (web 300 s, Android 30 s) unless told: a short one times a silent server out in seconds.
        self.keepalive = keepalive or (30 if android else 300)
        self.session_id = "p2p_" + "_".join(sorted([uid, peer]))
        self.uuid = str(uuid.uuid4())
        self.received = []
        self.connected_once = False

    async def run(self):
        return await asyncio.to_thread(self.session)

    def connect(self):
        """One connection: returns (client, events) once {"returnCode":11} came, or (None, CONNACK code)."""
        prefix = "1" if self.connected_once else "0"
        client_id = prefix + ("1" if self.android else "0") + self.uuid
        state = {"accepted": threading.Event(), "ended": threading.Event(), "refused": None, "kicked": threading.Event(),
                 "acks": {}, "ack_event": threading.Condition()}
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=client_id, clean_session=True,
                             protocol=mqtt.MQTTv31 if self.android else mqtt.MQTTv311,
                             transport="tcp" if self.android else "websockets", reconnect_on_failure=False,
                             manual_ack=self.never_acks)  # manual, and never given: no PUBACK
        if not self.android:
            client.ws_set_options(path="/")
        client.username_pw_set(self.uid, "imtoken-" + self.uid)

        def on_connect(c, userdata, flags, rc):
            if rc != 0:
                state["refused"] = rc
                state["ended"].set()

        def on_message(c, userdata, message):
            body = json.loads(message.payload)
            if body.get("returnCode") == 11 and "y2wMessageId" not in body:
                state["accepted"].set()
            elif body.get("returnCode") == 10 and "y2wMessageId" not in body:
                state["kicked"].set()
            elif "y2wMessageId" in body and "returnCode" in body:
                with state["ack_event"]:
                    state["acks"][body["y2wMessageId"]] = body["returnCode"]
                    state["ack_event"].notify_all()
            elif body.get("cmd") == "sendMessage":
                self.received.append(body["y2wMessageId"])

        def on_disconnect(c, userdata, rc):
            state["ended"].set()

        client.on_connect, client.on_message, client.on_disconnect = on_connect, on_message, on_disconnect
        try:
            client.connect("127.0.0.1", self.port, keepalive=self.keepalive)
        except (OSError, mqtt.WebsocketConnectionError):
            return None, None  # refused: closed before any byte
        client.loop_start()
        for _ in range(100):
            if state["accepted"].wait(0.1) or state["ended"].is_set():
                break
        if not state["accepted"].is_set():
            client.loop_stop()
            return None, state["refused"]
        self.connected_once = True
        return client, state

    def command(self, client, state, cmd, wait=True):
        """Publishes a command; returns its ack's returnCode (None: none within 12 s)."""
        message_id = str(uuid.uuid4())
        body = {"cmd": cmd, "y2wMessageId": message_id, "mts": 1479460000000,
                "message": {"syncs": [{"type": 0}, {"type": 1, "sessionId": self.session_id}], "pns": {"msg": "hello"}}}
        if cmd == "updateSession":
            body["members"] = [{"uid": self.uid, "isDel": False}, {"uid": self.peer, "isDel": False}]
            body["force"] = True
        client.publish("y2w/session/" + self.session_id, json.dumps(body, separators=(",", ":")), qos=0)
        if not wait:
            return None
        with state["ack_event"]:
            state["ack_event"].wait_for(lambda: message_id in state["acks"] or state["ended"].is_set(), 12)
            return state["acks"].get(message_id)

    def leave(self, client):
        client.disconnect()  # DISCONNECT, as the SDKs' logout
        time.sleep(0.2)
        client.loop_stop()

    def session(self):
        outcome = "done"
        if self.early:
            return self.early_session()
        for attempt in range(8):
            client, state = self.connect()
            if client is None:
                # No CONNACK (a refused connection) or CONNACK 7: the web SDK retries after its reconnect
                # period (1 s), Android 15 s after a 7; after 4 and 5 both stop.
                if state in (None, 7) and self.reconnects:
                    time.sleep(15 if self.android and state == 7 else 1)
                    continue
                return f"refused {state}"
            if attempt == 0:
                self.command(client, state, "updateSession")
                if self.barrier:
                    self.barrier.wait(10)
            for _ in range(self.sends):
                code = self.command(client, state, "sendMessage")
                if code == 26 and self.updates_after_26:
                    self.command(client, state, "updateSession")
                if code == 26:
                    self.command(client, state, "sendMessage")  # the demos' resend
            deadline = time.time() + 15
            while len(self.received) < self.wait_for and time.time() < deadline:
                time.sleep(0.1)
            deadline = time.time() + self.linger
            while time.time() < deadline and not state["kicked"].is_set() and not state["ended"].is_set():
                time.sleep(0.05)
            if state["kicked"].is_set():
                # The SDKs DISCONNECT and stop on 10; the demos log out.
                self.leave(client)
                if self.relogin:
                    again, _ = self.connect()  # at once, with prefix 1: an automatic reconnect after a kick
                    if again:
                        self.leave(again)
                return "kicked"
            if state["ended"].is_set():
                # Dropped or closed by the server: reconnect after the web SDK's reconnect period (1 s), Android's 10 s.
                client.loop_stop()
                if not self.reconnects:
                    return "gave up"
                outcome = "reconnected"
                time.sleep(10.5 if self.android else 1)
                continue
            self.leave(client)
            return outcome
        return "too many attempts"

    def early_session(self):
        """CONNECT and a sendMessage in one write, before the server's {"returnCode":11}: what no
        SDK does (raw MQTT 3.1.1 on TCP, so that nothing waits for the CONNACK)."""
        connect = mqtt_packet(0x10, mqtt_string("MQTT") + bytes([4, 0xC2]) + struct.pack(">H", 300) + mqtt_string("00" + self.uuid)
                              + mqtt_string(self.uid) + mqtt_string("imtoken-" + self.uid))
        command = {"cmd": "sendMessage", "y2wMessageId": str(uuid.uuid4()), "mts": 1479460000000,
                   "message": {"syncs": [{"type": 0}, {"type": 1, "sessionId": self.session_id}], "pns": {"msg": "hello"}}}
        publish = mqtt_packet(0x30, mqtt_string("y2w/session/" + self.session_id) + json.dumps(command).encode())
        with socket.create_connection(("127.0.0.1", self.port), timeout=3) as s:
            s.sendall(connect + publish)
            time.sleep(1.5)
            s.sendall(bytes([0xE0, 0x00]))  # DISCONNECT
            time.sleep(0.3)
        return "done"


def mqtt_packet(first, body):
    """An MQTT packet: the first byte, the remaining length, the body."""
    length, encoded = len(body), b""
    while True:
        byte, length = length % 128, length // 128
        encoded += bytes([byte | (0x80 if length else 0)])
        if not length:
            return bytes([first]) + encoded + body


def mqtt_string(text):
    data = text.encode()
    return struct.pack(">H", len(data)) + data


def raw_mqtt_connect(port, uid):
    """A raw MQTT 3.1.1 client on plain TCP, connected once {"returnCode":11} came."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(mqtt_packet(0x10, mqtt_string("MQTT") + bytes([4, 0xC2]) + struct.pack(">H", 300)
                          + mqtt_string("01" + str(uuid.uuid4())) + mqtt_string(uid) + mqtt_string("imtoken-" + uid)))
    seen = b""
    while b'"returnCode":11' not in seen:
        chunk = s.recv(4096)
        if not chunk:
            raise RuntimeError(f"{uid}: closed before the accept")
        seen += chunk
    return s


def closed_within(port, data, seconds=3.0):
    """Sends `data` on plain TCP; whether the server closes the connection within `seconds`."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as s:
        s.sendall(data)
        try:
            while s.recv(65536):
                pass
            return True
        except (socket.timeout, TimeoutError):
            return False
        except OSError:
            return True  # reset


def hostile():
    """MQTT on plain TCP that no client sends (a CONNECT announcing 256 MiB, a remaining length of
    five bytes, a PUBLISH before any CONNECT) and a member that never reads while 8 MiB are
    delivered to it, beside a good web client: each bad connection is closed, the reader is dropped
    at the server's 4 MiB bound, memory stays bounded, and the good client is graded OK."""
    import tempfile
    with tempfile.TemporaryDirectory() as out:
        process, port = lc.serve("clean", out, idle=2.0, dialect="yun2win")
        base = peak = lc.rss_mib(process.pid)
        try:
            # u9 connects, is put in a session with u8, and never reads again.
            reader = raw_mqtt_connect(port, "u9")
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            if not closed_within(port, bytes([0x10, 0xFF, 0xFF, 0xFF, 0x7F]) + b"MQTT"):
                lc.problem("hostile: a CONNECT announcing 256 MiB was not closed within 3 s")
            if not closed_within(port, bytes([0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])):
                lc.problem("hostile: a remaining length of five bytes was not closed within 3 s")
            if not closed_within(port, mqtt_packet(0x30, mqtt_string("y2w/session/p2p_x") + b"{}")):
                lc.problem("hostile: a PUBLISH before CONNECT was not closed within 3 s")
            sender = raw_mqtt_connect(port, "u8")
            update = {"cmd": "updateSession", "y2wMessageId": "update-1", "mts": 1, "force": True, "message": {},
                      "members": [{"uid": "u8", "isDel": False}, {"uid": "u9", "isDel": False}]}
            sender.sendall(mqtt_packet(0x30, mqtt_string("y2w/session/p2p_u8_u9") + json.dumps(update).encode()))
            text = "x" * 3000
            for n in range(2800):
                command = {"cmd": "sendMessage", "y2wMessageId": f"m-{n}", "mts": 1,
                           "message": {"syncs": [{"type": 0}], "pns": {"msg": text}}}
                sender.sendall(mqtt_packet(0x30, mqtt_string("y2w/session/p2p_u8_u9") + json.dumps(command).encode()))
                sender.recv(65536)  # its acks (whatever has come)
                if n % 200 == 0:
                    peak = max(peak, lc.rss_mib(process.pid))
            sender.sendall(bytes([0xE0, 0x00]))
            sender.close()
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
            total = 0
            reader.settimeout(10)
            try:
                while chunk := reader.recv(1 << 16):
                    total += len(chunk)
            except OSError:
                pass
            reader.close()
            if total >= 8 << 20:
                lc.problem(f"hostile: u9, who never read, was sent {total} bytes: not dropped at the bound")
            good = Client(port, "u1001", linger=2)
            outcome = asyncio.run(good.run())
        except Exception as e:
            process.kill()
            return lc.problem(f"hostile: {e!r}")
        peak = max(peak, lc.rss_mib(process.pid))
        code, stdout, stderr = lc.finish(process)
        index = json.load(open(os.path.join(out, "index.json")))
        good_grade = index.get("u1001", {}).get("clean", {})
        if good_grade.get("grade") != "OK":
            lc.problem(f"hostile: the good client beside the bad ones: {good_grade} ({outcome})")
        if peak - base > 64:
            lc.problem(f"hostile: memory grew from {base:.0f} to {peak:.0f} MiB")
        print(f"ok   hostile: bad MQTT closed; u9, who never read, got {total >> 10} KiB before the drop; {peak:.0f} MiB at "
              f"most (from {base:.0f}); the good client {good_grade.get('grade')}", flush=True)


def main():
    ok = ("OK", "OK", "OK")
    # The Android SDK reconnects 10 s after a drop and 15 s after a CONNACK 7 (yun2win-android): it plays the
    # scenarios without a reconnect, and one drop; the web SDK (1 s) plays them all.
    web = ("clean", "drop", "refuse", "close", "kick", "error-login", "error-login-retry", "error-send", "delay-ack")
    android = ("clean", "drop", "kick", "error-login", "error-send", "delay-ack")
    # paho-mqtt 2.2.0 answers a close frame with an unmasked one (client.py _WebsocketWrapper._recv_impl:
    # `_create_frame(OPCODE_CONNCLOSE, payload, 0)`), which RFC 6455 §5.3 forbids a client: protocol FAILED.
    paho_close = ("FAILED", "FAILED", "OK")
    for scenario in web:
        lc.case(f"yun2win {scenario}, well-behaved (web over WebSocket)", scenario,
                lambda port: [Client(port, "u1001", linger=4)], {"u1001": paho_close if scenario == "close" else ok},
                idle=4.0 if scenario == "refuse" else 2.0, dialect="yun2win")
    for scenario in android:
        lc.case(f"yun2win {scenario}, well-behaved (Android over TCP)", scenario,
                lambda port: [Client(port, "u1001", android=True, linger=4)], {"u1001": ok},
                idle=12.0 if scenario == "drop" else 2.0, dialect="yun2win")
    lc.case("yun2win kick, relogin", "kick", lambda port: [Client(port, "u1001", relogin=True, linger=4)],
            {"u1001": ("FAILED", "FAILED", "FAILED")}, dialect="yun2win")
    lc.case("yun2win clean, early", "clean", lambda port: [Client(port, "u1001", early=True)],
            {"u1001": ("FAILED", "FAILED", "OK")}, dialect="yun2win")
    lc.case("yun2win error-send, no-update", "error-send", lambda port: [Client(port, "u1001", updates_after_26=False)],
            {"u1001": ("NON-STRICT", "NON-STRICT", "OK")}, dialect="yun2win")
    lc.case("yun2win drop, no-reconnect", "drop", lambda port: [Client(port, "u1001", reconnects=False, linger=4)],
            {"u1001": ("FAILED", "OK", "FAILED")}, dialect="yun2win")
    lc.case("yun2win clean, never-acks", "clean", lambda port: [Client(port, "u1001", never_acks=True, linger=12)],
            {"u1001": ("NON-STRICT", "NON-STRICT", "OK")}, dialect="yun2win")
    lc.case("yun2win kick, never-sends", "kick", lambda port: [Client(port, "u1001", sends=0)],
            {"u1001": ("UNIMPLEMENTED", "OK", "OK")}, dialect="yun2win")
    # No PINGRESP: paho gives the connection up one keep-alive after its PINGREQ. A keep-alive of 2 s
    # instead of the web SDK's 300 s is itself NON-STRICT (Y2W.CONNECT-CONVENTION); behaviour is what counts here.
    fast = ("NON-STRICT", "NON-STRICT", "OK")
    lc.case("yun2win heartbeat-silence, well-behaved (2 s keep-alive)", "heartbeat-silence",
            lambda port: [Client(port, "u1001", keepalive=2, linger=8)], {"u1001": fast}, dialect="yun2win")
    lc.case("yun2win heartbeat-silence, no-reconnect", "heartbeat-silence",
            lambda port: [Client(port, "u1001", keepalive=2, linger=8, reconnects=False)],
            {"u1001": ("FAILED", "NON-STRICT", "FAILED")}, dialect="yun2win")
    hostile()
    both = threading.Barrier(2)
    made = lc.case("yun2win two clients (web and Android)", "clean",
                   lambda port: [Client(port, "u1001", peer="u2001", wait_for=1, barrier=both),
                                 Client(port, "u2001", peer="u1001", android=True, wait_for=1, barrier=both)],
                   {"u1001": ok, "u2001": ok}, dialect="yun2win")
    if made:
        web, android = made
        # The scenario's own push (imwire-N) aside: each got the other's message.
        if not [m for m in web.received if not m.startswith("imwire-")] or not [m for m in android.received if not m.startswith("imwire-")]:
            lc.problem(f"yun2win two clients: messages not delivered (u1001 got {web.received}, u2001 got {android.received})")
    print(f"{len(lc.PROBLEMS)} problems")
    sys.exit(1 if lc.PROBLEMS else 0)


if __name__ == "__main__":
    main()
