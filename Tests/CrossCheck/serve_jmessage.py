#!/usr/bin/env python3
"""`imwire serve --dialect jmessage` against an independent JMessage web client: python-socketio
4.6.1 / python-engineio 3.14.2 (socket.io 2 / engine.io 3 over WebSocket, no IMWire code) playing
the JMessage web SDK's protocol as Spec/jmessage.md and the SDK's recordings show it (c_init with
the MD5 signature, login, sync_check, s_across_single_text, msg_recv_v2 for every msg_sync, the
event_notification reply, a re-send with the same rid when the ack is 5 s late, logout as a
socket.io DISCONNECT). Each scenario of Fixtures/serve/jmessage/ but heartbeat-silence (85 s of
withheld pongs: the genuine SDK plays it, Conformance/CLIENTS.md) is played right, and wrong on
purpose:

  well-behaved    every scenario                                  -> OK
  never-acks      never acknowledges a push                       -> clean: protocol NON-STRICT (JM.MESSAGE-NOT-ACKNOWLEDGED)
  relogin         logs in again at once after a kick              -> kick: FAILED (protocol: JM.AFTER-FORCED-LOGOUT; behaviour)
  before-init     sends before c_init                             -> clean: protocol FAILED (JM.BEFORE-INIT)
  never-sends     only logs in and leaves                         -> kick: UNIMPLEMENTED (the kick waits for a send)
and two clients (alice and bob) exchange messages through the server, each OK and each getting
the other's message as a msg_sync push; hostile input beside a good client: an engine.io upgrade
for another transport or EIO version is answered 400, garbage after the upgrade gets a close
frame, and the good client is graded OK.

Usage: Tests/CrossCheck/serve_jmessage.py [path/to/imwire]   (uses Tests/CrossCheck/.venv, as proxy.py does)
"""
import asyncio
import hashlib
import os
import random
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import serve as lc  # noqa: E402  (imwire serve's runner; it sets up Tests/CrossCheck/.venv as proxy.py does)

sys.path.remove(HERE)  # python-socketio, not Tests/CrossCheck/socketio.py
sys.modules.pop("socketio", None)
import socketio  # noqa: E402

APPKEY = "4f7aef34fb361292c566a1cd"
SECRET = "imwire-cross-check-secret"


