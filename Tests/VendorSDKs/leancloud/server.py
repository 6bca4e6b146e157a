#!/usr/bin/env python3
"""A small mock of LeanCloud's realtime (RTM / IM v2) server side, for the genuine JS SDK
(leancloud-realtime 5.0.0-rc.7) driven by driver.js.

It speaks lc.protobuf2.3 (binary frames) and lc.proto2base64.3 (base64 text frames), with
GenericCommand from Spec/leancloud/messages2.proto compiled by protoc (record.sh does that and
puts the module on PYTHONPATH). Only 127.0.0.1.

Scenarios (--scenario):
  clean       session/open, conv/start, direct -> ack, one push (direct) which the SDK acks,
              echo answered, session/close -> session/closed.
  drop        the first connection is dropped (TCP closed, no close frame) 4 s after
              session/opened; connections 2-4 are accepted (WebSocket open) and dropped when their
              session/open arrives, unanswered; the fifth is kept.
  refuse      the first connection is dropped 4 s after login, then the listener is closed for
              --refuse-seconds (connection attempts get RST), then it listens again.
  goaway      a goaway command 3 s after login; the reconnect is accepted.
  close-fatal a WebSocket close frame 4103 (INVALID_LOGIN, one of the SDK's fatal codes) 3 s
              after login; any later connection is accepted.
  close-retry a WebSocket close frame 4107 (READ_TIMEOUT, not fatal for the SDK) 3 s after
              login; the reconnect is accepted.
  kick        session/closed code 4111 (SESSION_CONFLICT) 3 s after the send's ack.
  error       the first direct is answered with an error command (4401 INVALID_MESSAGING_TARGET,
              same i), the second with an ack carrying code 4315 (CONVERSATION_BLACKLISTED).
  error-login session/open answered with session/closed code 4102 (SIGNATURE_FAILED), same i.
  ackclose    two pushes 300 ms apart right after conv/started (the SDK acks the first at once,
              holds the second's ack for up to 1 s: its throttle); the driver logs out on the
              second, so the second push is never acknowledged.
  twouser     routes direct messages between the peers connected (conv members), with conv/query
              answered for a conversation a peer does not know yet.
  freechat    twouser plus the FreeChat app's flows: a group (conv/joined to the members online),
              text, image and audio messages, invite and kick (conv/add, conv/remove with
              members_joined / members_left), rename (conv/update), mute and unmute (answered
              conv/updated), history (logs), a chat room (transient conv, pushes with convType 2,
              joined by the peer with conv/add) and quit.
Writes a JSON line per event to --log (what the server did, with times).
"""
import argparse
import asyncio
import base64
import json
import socket
import ssl
import sys
import time
import uuid

import messages2_pb2 as pb
from websockets.asyncio.server import serve

SUBPROTOCOLS = ["lc.protobuf2.3", "lc.proto2base64.3"]
START = time.monotonic()


