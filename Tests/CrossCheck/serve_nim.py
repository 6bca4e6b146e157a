#!/usr/bin/env python3
"""`imwire serve --dialect nim` against an independent socket.io 0.9 client: socketIO-client
0.5.7.4 over its WebSocket transport, and again over its xhr-polling (the transport the Web SDK
falls back to in a browser without WebSocket), no IMWire code, playing the NIM Web SDK's link as
Spec/nim.md and the SDK's recordings show it: the LBS (GET /lbs/webconf.jsp), the socket.io
handshake (GET /socket.io/1/) and the WebSocket, login 2_3 on the connect `1::`, sync 5_1, sendMsg 7_1 with sequential SERs, the
socket.io heartbeat echoed, logout 2_6; a reconnect with the nim-web backoff (1.6 s, doubling) after
a drop or a silent kick (2_5 reason 4), none after a kick (reason 1) or a login refused (302).
Each scenario of Fixtures/serve/nim/ but heartbeat-silence (its 30 s heartbeats are the genuine
SDK's to show: Conformance/CLIENTS.md) is played right, and wrong on purpose:

  well-behaved    every scenario                                   -> OK
  relogin         logs in again at once after a kick               -> kick: FAILED (NIM.AUTO-RELOGIN and the expectation)
  before-login    sends a message before its login                 -> clean: protocol FAILED (NIM.BEFORE-LOGIN)
  no-reconnect    gives up when the server drops it                -> drop: behaviour FAILED
  skips-heartbeats  sends no heartbeat 1_2 in 40 s                 -> clean: behaviour NON-STRICT (NIM.HEARTBEAT-LATE)
  never-sends     only logs in and leaves                          -> kick: UNIMPLEMENTED (the kick waits for a send)
over xhr-polling every scenario but heartbeat-silence well-behaved, before-login and relogin again;
and two clients (alice and bob) exchange messages through the server (each gets the other's 7_2),
both on WebSocket, then bob over xhr-polling.

Usage: Tests/CrossCheck/serve_nim.py [path/to/imwire]   (uses Tests/CrossCheck/.venv, as proxy.py does)
"""
import asyncio
import json
import os
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import serve as lc  # noqa: E402  (imwire serve's runner; it sets up Tests/CrossCheck/.venv as proxy.py does)

while HERE in sys.path:
    sys.path.remove(HERE)  # websocket-client, not Tests/CrossCheck/websocket.py
sys.modules.pop("websocket", None)
from socketIO_client import BaseNamespace, SocketIO  # noqa: E402
from socketIO_client.exceptions import ConnectionError as SIOConnectionError, TimeoutError as SIOTimeout  # noqa: E402

SocketIO.__del__ = lambda self: None  # it would hand-shake a new session when collected
# nim-web's retry delays after a drop (Spec/reconnect.md): 1.6 s doubling to 8 s.
BACKOFF = [1.6, 3.2, 6.4, 8, 8, 8]


class Dropped(Exception):
    pass


class Link(BaseNamespace):
    def initialize(self):
        self.items = []

    def on_connect(self):
        self.items.append({"connected": True})

    def on_message(self, data):
        self.items.append(json.loads(data))