class Client:
    """A JMessage web client on python-socketio 4, with switches that make it wrong."""

    def __init__(self, port, user, to="bob", sends=1, never_acks=False, relogin=False, before_init=False, linger=2.0,
                 wait_for=0, barrier=None):
        self.port, self.user, self.to = port, user, to
        self.sends, self.never_acks, self.relogin, self.before_init = sends, never_acks, relogin, before_init
        self.linger, self.wait_for, self.barrier = linger, wait_for, barrier
        self.received = []
        self.kicked = threading.Event()
        self.pending = {}  # rid -> {"ack": Event, "response": Event, "body": dict}
        self.lock = threading.Lock()

    async def run(self):
        return await asyncio.to_thread(self.session)

    # -- requests -------------------------------------------------------------------------------

    def request(self, sio, event, data, retries=5):
        """Emits a request; re-sends it with the same rid when its ack is 5 s late (the SDK's
        ACK_TIMEOUT); returns the response's body, or None."""
        rid = random.randint(1, 2**31 - 1)
        entry = {"ack": threading.Event(), "response": threading.Event(), "body": None}
        with self.lock:
            self.pending[rid] = entry
        payload = dict(data, rid=rid)
        for _ in range(retries + 1):
            sio.emit(event, payload)
            if entry["ack"].wait(5.2):
                break
        entry["response"].wait(10)
        return entry["body"]

    def on_any(self, sio, event, data):
        if not isinstance(data, dict):
            return
        rid = data.get("rid")
        if event == "ack":
            with self.lock:
                entry = self.pending.get(rid)
            if entry:
                entry["ack"].set()
            return
        if rid is not None and "code" in data:
            with self.lock:
                entry = self.pending.pop(rid, None)
            if entry:
                entry["body"] = data
                entry["ack"].set()
                entry["response"].set()
            return
        if event == "msg_sync":
            for message in data.get("messages", []):
                self.received.append(message["content"].get("msg_body", {}).get("text"))
                if not self.never_acks:
                    sio.emit("msg_recv_v2", {k: message[k] for k in ("msg_id", "msg_type", "from_uid", "from_gid")}
                             | {"rid": random.randint(1, 2**31 - 1)})
        elif event == "event_notification" and data.get("event_type") in (1, 2):
            if data.get("event_type") == 1:
                sio.emit("event_notification", {k: data[k] for k in ("event_id", "event_type", "from_uid", "gid")}
                         | {"rid": random.randint(1, 2**31 - 1)})
            self.kicked.set()

    # -- a session --------------------------------------------------------------------------------

    def session(self):
        sio = socketio.Client(reconnection=False)
        for event in ("ack", "c_init", "login", "sync_check", "s_single_text", "msg_sync", "event_notification", "logout"):
            sio.on(event, lambda data, event=event: self.on_any(sio, event, data))
        sio.connect(f"http://127.0.0.1:{self.port}", transports=["websocket"])
        try:
            if self.before_init:
                self.request(sio, "sync_check", {"sync_key": 0, "sync_type": 0, "sync_event_key": 0, "msg_receipt_key": 0}, retries=0)
            if not self.login(sio):
                return "login refused"
            if self.barrier:
                self.barrier.wait(10)  # the server keeps no messages for a user not logged in
            for n in range(self.sends):
                body = self.request(sio, "s_across_single_text", {
                    "content": {"version": 1, "target_type": "single", "from_platform": "web", "target_id": self.to,
                                "from_id": self.user, "create_time": int(time.time() * 1000), "msg_type": "text",
                                "msg_body": {"text": f"hello {n} from {self.user}"}},
                    "no_offline": False, "no_notification": False, "target_id": self.to, "appkey": APPKEY})
                if body is None:
                    return "send unanswered"
            deadline = time.time() + 15
            while len(self.received) < self.wait_for and time.time() < deadline:
                time.sleep(0.1)
            if self.kicked.wait(self.linger):
                if self.relogin:
                    self.login(sio)  # on the connection the server logged out: what the SDK never does
                return "kicked"
            return "done"
        finally:
            time.sleep(0.3)
            self.leave(sio)

    @staticmethod
    def leave(sio):
        """socket.io DISCONNECT (41), as the SDK's loginOut, then the WebSocket closed. Not
        sio.disconnect(): python-engineio 3.14.2 queues its last packets for its writer thread and
        closes the WebSocket at once from the caller's, so they can follow the close frame."""
        sio._send_packet(socketio.packet.Packet(socketio.packet.DISCONNECT, namespace="/"))
        time.sleep(0.2)
        if sio.eio.ws is not None:
            sio.eio.ws.close()
        time.sleep(0.2)
        sio.disconnect()  # the transport is closed: nothing more is sent

    def login(self, sio):
        timestamp = int(time.time() * 1000)
        random_str = "%016x" % random.getrandbits(64)
        signature = hashlib.md5(f"appkey={APPKEY}&timestamp={timestamp}&random_str={random_str}&key={SECRET}".encode()).hexdigest()
        if self.request(sio, "c_init", {"appkey": APPKEY, "random_str": random_str, "signature": signature,
                                        "timestamp": timestamp, "flag": 0, "fromPlatForm": "j"}) is None:
            return False
        body = self.request(sio, "login", {"username": self.user, "password": hashlib.md5(b"pw").hexdigest(), "version": "2.5.0"})
        if not body or body.get("code") != 0:
            # The first login refused (error-login): a second one with other credentials is the app's.
            body = self.request(sio, "login", {"username": self.user, "password": hashlib.md5(b"pw2").hexdigest(), "version": "2.5.0"})
        if not body or body.get("code") != 0:
            return False
        self.request(sio, "sync_check", {"sync_key": 0, "sync_type": 0, "sync_event_key": 0, "msg_receipt_key": 0})
        return True


