#!/usr/bin/env python3
"""A small mock of the NIM Web link's server side, for the genuine NIM Web SDK (driver.js).

One port serves everything the SDK asks for, over plain HTTP/1.1 on 127.0.0.1:
  GET /lbs/webconf.jsp?...          LBS: {"common": {"link": [...], "link.default": [...]}}
  GET /socket.io/1/?t=...           socket.io 0.9 handshake: "<sid>:60:60:websocket,xhr-polling"
  GET /socket.io/1/websocket/<sid>  WebSocket (RFC 6455, written here: no library), then
                                    "1::" and NIM packets in socket.io "3:::" message frames.
The server answers each request with its sid, cid and ser and the r fields the SDK's
packetConfig reads (2_3 r=[loginRes, loginPorts, aosPushInfo], 5_1 r=[timetag], 7_1 r=[msg],
4_5, 1_2, 6_26 with r = [], 6_23 r=[time], 3_7 r=[[user]]), pushes with ser 0, and sends socket.io heartbeats "2::" every 25 s.

Scenarios (python3 server.py SCENARIO --port N):
  clean   log in, sync, answer sends, push one 7_2 msg from "bob" 3 s after the sync, heartbeats;
          the driver logs out after 70 s.
  drop    drops the first connection 4 s after its login (TCP RST: no close frame, no socket.io
          disconnect); accepts the next 3 connections (101 and the socket.io connect "1::") and
          drops each when its login arrives, unanswered; keeps the 5th.
  refuse  drops the first connection 4 s after login, then refuses the next 4 connection
          attempts (the socket.io handshake's TCP connection is reset without an answer), then
          accepts.
  kick    3 s after the sync pushes 2_5 kicked r=[16, 1, "", 0] (reason 1 samePlatformKick) and
          closes the connection 2 s later if the client has not.
  kick-silent  3 s after the first sync pushes 2_5 kicked r=[16, 4, "", 0] (reason 4
          silentlyKick), then accepts the client's next connection and keeps it.
  error   answers the first 7_1 sendMsg with 414 (parameter error), the second with 416 r=[3]
          (frequency control, 3 s), the next one it receives with 200, drops the connection 2 s
          after that, and answers the re-login on the next connection with 302 (wrong token).
  hb-unanswered  never answers the heartbeats 1_2 of the first connection (everything else as
          in clean, without the pushed message); accepts the client's next connection.
Every event is printed as a JSON line on stderr.
"""

import argparse
import asyncio
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
START = time.monotonic()


def log(event, **fields):
    fields.update(t=int((time.monotonic() - START) * 1000), event=event)
    print(json.dumps(fields, ensure_ascii=False), file=sys.stderr, flush=True)


def reset(writer):
    """Close the TCP connection with a RST (SO_LINGER 0): no FIN, no close frame."""
    sock = writer.get_extra_info("socket")
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    writer.transport.abort()


class Server:
    def __init__(self, scenario, port):
        self.scenario = scenario
        self.port = port
        self.ws_connections = 0
        self.handshakes = 0
        self.logins = 0
        self.refused = 0
        self.sids = 0
        self.server_time = 1_764_000_000_000

    def now(self):
        return self.server_time + int((time.monotonic() - START) * 1000)

    # ---- HTTP ---------------------------------------------------------------------------------

    async def handle(self, reader, writer):
        peer = writer.get_extra_info("peername")
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target, _ = (lines[0].split(" ") + ["", "", ""])[:3]
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        path = target.split("?")[0]
        log("http", method=method, path=path, peer=peer[1])
        if path == "/lbs/webconf.jsp":
            link = "127.0.0.1:%d" % self.port
            body = {"common": {"link": [link], "link.default": [link]}, "nosup": ["http://127.0.0.1:%d/nos" % self.port]}
            await self.respond(writer, 200, json.dumps(body), "application/json")
        elif path.rstrip("/") == "/socket.io/1":
            self.handshakes += 1
            if self.scenario == "refuse" and self.logins >= 1 and self.refused < 4:
                self.refused += 1
                log("refuse", attempt=self.refused, how="socket.io handshake reset")
                reset(writer)
                return
            self.sids += 1
            sid = "%d%011d" % (self.sids, 40023294911)
            await self.respond(writer, 200, "%s:60:60:websocket,xhr-polling" % sid, "text/plain")
        elif path.startswith("/socket.io/1/websocket/") and headers.get("upgrade", "").lower() == "websocket":
            await self.websocket(reader, writer, headers)
        else:
            await self.respond(writer, 404, "not found", "text/plain")

    async def respond(self, writer, status, body, ctype):
        data = body.encode()
        reason = {200: "OK", 404: "Not Found"}.get(status, "Error")
        writer.write(
            (
                "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
                "Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n" % (status, reason, ctype, len(data))
            ).encode()
            + data
        )
        try:
            await writer.drain()
        except ConnectionError:
            pass
        writer.close()

    # ---- WebSocket ----------------------------------------------------------------------------

    async def websocket(self, reader, writer, headers):
        key = headers.get("sec-websocket-key", "")
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        writer.write(
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Accept: %s\r\n\r\n" % accept
            ).encode()
        )
        self.ws_connections += 1
        conn = Connection(self, reader, writer, self.ws_connections)
        await conn.run()


