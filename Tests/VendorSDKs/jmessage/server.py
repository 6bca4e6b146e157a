#!/usr/bin/env python3
"""A small mock of JMessage's web server side (socket.io 2 / engine.io 3), for driver.js.

    server.py SCENARIO --port N [--inner-port M]

python-socketio 4.x + python-engineio 3.x (eventlet) listen on --inner-port; a TCP front on
--port forwards every byte unchanged to it, and is where the faults are made (the capture
filters on --port): `drop` closes the client's TCP connection without a WebSocket close frame,
`refuse` also resets the next REFUSALS connection attempts (accept, then RST), then forwards
again. Every client event with a rid gets `ack {rid}` and then the same event with
`{rid, code, ...}` (s_across_single_text is answered as s_single_text); the client's replies
(msg_recv_v2, event_notification, sync_*_ack) get only the ack.

Scenarios: clean (a message from bob pushed 5 s after login), drop and refuse (the drop 3 s
after login), kick (event_notification event_type 1 3 s after login), error (login 801004 once,
sends 803003 then 803010), drop-pending (the first send gets no ack and the connection is
dropped 1 s later), drop-sync (as drop-pending for the sync_check the SDK sends right after
login: no ack, dropped 1 s later), unanswered (the login gets neither ack nor response), kick-password (event_type 2, password
changed, 3 s after login). A request on a connection that has not logged in is answered with 800013
(user logout): the mock's choice, the real server's answer there is not documented.
"""
import argparse
import json
import socket
import struct
import sys
import time

import eventlet
import eventlet.wsgi

eventlet.monkey_patch()

import socketio  # noqa: E402

REFUSALS = 3
APPKEY = "4f7aef34fb361292c566a1cd"
START = time.time()


def log(what, **kw):
    kw.update(t=round((time.time() - START) * 1000), what=what)
    print(json.dumps(kw), file=sys.stderr, flush=True)