class Client:
    """A NIM Web link client on socketIO-client 0.5.7.4, with switches that make it wrong."""

    def __init__(self, port, account, to="bob", sends=1, reconnects=True, relogin=False, before_login=False, linger=3.0,
                 wait_for=0, barrier=None, transport="websocket"):
        self.port, self.account, self.to, self.transport = port, account, to, transport
        self.sends, self.reconnects, self.relogin, self.before_login = sends, reconnects, relogin, before_login
        self.linger, self.wait_for, self.barrier = linger, wait_for, barrier
        self.received = []

    async def run(self):
        return await asyncio.to_thread(self.session)

    # -- one connection -----------------------------------------------------------------------

    def open(self):
        """An attempt as the SDK makes it: the LBS (its link list), then at once, answered or not,
        a socket.io session and its WebSocket (a new object each time: socketIO-client would
        hand-shake again by itself on any use after a drop)."""
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{self.port}/lbs/webconf.jsp?id={self.account}&sv=190&pv=1&k=app-key-1", timeout=3).read()
        except OSError:
            pass  # refused: the SDK goes on to its default link
        io = SocketIO("127.0.0.1", self.port, Link, transports=[self.transport], wait_for_connection=False,
                      params={"t": str(int(time.time() * 1000))})
        self.io, self.link, self.ser, self.seen = io, io.get_namespace(), 0, 0
        self.pump(lambda m: m.get("connected"), "the socket.io connect 1::")

    def poll(self, timeout=0.2):
        if not self.io.connected:
            raise Dropped()
        if self.transport == "xhr-polling":
            # A GET the server holds until it has something to send: given up early (as the
            # browser's 0.9 client gives one up on close), what it would have carried could be
            # lost on the way, so it is held longer than a WebSocket read waits.
            timeout = 3.0
        try:
            self.io._process_events(timeout)
        except SIOTimeout:
            pass
        except SIOConnectionError:
            raise Dropped()
        next(self.io._heartbeat_pacemaker)
        for item in self.link.items[self.seen:]:
            self.seen += 1
            if (item.get("sid"), item.get("cid")) == (7, 2):
                self.received.append(item["r"][0]["9"])
            if (item.get("sid"), item.get("cid")) == (2, 5):
                self.kicked = item["r"][1]

    def pump(self, predicate, what, timeout=8.0):
        deadline = time.monotonic() + timeout
        while True:
            for item in self.link.items:
                if predicate(item):
                    return item
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}; have {self.link.items[-5:]}")
            self.poll()

    def request(self, sid, cid, q, wait=True):
        self.ser += 1
        ser = self.ser
        self.io.message(json.dumps({"SID": sid, "CID": cid, "SER": ser, "Q": q}, separators=(",", ":")))
        if wait:
            return self.pump(lambda m: (m.get("sid"), m.get("cid"), m.get("ser")) == (sid, cid, ser), f"{sid}_{cid} ser {ser}")

    def login(self):
        login = {"3": 16, "4": "Chrome", "6": 190, "9": 1, "13": "dev-" + self.account, "18": "app-key-1", "19": self.account,
                 "40": "8.5.0", "1000": "token-" + self.account}
        return self.request(2, 3, [{"t": "Property", "v": login}])

    def send(self, n):
        message = {"0": 0, "1": self.to, "8": 0, "9": f"hello {n} from {self.account}", "11": f"{self.account}-{n}"}
        return self.request(7, 1, [{"t": "Property", "v": message}])

    def close(self):
        """Closes the WebSocket, or stops polling (no socket.io disconnect, no logout)."""
        try:
            if self.transport == "websocket":
                self.io._transport._connection.close()
        except Exception:
            pass

    def leave(self):
        try:
            self.request(2, 6, [], wait=False)  # logout
            self.poll(0.3)
            self.io.disconnect()
        except (Dropped, SIOConnectionError):
            pass

    # -- a session ----------------------------------------------------------------------------

    def session(self):
        outcome, attempt, logged_in_once = "done", 0, False
        while attempt < len(BACKOFF):
            self.kicked = None
            try:
                self.open()
                if self.before_login:
                    self.send(0)  # before the login: what no SDK does
                reply = self.login()
                if reply["code"] != 200:
                    # 302: the SDK stops, with nothing more on the link (no logout: NIM.AFTER-LOGIN-FAILURE).
                    self.close()
                    return f"login refused {reply['code']}"
                attempt = 0
                self.request(5, 1, [{"t": "Property", "v": {"1": 0, "2": 0, "7": 0}}])
                if self.barrier and not logged_in_once:
                    self.barrier.wait(10)
                if not logged_in_once:
                    for n in range(self.sends):
                        self.send(n)
                logged_in_once = True
                deadline = time.monotonic() + self.linger
                while time.monotonic() < deadline:
                    if self.kicked is not None and len(self.received) >= self.wait_for:
                        break
                    self.poll()
                if self.kicked is not None:
                    self.close()  # a kicked link is given up
                if self.kicked is not None and self.kicked != 4:
                    # Kicked (reason 1): the SDK stops; the relogin variant logs in again at once.
                    if self.relogin:
                        self.open()
                        self.login()
                        self.leave()
                    return "kicked"
                if self.kicked == 4:
                    raise Dropped()  # a silent kick: the SDK reconnects
                self.leave()
                return outcome
            except (Dropped, SIOConnectionError, RuntimeError):
                if not self.reconnects:
                    return "gave up"
                outcome = "reconnected"
                time.sleep(BACKOFF[attempt])
                attempt += 1
        return "too many attempts"