class Server:
    def __init__(self, args):
        self.args = args
        self.scenario = args.scenario
        self.accepted = 0
        self.peers = {}  # peerId -> connection
        self.convs = {}  # cid -> {"m": [...], "c": creator, "name": ...}
        self.log_file = open(args.log, "a") if args.log else None
        self.server = None
        self.done = asyncio.Event()

    def log(self, event, **kw):
        line = json.dumps({"t": round((time.monotonic() - START) * 1000), "event": event, **kw})
        print(line, flush=True)
        if self.log_file:
            self.log_file.write(line + "\n")
            self.log_file.flush()

    # ---- framing -------------------------------------------------------------------------
    @staticmethod
    def decode(ws, data):
        cmd = pb.GenericCommand()
        if isinstance(data, str):
            cmd.ParseFromString(base64.b64decode(data))
        else:
            cmd.ParseFromString(data)
        return cmd

    async def send(self, ws, cmd):
        raw = cmd.SerializeToString()
        if ws.subprotocol == "lc.proto2base64.3":
            await ws.send(base64.b64encode(raw).decode())
        else:
            await ws.send(raw)
        self.log("sent", conn=ws.number, cmd=pb.CommandType.Name(cmd.cmd),
                 op=pb.OpType.Name(cmd.op) if cmd.HasField("op") else None,
                 i=cmd.i if cmd.HasField("i") else None)

    def drop(self, ws, why):
        """Close the TCP connection without a WebSocket close frame."""
        self.log("drop", conn=ws.number, why=why)
        ws.transport.abort()

    # ---- commands ------------------------------------------------------------------------
    def now_ms(self):
        return int(time.time() * 1000)

    async def push(self, ws, cid, from_peer, text, delay=0.0):
        if delay:
            await asyncio.sleep(delay)
        mid = uuid.uuid4().hex[:20]
        ts = self.now_ms()
        cmd = pb.GenericCommand(cmd=pb.direct, peerId=ws.peer)
        cmd.directMessage.fromPeerId = from_peer
        cmd.directMessage.cid = cid
        cmd.directMessage.id = mid
        cmd.directMessage.timestamp = ts
        cmd.directMessage.msg = json.dumps({"_lctype": -1, "_lctext": text})
        try:
            await self.send(ws, cmd)
            self.log("push", conn=ws.number, mid=mid, timestamp=ts, cid=cid)
        except Exception as e:  # connection gone
            self.log("push-failed", conn=ws.number, error=str(e))

    async def handle(self, ws, cmd):
        c, op, i = cmd.cmd, (cmd.op if cmd.HasField("op") else None), (cmd.i if cmd.HasField("i") else None)
        name = pb.CommandType.Name(c) + ("/" + pb.OpType.Name(op) if op is not None else "")
        self.log("received", conn=ws.number, cmd=name, i=i,
                 r=cmd.sessionMessage.r if c == pb.session and op == pb.open else None,
                 ua=cmd.sessionMessage.ua if c == pb.session and op == pb.open else None,
                 where=cmd.convMessage.where.data if c == pb.conv and op == pb.query else None)
        sc = self.scenario
        if c == pb.session and op == pb.open:
            ws.peer = cmd.peerId
            if sc == "error-login":
                reply = pb.GenericCommand(cmd=pb.session, op=pb.closed, peerId=cmd.peerId, i=i)
                reply.sessionMessage.code = 4102
                reply.sessionMessage.reason = "SIGNATURE_FAILED"
                await self.send(ws, reply)
                return
            if sc == "drop" and 2 <= ws.number <= 4:
                # accepted (WebSocket open), then dropped before session/opened
                self.drop(ws, "drop scenario: connection %d dropped on its session/open, unanswered" % ws.number)
                return
            self.peers[cmd.peerId] = ws
            reply = pb.GenericCommand(cmd=pb.session, op=pb.opened, peerId=cmd.peerId, i=i, serverTs=self.now_ms())
            reply.sessionMessage.st = "st-" + uuid.uuid4().hex
            reply.sessionMessage.stTtl = 3600
            await self.send(ws, reply)
            loop = asyncio.get_running_loop()
            if sc == "drop" and ws.number == 1:
                loop.create_task(self.drop_later(ws, 4.0, "drop scenario: connection 1, 4 s after login"))
            elif sc == "goaway" and ws.number == 1:
                loop.create_task(self.goaway_later(ws, 3.0))
            elif sc == "close-fatal" and ws.number == 1:
                loop.create_task(self.close_later(ws, 3.0, 4103, "INVALID_LOGIN"))
            elif sc == "close-retry" and ws.number == 1:
                loop.create_task(self.close_later(ws, 3.0, 4107, "READ_TIMEOUT"))
            elif sc == "refuse" and ws.number == 1:
                loop.create_task(self.drop_later(ws, 4.0, "refuse scenario: first connection, 4 s after login", refuse=True))
        elif c == pb.session and op == pb.close:
            reply = pb.GenericCommand(cmd=pb.session, op=pb.closed, peerId=ws.peer, i=i)
            await self.send(ws, reply)
        elif c == pb.conv and op == pb.start:
            transient = cmd.convMessage.transient
            members = sorted(set(list(cmd.convMessage.m) + [ws.peer])) if not transient else [ws.peer]
            unique = cmd.convMessage.unique
            cid = (unique and next((k for k, v in self.convs.items() if v["m"] == members), None)) or uuid.uuid4().hex[:24]
            attr = json.loads(cmd.convMessage.attr.data or "{}")
            self.convs.setdefault(cid, {"m": members, "c": ws.peer, "name": attr.get("name"), "tr": transient, "logs": []})
            reply = pb.GenericCommand(cmd=pb.conv, op=pb.started, peerId=ws.peer, i=i)
            reply.convMessage.cid = cid
            reply.convMessage.cdate = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
            await self.send(ws, reply)
            if sc == "freechat" and not transient:
                for member in members:
                    other = self.peers.get(member)
                    if member != ws.peer and other is not None:
                        note = pb.GenericCommand(cmd=pb.conv, op=pb.joined, peerId=member)
                        note.convMessage.cid, note.convMessage.initBy = cid, ws.peer
                        await self.send(other, note)
            if sc == "ackclose":
                loop = asyncio.get_running_loop()
                loop.create_task(self.push(ws, cid, "bob", "first push", 0.5))
                loop.create_task(self.push(ws, cid, "bob", "second push", 0.8))
        elif c == pb.conv and op == pb.query:
            where = json.loads(cmd.convMessage.where.data or "{}")
            oid = where.get("objectId")
            ids = [oid] if isinstance(oid, str) else (oid or {}).get("$in", [])
            results = []
            for cid in ids:
                conv = self.convs.get(cid)
                if conv:
                    row = {"objectId": cid, "m": conv["m"], "c": conv["c"], "tr": conv.get("tr", False), "unique": not conv.get("tr"),
                           "createdAt": "2026-11-27T00:00:00.000Z", "updatedAt": "2026-11-27T00:00:00.000Z"}
                    if conv.get("name"):
                        row["name"] = conv["name"]
                    results.append(row)
            reply = pb.GenericCommand(cmd=pb.conv, op=pb.results, peerId=ws.peer, i=i)
            reply.convMessage.results.data = json.dumps(results)
            await self.send(ws, reply)
        elif c == pb.conv and op in (pb.add, pb.remove):
            cid = cmd.convMessage.cid
            conv = self.convs.setdefault(cid, {"m": [], "c": ws.peer, "tr": False, "logs": []})
            pids = list(cmd.convMessage.m)
            if op == pb.add:
                conv["m"] = sorted(set(conv["m"]) | set(pids))
            else:
                conv["m"] = [m for m in conv["m"] if m not in pids]
            reply = pb.GenericCommand(cmd=pb.conv, op=pb.added if op == pb.add else pb.removed, peerId=ws.peer, i=i)
            reply.convMessage.cid = cid
            reply.convMessage.allowedPids.extend(pids)
            await self.send(ws, reply)
            if not conv.get("tr"):
                for member in set(conv["m"]) | set(pids):
                    other = self.peers.get(member)
                    if member == ws.peer or other is None:
                        continue
                    if member in pids:
                        note = pb.GenericCommand(cmd=pb.conv, op=pb.joined if op == pb.add else pb.left, peerId=member)
                    else:
                        note = pb.GenericCommand(cmd=pb.conv, op=pb.members_joined if op == pb.add else pb.members_left, peerId=member)
                        note.convMessage.m.extend(pids)
                    note.convMessage.cid, note.convMessage.initBy = cid, ws.peer
                    await self.send(other, note)
        elif c == pb.conv and op in (pb.update, pb.mute, pb.unmute):
            reply = pb.GenericCommand(cmd=pb.conv, op=pb.updated, peerId=ws.peer, i=i)
            reply.convMessage.cid = cmd.convMessage.cid
            reply.convMessage.udate = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
            if op == pb.update and cmd.convMessage.HasField("attr"):
                attr = json.loads(cmd.convMessage.attr.data or "{}")
                conv = self.convs.get(cmd.convMessage.cid)
                if conv is not None and "name" in attr:
                    conv["name"] = attr["name"]
            await self.send(ws, reply)
        elif c == pb.logs:
            conv = self.convs.get(cmd.logsMessage.cid, {"logs": []})
            limit = cmd.logsMessage.limit or 20
            reply = pb.GenericCommand(cmd=pb.logs, peerId=ws.peer, i=i)
            reply.logsMessage.SetInParent()  # the SDK reads logsMessage.logs even when empty
            for item in conv.get("logs", [])[-limit:]:
                log = reply.logsMessage.logs.add()
                log.msgId, log.timestamp, log.data = item["mid"], item["t"], item["data"]
                setattr(log, "from", item["from"])
            await self.send(ws, reply)
        elif c == pb.direct:
            ws.sends += 1
            if sc == "error" and ws.sends == 1:
                reply = pb.GenericCommand(cmd=pb.error, peerId=ws.peer, i=i)
                reply.errorMessage.code = 4401
                reply.errorMessage.reason = "INVALID_MESSAGING_TARGET"
                await self.send(ws, reply)
                return
            if sc == "error" and ws.sends == 2:
                reply = pb.GenericCommand(cmd=pb.ack, peerId=ws.peer, i=i)
                reply.ackMessage.code = 4315
                reply.ackMessage.reason = "CONVERSATION_BLACKLISTED"
                await self.send(ws, reply)
                return
            mid = uuid.uuid4().hex[:20]
            ts = self.now_ms()
            reply = pb.GenericCommand(cmd=pb.ack, peerId=ws.peer, i=i)
            reply.ackMessage.uid = mid
            reply.ackMessage.t = ts
            await self.send(ws, reply)
            cid = cmd.directMessage.cid
            if sc in ("twouser", "freechat"):
                conv = self.convs.get(cid, {"m": []})
                conv.setdefault("logs", []).append({"mid": mid, "t": ts, "from": ws.peer, "data": cmd.directMessage.msg})
                for member in conv["m"]:
                    other = self.peers.get(member)
                    if member != ws.peer and other is not None:
                        pushed = pb.GenericCommand(cmd=pb.direct, peerId=member)
                        d = pushed.directMessage
                        d.fromPeerId, d.cid, d.id, d.timestamp = ws.peer, cid, mid, ts
                        if sc == "freechat":
                            d.convType = 2 if conv.get("tr") else 1  # LCIMConvType: 1 normal, 2 transient
                        if cmd.directMessage.HasField("msg"):
                            d.msg = cmd.directMessage.msg
                        if cmd.directMessage.HasField("binaryMsg"):
                            d.binaryMsg = cmd.directMessage.binaryMsg
                        await self.send(other, pushed)
                        self.log("push", conn=other.number, mid=mid, timestamp=ts, cid=cid, to=member)
            elif sc in ("clean", "drop", "refuse", "kick", "goaway", "close-fatal", "close-retry") and ws.sends == 1:
                asyncio.get_running_loop().create_task(self.push(ws, cid, "bob", "hello from bob", 2.0))
            if sc == "kick" and ws.sends == 1:
                asyncio.get_running_loop().create_task(self.kick(ws, 4.0))
        elif c == pb.ack:
            self.log("client-ack", conn=ws.number, cid=cmd.ackMessage.cid, fromts=cmd.ackMessage.fromts,
                     tots=cmd.ackMessage.tots)
        elif c == pb.echo:
            reply = pb.GenericCommand(cmd=pb.echo, peerId=ws.peer, i=i)
            await self.send(ws, reply)
        elif c == pb.read:
            pass
        elif i is not None:
            self.log("unhandled", conn=ws.number, cmd=name)

    async def drop_later(self, ws, delay, why, refuse=False):
        await asyncio.sleep(delay)
        self.drop(ws, why)
        if refuse:
            await self.refuse_for(self.args.refuse_seconds)

    async def goaway_later(self, ws, delay):
        await asyncio.sleep(delay)
        await self.send(ws, pb.GenericCommand(cmd=pb.goaway))
        self.log("goaway", conn=ws.number)

    async def close_later(self, ws, delay, code, reason):
        await asyncio.sleep(delay)
        self.log("close-frame", conn=ws.number, code=code, reason=reason)
        await ws.close(code, reason)

    async def kick(self, ws, delay):
        await asyncio.sleep(delay)
        cmd = pb.GenericCommand(cmd=pb.session, op=pb.closed, peerId=ws.peer)
        cmd.sessionMessage.code = 4111
        cmd.sessionMessage.reason = "SESSION_CONFLICT"
        await self.send(ws, cmd)
        self.log("kick", conn=ws.number, code=4111)

    async def refuse_for(self, seconds):
        self.log("listener-closed", seconds=seconds)
        self.server.close()
        await asyncio.sleep(seconds)
        self.server = await self.listen()
        self.log("listener-open")

    async def connection(self, ws):
        self.accepted += 1
        ws.number = self.accepted
        ws.peer = None
        ws.sends = 0
        self.log("accepted", conn=ws.number, subprotocol=ws.subprotocol)
        try:
            async for data in ws:
                await self.handle(ws, self.decode(ws, data))
        except Exception as e:
            self.log("connection-error", conn=ws.number, error=repr(e))
        finally:
            self.log("closed", conn=ws.number, code=ws.close_code, reason=ws.close_reason)
            if ws.peer and self.peers.get(ws.peer) is ws:
                del self.peers[ws.peer]

    async def listen(self):
        context = None
        if self.args.tls:
            # wss:// (record_tls.py): the certificate and key files; the key log for tshark and imwire
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self.args.tls)
            if self.args.keylog:
                context.keylog_filename = self.args.keylog
        return await serve(
            self.connection, "127.0.0.1", self.args.port, subprotocols=SUBPROTOCOLS,
            compression=None, ping_interval=None, max_size=2**20, ssl=context)

    async def run(self):
        self.server = await self.listen()
        self.log("listening", port=self.args.port, scenario=self.scenario)
        await asyncio.sleep(self.args.lifetime)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--scenario", required=True)
    p.add_argument("--log")
    p.add_argument("--refuse-seconds", type=float, default=20.0)
    p.add_argument("--lifetime", type=float, default=600.0)
    p.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve wss:// with this certificate and key")
    p.add_argument("--keylog", help="with --tls: write the TLS secrets here (NSS key log)")
    args = p.parse_args()
    asyncio.run(Server(args).run())


if __name__ == "__main__":
    main()
