#!/usr/bin/env python3
"""Benchmarks/many-websockets.py [--deflate] [--payload BYTES] N FILE -- a JSONL transcript
(Spec/capture-jsonl.md) of N LeanCloud WebSocket connections that are all open at once, to
measure what an open connection costs `imwire check` (peak RSS at two values of N).

Each connection: an `open` line, the HTTP upgrade both ways (`lc.protobuf2.3`, and
permessage-deflate with --deflate), then, once every connection is open, one binary message
each way whose protobuf payload is a GenericCommand `cmd` field followed by a `peerId` of
BYTES-2 bytes of text (default BYTES=2: the `cmd` field alone). No connection closes.
With --deflate the messages are compressed (raw deflate, context takeover, window 2^15), so
each direction's inflater holds zlib's state, and its window as far as the message filled it.
Example:
  python3 Benchmarks/many-websockets.py --deflate 2000 /tmp/ws2k.jsonl
  /usr/bin/time -f %M .build/release/imwire check --format json -o /dev/null /tmp/ws2k.jsonl
"""
import base64
import hashlib
import json
import random
import struct
import sys
import zlib

KEY = "dGhlIHNhbXBsZSBub25jZQ=="
ACCEPT = base64.b64encode(hashlib.sha1((KEY + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()


def heads(deflate):
    ext = ["Sec-WebSocket-Extensions: permessage-deflate"] if deflate else []
    request = ["GET /realtime HTTP/1.1", "Host: rtm51.leancloud.cn", "Upgrade: websocket", "Connection: Upgrade",
               f"Sec-WebSocket-Key: {KEY}", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Protocol: lc.protobuf2.3"] + ext
    response = ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
                f"Sec-WebSocket-Accept: {ACCEPT}", "Sec-WebSocket-Protocol: lc.protobuf2.3"] + ext
    return ("\r\n".join(request) + "\r\n\r\n").encode(), ("\r\n".join(response) + "\r\n\r\n").encode()


def frame(payload, masked, compressed):
    """One final binary frame; a client's is masked with key 0 (the payload goes out as is)."""
    first = 0x82 | (0x40 if compressed else 0)
    n = len(payload)
    mask = 0x80 if masked else 0
    if n < 126:
        head = bytes([first, mask | n])
    elif n <= 0xFFFF:
        head = bytes([first, mask | 126]) + struct.pack("!H", n)
    else:
        head = bytes([first, mask | 127]) + struct.pack("!Q", n)
    return head + (b"\x00\x00\x00\x00" if masked else b"") + payload


def message(size, deflate, rng):
    """GenericCommand: cmd = 0 (08 00), then peerId (field 4) of size-2 bytes when size > 2."""
    body = b"\x08\x00"
    if size > 2:
        text = bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(size - 2))
        length, value = b"", len(text)
        while True:
            byte = value & 0x7F
            value >>= 7
            length += bytes([byte | (0x80 if value else 0)])
            if not value:
                break
        body += b"\x22" + length + text
    if not deflate:
        return body
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return (compressor.compress(body) + compressor.flush(zlib.Z_SYNC_FLUSH))[:-4]


def main(argv):
    deflate = "--deflate" in argv
    args = [a for a in argv if a != "--deflate"]
    size = 2
    if "--payload" in args:
        at = args.index("--payload")
        size = int(args[at + 1])
        del args[at:at + 2]
    count, path = int(args[0]), args[1]
    rng = random.Random(1)
    request, response = heads(deflate)
    with open(path, "w") as out:
        def line(kind, conn, **fields):
            out.write(json.dumps({"type": kind, "conn": conn, **fields}) + "\n")
        for i in range(count):
            line("open", f"c{i}", url="wss://rtm51.leancloud.cn/realtime")
            line("stream", f"c{i}", dir="send", hex=request.hex())
            line("stream", f"c{i}", dir="receive", hex=response.hex())
        for i in range(count):
            line("stream", f"c{i}", dir="send", hex=frame(message(size, deflate, rng), True, deflate).hex())
            line("stream", f"c{i}", dir="receive", hex=frame(message(size, deflate, rng), False, deflate).hex())


if __name__ == "__main__":
    main(sys.argv[1:])