class Connection:
    def __init__(self, server, reader, writer, index):
        self.server = server
        self.reader = reader
        self.writer = writer
        self.index = index
        self.closed = False
        self.tasks = []
        self.logged_in = False
        self.sends = 0

    def scenario(self):
        return self.server.scenario

    def frame(self, text, opcode=1):
        data = text.encode() if isinstance(text, str) else text
        n = len(data)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 127, n)
        return header + data

    def send_text(self, text):
        if self.closed:
            return
        log("send", conn=self.index, data=text[:300])
        self.writer.write(self.frame(text))

    def send_nim(self, packet):
        self.send_text("3:::" + json.dumps(packet, separators=(",", ":"), ensure_ascii=False))

    def later(self, delay, fn):
        async def run():
            await asyncio.sleep(delay)
            if not self.closed:
                fn()

        self.tasks.append(asyncio.ensure_future(run()))

    def drop(self, why):
        if self.closed:
            return
        log("drop", conn=self.index, why=why)
        self.closed = True
        reset(self.writer)

    def close(self, why):
        if self.closed:
            return
        log("close", conn=self.index, why=why)
        self.writer.write(self.frame(struct.pack("!H", 1000), opcode=8))
        self.closed = True
        self.writer.close()

    async def heartbeats(self):
        while not self.closed:
            await asyncio.sleep(25)
            if not self.closed:
                self.send_text("2::")

    async def read_frame(self):
        b1, b2 = await self.reader.readexactly(2)
        opcode = b1 & 0x0F
        n = b2 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
        mask = await self.reader.readexactly(4) if b2 & 0x80 else b"\0\0\0\0"
        data = bytearray(await self.reader.readexactly(n))
        for i in range(n):
            data[i] ^= mask[i % 4]
        return opcode, bytes(data)

    async def run(self):
        log("ws-open", conn=self.index)
        self.send_text("1::")
        self.tasks.append(asyncio.ensure_future(self.heartbeats()))
        try:
            while not self.closed:
                opcode, data = await self.read_frame()
                if opcode == 8:
                    log("ws-close-frame", conn=self.index)
                    if not self.closed:
                        self.writer.write(self.frame(data[:2], opcode=8))
                        self.closed = True
                        self.writer.close()
                    break
                if opcode == 9:
                    self.writer.write(self.frame(data, opcode=10))
                    continue
                if opcode != 1:
                    continue
                self.on_text(data.decode())
        except (asyncio.IncompleteReadError, ConnectionError):
            log("ws-eof", conn=self.index)
        finally:
            self.closed = True
            for task in self.tasks:
                task.cancel()
            try:
                self.writer.close()
            except Exception:
                pass

    # ---- socket.io 0.9 and NIM ----------------------------------------------------------------

    def on_text(self, text):
        log("recv", conn=self.index, data=text[:300])
        kind = text.split(":", 1)[0]
        if kind == "2":  # the client's answer to our socket.io heartbeat
            return
        if kind == "0":  # socket.io disconnect
            self.close("socket.io disconnect from the client")
            return
        if kind not in ("3", "4"):
            return
        body = text.split(":", 3)[3] if text.count(":") >= 3 else ""
        try:
            packet = json.loads(body)
        except ValueError:
            return
        self.on_request(packet)

    def reply(self, req, code=200, r=None):
        # r is always there: parseResponse reads r[i] for every response field the handler has
        # (a missing r throws inside the SDK: "Cannot read properties of undefined (reading '0')").
        packet = {"sid": req["SID"], "cid": req["CID"], "ser": req["SER"], "code": code, "r": [] if r is None else r}
        self.send_nim(packet)

    def on_request(self, req):
        sid, cid = req.get("SID"), req.get("CID")
        server = self.server
        scenario = self.scenario()
        if (sid, cid) == (2, 3):
            server.logins += 1
            if scenario == "drop" and 2 <= self.index <= 4:
                # accepted (101 and the socket.io connect 1::), then dropped before the login answer
                self.drop("drop on the login of connection %d (accepted, never logged in)" % self.index)
                return
            if scenario == "error" and server.logins >= 2:
                self.reply(req, 302)
                log("login-rejected", conn=self.index, code=302)
                self.later(3.0, lambda: self.close("after login 302"))
                return
            self.logged_in = True
            v = req["Q"][0]["v"]
            login_res = {"102": "conn-%d" % self.index, "103": "127.0.0.1", "104": str(50000 + self.index), "106": "CN"}
            port = {"3": 16, "4": v.get("4", ""), "13": "other-device", "19": v.get("19", ""), "102": "conn-0", "103": "127.0.0.1", "109": str(self.server.now() - 60000)}
            self.reply(req, 200, [login_res, [port], {"110": 0, "111": False}])
            if scenario == "drop" and self.index == 1:
                self.later(4.0, lambda: self.drop("drop 4 s after the login"))
            if scenario == "refuse" and server.logins == 1:
                self.later(4.0, lambda: self.drop("drop before refusing"))
        elif (sid, cid) == (5, 1):
            self.reply(req, 200, [self.server.now()])
            if scenario == "clean":
                self.later(3.0, self.push_msg)
            if scenario == "kick":
                self.later(3.0, lambda: self.kick(1))
            if scenario == "kick-silent" and self.index == 1:
                self.later(3.0, lambda: self.kick(4))
        elif (sid, cid) == (1, 2):
            if scenario == "hb-unanswered" and self.index == 1:
                log("heartbeat-unanswered", conn=self.index)
                return
            self.reply(req, 200)
        elif (sid, cid) == (3, 7):  # getUsers r=[[user Property]]: processUser maps content.users
            accounts = req["Q"][0]["v"] if req.get("Q") else []
            users = [{"1": a, "3": a.capitalize(), "12": str(self.server.server_time), "13": str(self.server.server_time)} for a in accounts]
            self.reply(req, 200, [users])
        elif (sid, cid) == (6, 23):  # getServerTime r=[time]
            self.reply(req, 200, [self.server.now()])
        elif (sid, cid) == (7, 1):
            self.sends += 1
            msg = dict(req["Q"][0]["v"])
            if scenario == "error" and self.sends == 1:
                self.reply(req, 414)
                return
            if scenario == "error" and self.sends == 2:
                self.reply(req, 416, [3])  # frequency control: r[0] is the lockout in seconds
                return
            if scenario == "error" and self.sends == 3:
                self.later(2.0, lambda: self.drop("drop 2 s after the send that followed the lockout"))
            msg.update({"2": "alice", "7": str(self.server.now()), "12": str(900000 + self.sends)})
            self.reply(req, 200, [msg])
        elif (sid, cid) == (2, 6):
            self.reply(req, 200)
        else:
            # 4_5 batchMarkRead and anything else: a bare success
            self.reply(req, 200)

    def push_msg(self):
        msg = {
            "0": 0, "1": "alice", "2": "bob", "4": 16, "6": "Bob", "7": str(self.server.now()), "8": 0,
            "9": "hello alice, from the server", "11": "bob-msg-1", "12": "800001",
        }
        self.send_nim({"sid": 7, "cid": 2, "ser": 0, "code": 200, "r": [msg]})

    def kick(self, reason):
        self.send_nim({"sid": 2, "cid": 5, "ser": 0, "code": 200, "r": [16, reason, "", 0]})
        self.later(2.0, lambda: self.close("2 s after the kick"))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["clean", "drop", "refuse", "kick", "kick-silent", "error", "hb-unanswered"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long (0: run until killed)")
    args = parser.parse_args()
    server = Server(args.scenario, args.port)
    srv = await asyncio.start_server(server.handle, "127.0.0.1", args.port)
    log("listening", port=args.port, scenario=args.scenario)
    async with srv:
        if args.seconds > 0:
            await asyncio.sleep(args.seconds)
        else:
            await srv.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