class Front:
    """The TCP front: forwards, drops, refuses."""

    def __init__(self, port, inner):
        self.port, self.inner = port, inner
        self.pairs = []
        self.refuse = 0
        self.connections = 0

    def serve(self):
        listener = eventlet.listen(("127.0.0.1", self.port))
        while True:
            client, addr = listener.accept()
            self.connections += 1
            if self.refuse > 0:
                self.refuse -= 1
                log("refuse", peer=addr[1], left=self.refuse)
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                client.close()
                continue
            log("accept", peer=addr[1], n=self.connections)
            upstream = eventlet.connect(("127.0.0.1", self.inner))
            pair = (client, upstream)
            self.pairs.append(pair)
            eventlet.spawn_n(self.pump, client, upstream, pair)
            eventlet.spawn_n(self.pump, upstream, client, pair)

    def pump(self, src, dst, pair):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in pair:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                s.close()
            except OSError:
                pass
        if pair in self.pairs:
            self.pairs.remove(pair)

    def drop(self, refuse=0):
        """Close every client connection at TCP level (FIN, no WebSocket close frame)."""
        self.refuse = refuse
        log("drop", connections=len(self.pairs), then_refuse=refuse)
        for pair in list(self.pairs):
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=["clean", "drop", "refuse", "kick", "error", "drop-pending", "drop-sync", "unanswered", "kick-password"])
    ap.add_argument("--port", type=int, default=18300)
    ap.add_argument("--inner-port", type=int, default=0)
    args = ap.parse_args()
    scenario = args.scenario
    inner = args.inner_port or args.port + 1

    # python-engineio 3 defaults: pingInterval 25 s, pingTimeout 60 s.
    sio = socketio.Server(async_mode="eventlet", ping_interval=25, ping_timeout=60)
    app = socketio.WSGIApp(sio)
    front = Front(args.port, inner)
    state = {"logins": 0, "sends": 0, "msg": 0, "sync_key": 0, "dropped": False}
    logged_in = set()  # sids whose login succeeded

    def answer(sid, event, data, code=0, name=None, **extra):
        rid = data.get("rid")
        sio.emit("ack", {"rid": rid}, room=sid)
        body = {"rid": rid, "code": code}
        if code:
            body["message"] = extra.pop("message", "error")
        body.update(extra)
        sio.emit(name or event, body, room=sid)

    def just_ack(sid, data):
        sio.emit("ack", {"rid": data.get("rid")}, room=sid)

    @sio.event
    def connect(sid, environ):
        log("io.connect", sid=sid)

    @sio.event
    def disconnect(sid):
        logged_in.discard(sid)
        log("io.disconnect", sid=sid)

    @sio.on("c_init")
    def c_init(sid, data):
        log("c_init", data=data)
        answer(sid, "c_init", data)

    @sio.on("login")
    def login(sid, data):
        log("login", data=data)
        state["logins"] += 1
        if scenario == "unanswered":
            return  # neither ack nor response: the SDK re-sends the login on its own timers
        if scenario == "error" and state["logins"] == 1:
            answer(sid, "login", data, code=801004, message="invalid password")
            return
        answer(sid, "login", data)
        logged_in.add(sid)
        after_login(sid)

    def after_login(sid):
        if scenario == "clean":
            eventlet.spawn_after(5, push_message, sid)
        elif scenario in ("drop", "refuse") and not state["dropped"]:
            state["dropped"] = True
            eventlet.spawn_after(3, front.drop, REFUSALS if scenario == "refuse" else 0)
        elif scenario in ("kick", "kick-password"):
            eventlet.spawn_after(3, kick, sid)

    def push_message(sid):
        state["msg"] += 1
        now = int(time.time() * 1000)
        message = {
            "msg_id": 3_000_000 + state["msg"], "msg_type": 3, "from_uid": 20002, "from_gid": 0,
            "ctime_ms": now, "msg_level": 0, "need_receipt": False,
            "content": {
                "version": 1, "target_type": "single", "from_platform": "web", "target_id": "alice",
                "target_name": "alice", "from_type": "user", "from_id": "bob", "from_name": "bob",
                "create_time": now, "msg_type": "text", "msg_body": {"text": "hello alice, from bob"},
                "from_appkey": APPKEY, "target_appkey": APPKEY,
            },
        }
        log("push msg_sync", msg_id=message["msg_id"])
        sio.emit("msg_sync", {"messages": [message]}, room=sid)

    def kick(sid):
        event = {"event_id": 4_000_001, "event_type": 2 if scenario == "kick-password" else 1, "from_uid": 0, "gid": 0, "extra": 0,
                 "description": "", "ctime_ms": int(time.time() * 1000)}
        log("push event_notification (kick)", data=event)
        sio.emit("event_notification", event, room=sid)

    @sio.on("s_across_single_text")
    def send_single(sid, data):
        log("s_across_single_text", data=data)
        state["sends"] += 1
        if sid not in logged_in:
            # Not logged in on this connection (a re-send after a reconnect): 800013 user logout.
            answer(sid, "s_across_single_text", data, code=800013, name="s_single_text", message="user logout")
        elif scenario == "drop-pending" and state["sends"] == 1:
            log("withhold", rid=data.get("rid"))  # no ack, no response; drop 1 s later
            eventlet.spawn_after(1, front.drop, 0)
        elif scenario == "error" and state["sends"] == 1:
            answer(sid, "s_across_single_text", data, code=803003, name="s_single_text", message="target user not exist")
        elif scenario == "error" and state["sends"] == 2:
            answer(sid, "s_across_single_text", data, code=803010, name="s_single_text", message="beyond the frequency limit")
        else:
            answer(sid, "s_across_single_text", data, name="s_single_text",
                   msg_id=2_000_000 + state["sends"], ctime_ms=int(time.time() * 1000))

    @sio.on("sync_check")
    def sync_check(sid, data):
        log("sync_check", data=data)
        if scenario == "drop-sync" and not state["dropped"]:
            state["dropped"] = True
            log("withhold", rid=data.get("rid"))  # no ack, no response; drop 1 s later
            eventlet.spawn_after(1, front.drop, 0)
            return
        answer(sid, "sync_check", data, sync_key=state["sync_key"], sync_type=data.get("sync_type", 0),
               sync_event_key=data.get("sync_event_key", 0), msg_receipt_key=data.get("msg_receipt_key", 0))

    for reply in ("msg_recv_v2", "msg_recv", "event_notification", "sync_conversation_ack", "sync_event_ack",
                  "sync_receipt_ack"):
        def make(name):
            def handler(sid, data):
                log(name, data=data)
                just_ack(sid, data)
            return handler
        sio.on(reply, make(reply))

    eventlet.spawn_n(front.serve)
    log("listening", port=args.port, inner=inner, scenario=scenario)
    eventlet.wsgi.server(eventlet.listen(("127.0.0.1", inner)), app, log_output=False)


if __name__ == "__main__":
    main()
