#!/usr/bin/env python3
"""The client side of the genuine NIM, JMessage and yun2win web SDKs' recordings
(Fixtures/captures/vendor-sdk/DIALECT/DIALECT-clean.jsonl, made against the mocks they were proven
with) replayed to `imwire serve` with a scenario of no faults: every request must get the reply its
SDK got from the mock, and the replaying client is graded OK. (serve.py does the same for
LeanCloud's recordings.)

  NIM       the socket.io 0.9 handshake, then each frame the SDK sent on its link (login 2_3, sync,
            7_1, heartbeats); every request's answer has the recorded sid, cid, ser and code.
  JMessage  the engine.io 3 WebSocket, then each packet the SDK sent (c_init, login, sync_check,
            s_across_single_text, pings); every request with a rid gets its ack, then the recorded
            event (s_single_text for s_across_single_text) with the recorded code; every ping a pong.
  yun2win   MQTT 3.1.1 over WebSocket (mqttv3.1): CONNECT, the commands, PINGREQ, DISCONNECT, as
            sent; the recorded CONNACK code, {"returnCode":11}, and each command's ack with its
            y2wMessageId and the recorded returnCode.

Usage: Tests/CrossCheck/serve_replay.py [path/to/imwire]   (uses Tests/CrossCheck/.venv, as proxy.py does)
"""
import asyncio
import json
import os
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import serve as lc  # noqa: E402  (imwire serve's runner; it sets up Tests/CrossCheck/.venv as proxy.py does)
from websockets.asyncio.client import connect  # noqa: E402

RECORDINGS = os.path.join(lc.ROOT, "Fixtures", "captures", "vendor-sdk")