def main():
    ok = ("OK", "OK", "OK")
    for transport in ("websocket", "xhr-polling"):
        over = "" if transport == "websocket" else " over xhr-polling"
        for scenario in ("clean", "drop", "refuse", "kick", "kick-silent", "error-login", "error-send", "delay-ack"):
            lc.case(f"nim {scenario}, well-behaved{over}", scenario, lambda port: [Client(port, "alice", linger=5, transport=transport)],
                    {"alice": ok}, idle=9.0 if scenario in ("refuse", "drop", "kick-silent") else 2.0, dialect="nim")
    lc.case("nim clean, before-login over xhr-polling", "clean", lambda port: [Client(port, "alice", before_login=True, transport="xhr-polling")],
            {"alice": ("FAILED", "FAILED", "OK")}, dialect="nim")
    lc.case("nim kick, relogin over xhr-polling", "kick", lambda port: [Client(port, "alice", relogin=True, linger=4, transport="xhr-polling")],
            {"alice": ("FAILED", "FAILED", "FAILED")}, dialect="nim")
    lc.case("nim kick, relogin", "kick", lambda port: [Client(port, "alice", relogin=True, linger=4)],
            {"alice": ("FAILED", "FAILED", "FAILED")}, dialect="nim")
    lc.case("nim clean, before-login", "clean", lambda port: [Client(port, "alice", before_login=True)],
            {"alice": ("FAILED", "FAILED", "OK")}, dialect="nim")
    lc.case("nim drop, no-reconnect", "drop", lambda port: [Client(port, "alice", reconnects=False, linger=4)],
            {"alice": ("FAILED", "OK", "FAILED")}, dialect="nim")
    # The Web SDK sends 1_2 every 30 s; this client never does, and stays 40 s.
    lc.case("nim clean, skips-heartbeats", "clean", lambda port: [Client(port, "alice", linger=40)],
            {"alice": ("NON-STRICT", "OK", "NON-STRICT")}, dialect="nim")
    lc.case("nim kick, never-sends", "kick", lambda port: [Client(port, "alice", sends=0)],
            {"alice": ("UNIMPLEMENTED", "OK", "OK")}, dialect="nim")
    # Two clients, both on WebSocket, then one on each transport.
    for bobs in ("websocket", "xhr-polling"):
        both = threading.Barrier(2)
        title = "nim two clients" + ("" if bobs == "websocket" else ", bob over xhr-polling")
        made = lc.case(title, "clean",
                       lambda port: [Client(port, "alice", to="bob", wait_for=2, barrier=both),
                                     Client(port, "bob", to="alice", wait_for=2, barrier=both, transport=bobs)],
                       {"alice": ok, "bob": ok}, dialect="nim")
        if made:
            alice, bob = made
            if "hello 0 from alice" not in bob.received or "hello 0 from bob" not in alice.received:
                lc.problem(f"{title}: messages not delivered (alice got {alice.received}, bob got {bob.received})")
    print(f"{len(lc.PROBLEMS)} problems")
    sys.exit(1 if lc.PROBLEMS else 0)


if __name__ == "__main__":
    main()