def raw(port, request):
    """Sends `request` and returns what the server answers before it closes (2 s at most)."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(request)
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except OSError:
            pass
        return answer


def hostile():
    """Bad upgrades and garbage after the upgrade, beside a good client that must stay OK. A
    connection that never logs in is graded with the client that logged in last before it from
    the same host: mallory logs in first, so the attacks are hers, and alice comes after them."""
    import json
    import tempfile
    with tempfile.TemporaryDirectory() as out:
        process, port = lc.serve("clean", out, idle=2.0, dialect="jmessage")
        mallory = threading.Thread(target=Client(port, "mallory", sends=0, linger=4).session)
        mallory.start()
        time.sleep(1)
        upgrade = ("GET /socket.io/?EIO=3&transport={} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        polling = raw(port, upgrade.format("polling").encode())
        if not polling.startswith(b"HTTP/1.1 400") or b"only transport=websocket" not in polling:
            lc.problem(f"hostile: an upgrade with transport=polling got {polling[:120]!r}")
        eio4 = raw(port, upgrade.format("websocket").replace("EIO=3", "EIO=4").encode())
        if not eio4.startswith(b"HTTP/1.1 400") or b"EIO=4" not in eio4:
            lc.problem(f"hostile: an upgrade with EIO=4 got {eio4[:120]!r}")
        # A masked text frame "zz" (no engine.io packet type) after a good upgrade: a close frame 1007.
        garbage = raw(port, upgrade.format("websocket").encode() + bytes([0x81, 0x82, 1, 2, 3, 4, ord("z") ^ 1, ord("z") ^ 2]))
        after = garbage.split(b"\r\n\r\n", 1)[-1]
        close = after[after.find(b"\x88"):] if b"\x88" in after else b""
        if b"101 Switching Protocols" not in garbage or int.from_bytes(close[2:4], "big") != 1007:
            lc.problem(f"hostile: garbage after the upgrade got {garbage[-80:]!r}, expected a close frame 1007")
        mallory.join()
        good = Client(port, "alice")
        outcome = asyncio.run(good.run())
        code, stdout, stderr = lc.finish(process)
        index = json.load(open(os.path.join(out, "index.json")))
        alice = index.get("alice", {}).get("clean", {})
        if alice.get("grade") != "OK":
            lc.problem(f"hostile: the good client beside the bad ones: {alice} ({outcome})")
        if index.get("mallory", {}).get("clean", {}).get("protocol") != "FAILED" or code != 1:
            lc.problem(f"hostile: the attacks should fail mallory's protocol grade and the run (exit {code}): {index.get('mallory')}")
        print(f"ok   hostile input: polling and EIO=4 upgrades answered 400, garbage closed with 1007; the good client "
              f"{alice.get('grade')}", flush=True)


def main():
    ok = ("OK", "OK", "OK")
    for scenario in ("clean", "drop", "refuse", "close", "kick", "kick-password", "error-login", "error-send", "withhold-ack", "delay-ack"):
        lc.case(f"jmessage {scenario}, well-behaved", scenario, lambda port: [Client(port, "alice", linger=4)], {"alice": ok},
                dialect="jmessage")
    # The checker waits 5 s for a push's msg_recv_v2: the client stays longer.
    lc.case("jmessage clean, never-acks", "clean", lambda port: [Client(port, "alice", never_acks=True, linger=7)],
            {"alice": ("NON-STRICT", "NON-STRICT", "OK")}, dialect="jmessage")
    lc.case("jmessage kick, relogin", "kick", lambda port: [Client(port, "alice", relogin=True, linger=4)],
            {"alice": ("FAILED", "FAILED", "FAILED")}, dialect="jmessage")
    lc.case("jmessage clean, before-init", "clean", lambda port: [Client(port, "alice", before_init=True)],
            {"alice": ("FAILED", "FAILED", "OK")}, dialect="jmessage")
    lc.case("jmessage kick, never-sends", "kick", lambda port: [Client(port, "alice", sends=0)],
            {"alice": ("UNIMPLEMENTED", "OK", "OK")}, dialect="jmessage")
    both = threading.Barrier(2)
    made = lc.case("jmessage two clients", "clean",
                   lambda port: [Client(port, "alice", to="bob", wait_for=1, linger=3, barrier=both),
                                 Client(port, "bob", to="alice", wait_for=1, linger=3, barrier=both)],
                   {"alice": ok, "bob": ok}, dialect="jmessage")
    if made:
        alice, bob = made
        if "hello 0 from alice" not in bob.received or "hello 0 from bob" not in alice.received:
            lc.problem(f"jmessage two clients: messages not delivered (alice got {alice.received}, bob got {bob.received})")
    hostile()
    print(f"{len(lc.PROBLEMS)} problems")
    sys.exit(1 if lc.PROBLEMS else 0)


if __name__ == "__main__":
    main()