def recording(dialect):
    with open(os.path.join(RECORDINGS, dialect, f"{dialect}-clean.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


async def until(condition, seconds=3.0):
    """Waits until `condition()` holds, `seconds` at most; returns whether it did."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


# -- NIM ------------------------------------------------------------------------------------------

def nim_frame(text):
    """A socket.io 0.9 message frame `3:::{json}`'s JSON, else None."""
    return json.loads(text[4:]) if text.startswith("3:::") else None


async def replay_nim(port, lines):
    expected = {}  # ser -> (sid, cid, code) the mock answered
    for line in lines:
        body = nim_frame(line.get("text", "")) if line.get("dir") == "receive" else None
        if body and "ser" in body and "code" in body:
            expected[body["ser"]] = (body["sid"], body["cid"], body["code"])
    handshake = urllib.request.urlopen(f"http://127.0.0.1:{port}/socket.io/1/?t=1", timeout=5).read().decode()
    session = handshake.split(":")[0]
    got = {}
    async with connect(f"ws://127.0.0.1:{port}/socket.io/1/websocket/{session}", compression=None, ping_interval=None) as ws:
        async def read():
            async for text in ws:
                body = nim_frame(text)
                if body and "ser" in body and "code" in body:
                    got[body["ser"]] = (body["sid"], body["cid"], body["code"])
        reader = asyncio.create_task(read())
        for line in lines:
            if line.get("dir") != "send":
                continue
            body = nim_frame(line["text"])
            await ws.send(line["text"])
            if body and body.get("SER") in expected:
                await until(lambda: body["SER"] in got)
        await asyncio.sleep(0.3)
        reader.cancel()
    return expected, got


# -- JMessage -------------------------------------------------------------------------------------

def engine_event(text):
    """A socket.io 2 EVENT `42[name, data]`: (name, data), else None."""
    if not text.startswith("42"):
        return None
    event = json.loads(text[2:])
    return event[0], event[1] if len(event) > 1 else None


# The SDK's replies to the server's pushes: acknowledged, never answered (and pushes a fault-free
# scenario does not make).
JMESSAGE_REPLIES = {"msg_recv_v2", "event_notification", "sync_conversation_ack", "sync_event_ack", "sync_receipt_ack"}


async def replay_jmessage(port, lines):
    expected = {}  # rid -> [("ack", None), (event, code)] as the mock answered
    for line in lines:
        event = engine_event(line.get("text", "")) if line.get("dir") == "receive" else None
        if event and isinstance(event[1], dict) and "rid" in event[1]:
            expected.setdefault(event[1]["rid"], []).append((event[0], event[1].get("code")))
    for line in lines:
        event = engine_event(line.get("text", "")) if line.get("dir") == "send" else None
        if event and event[0] in JMESSAGE_REPLIES and isinstance(event[1], dict):
            expected.pop(event[1].get("rid"), None)  # not replayed
    got, pongs, pings = {}, [0], 0
    async with connect(f"ws://127.0.0.1:{port}/socket.io/?EIO=3&transport=websocket", compression=None, ping_interval=None) as ws:
        async def read():
            async for text in ws:
                if text == "3":
                    pongs[0] += 1
                event = engine_event(text)
                if event and isinstance(event[1], dict) and "rid" in event[1]:
                    got.setdefault(event[1]["rid"], []).append((event[0], event[1].get("code")))
        reader = asyncio.create_task(read())
        for line in lines:
            if line.get("dir") != "send":
                continue
            event = engine_event(line["text"])
            if event and event[0] in JMESSAGE_REPLIES:
                continue
            await ws.send(line["text"])
            if line["text"] == "2":
                pings += 1
            rid = event[1].get("rid") if event and isinstance(event[1], dict) else None
            if rid in expected:
                await until(lambda: len(got.get(rid, [])) >= len(expected[rid]))
        await until(lambda: pongs[0] >= pings)
        reader.cancel()
    return expected, got, (pings, pongs[0])


# -- yun2win --------------------------------------------------------------------------------------

def mqtt_packets(data):
    """Splits MQTT packets: [(type, flags, body)]."""
    packets, at = [], 0
    while at < len(data):
        first, length, shift, at = data[at], 0, 0, at + 1
        while True:
            byte = data[at]
            at += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        packets.append((first >> 4, first & 0x0F, data[at:at + length]))
        at += length
    return packets


def y2w_answers(packets, into):
    """CONNACK codes and the server PUBLISHes' JSON of `packets`, added to `into`."""
    for kind, flags, body in packets:
        if kind == 2:
            into.setdefault("connack", []).append(body[1])
        elif kind == 3:
            topic = int.from_bytes(body[:2], "big")
            payload = body[2 + topic + (2 if flags & 0x06 else 0):]
            message = json.loads(payload)
            if "y2wMessageId" in message and "returnCode" in message:
                into.setdefault("acks", {})[message["y2wMessageId"]] = message["returnCode"]
            elif "returnCode" in message:
                into.setdefault("connection", []).append(message["returnCode"])


async def replay_yun2win(port, lines):
    expected, got = {}, {}
    for line in lines:
        if line.get("dir") == "receive":
            y2w_answers(mqtt_packets(bytes.fromhex(line["hex"])), expected)
    subprotocol = next(line["subprotocol"] for line in lines if line.get("type") == "open")
    async with connect(f"ws://127.0.0.1:{port}/", subprotocols=[subprotocol], compression=None, ping_interval=None) as ws:
        async def read():
            async for data in ws:
                y2w_answers(mqtt_packets(data), got)
        reader = asyncio.create_task(read())
        for line in lines:
            if line.get("dir") != "send":
                continue
            data = bytes.fromhex(line["hex"])
            await ws.send(data)
            # What the SDK waited for before its next packet: the accept after CONNECT, a command's ack.
            for kind, flags, body in mqtt_packets(data):
                if kind == 1:
                    await until(lambda: "connection" in got)
                elif kind == 3:
                    topic = int.from_bytes(body[:2], "big")
                    sent = json.loads(body[2 + topic + (2 if flags & 0x06 else 0):])
                    if sent.get("y2wMessageId") in expected.get("acks", {}):
                        await until(lambda: sent["y2wMessageId"] in got.get("acks", {}))
        await until(lambda: len(got.get("acks", {})) >= len(expected.get("acks", {})))
        reader.cancel()
    return expected, got


def main():
    for dialect in ("nim", "jmessage", "yun2win"):
        lines = recording(dialect)
        with tempfile.TemporaryDirectory() as out:
            plain = os.path.join(out, "plain.json")
            with open(plain, "w") as f:
                json.dump({"dialect": dialect, "summary": "No faults: every request answered.", "actions": []}, f)
            process, port = lc.serve(None, out, idle=1.5, scenario_file=plain, dialect=dialect)
            before = len(lc.PROBLEMS)
            try:
                if dialect == "nim":
                    expected, got = asyncio.run(replay_nim(port, lines))
                    detail = f"{len(expected)} requests"
                elif dialect == "jmessage":
                    expected, got, (pings, pongs) = asyncio.run(replay_jmessage(port, lines))
                    detail = f"{len(expected)} requests, {pings} pings"
                    if pongs != pings:
                        lc.problem(f"replay {dialect}: {pings} pings, {pongs} pongs")
                else:
                    expected, got = asyncio.run(replay_yun2win(port, lines))
                    detail = f"CONNACK, the accept and {len(expected.get('acks', {}))} commands"
            except Exception as e:
                process.kill()
                lc.problem(f"replay {dialect}: the replay failed: {e!r}")
                continue
            code, stdout, stderr = lc.finish(process)
            if expected != got:
                lc.problem(f"replay {dialect}: the mock answered {expected}, imwire serve {got}")
            index = json.load(open(os.path.join(out, "index.json")))
            grades = {client: cases.get("plain", {}).get("grade") for client, cases in index.items()}
            if set(grades.values()) != {"OK"} or code != 0:
                lc.problem(f"replay {dialect}: grades {grades}, exit {code}: {json.dumps(index)[:600]}")
            if len(lc.PROBLEMS) == before:
                print(f"ok   replay of the {dialect} SDK's clean recording: {detail} answered as the mock answered them; "
                      f"grades {grades}", flush=True)
    print(f"{len(lc.PROBLEMS)} problems")
    sys.exit(1 if lc.PROBLEMS else 0)


if __name__ == "__main__":
    main()
