#!/usr/bin/env python3
"""Generates Fixtures/websocket/*: the Autobahn testsuite matrix (categories 1-7, 9 scaled,
12-13) ported to IMWire golden fixtures, plus IMWire's own bad-input and handshake cases.

Standard library only (zlib, codecs): the bytes, offsets and expected verdicts are computed
here, independently of the Swift decoder. Each case lists the client's frames (masked, as the
peer under test receives them) and the findings IMWire must report; the server's bytes are
what a conforming server answers (echo, pong, close echo, or a close with the failure code).

Run from the package root:  python3 scripts/generate-websocket-fixtures.py
Then:  swift run imwire fixtures verify --dir Fixtures/websocket
       python3 Tests/CrossCheck/websocket.py
"""

import codecs
import json
import os
import shutil
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fixtures", "websocket")
AUTOBAHN = "crossbario/autobahn-testsuite autobahntestsuite/case/"

# Close code a conforming peer sends per rule (RFC 6455 §7.4.1, RFC 7692 §8); None: no failure.
CLOSE_CODE = {
    "WS.RSV-WITHOUT-EXTENSION": 1002, "WS.RESERVED-OPCODE": 1002, "WS.CONTROL-FRAME-TOO-LONG": 1002,
    "WS.CONTROL-FRAME-FRAGMENTED": 1002, "WS.CLIENT-FRAME-UNMASKED": 1002, "WS.SERVER-FRAME-MASKED": 1002,
    "WS.LENGTH-NOT-MINIMAL": 1002, "WS.LENGTH-HIGH-BIT-SET": 1002, "WS.FRAME-TOO-LARGE": 1009,
    "WS.CONTINUATION-WITHOUT-START": 1002, "WS.MESSAGE-INTERLEAVED": 1002, "WS.INVALID-UTF8": 1007,
    "WS.MESSAGE-TOO-LARGE": 1009, "WS.TOO-MANY-FRAGMENTS": 1009, "WS.CLOSE-PAYLOAD-ONE-BYTE": 1002,
    "WS.CLOSE-CODE-INVALID": 1002, "WS.CLOSE-REASON-INVALID-UTF8": 1007, "PMD.RSV1-ON-CONTINUATION": 1002,
    "PMD.RSV1-ON-CONTROL": 1002, "ZLIB.CORRUPT-DATA": 1007, "ZLIB.OUTPUT-LIMIT": 1009, "ZLIB.EXPANSION-RATIO": 1009,
    "WS.FRAME-AFTER-CLOSE": None,
}

TEXT, BINARY, CONT, CLOSE, PING, PONG = 1, 2, 0, 8, 9, 10


class Frame:
    """One client frame: header fields, payload (unmasked), and how it is written."""

    def __init__(self, opcode, payload=b"", fin=True, rsv=0, mask=True, length_form=None, length_value=None):
        self.opcode, self.payload, self.fin, self.rsv = opcode, bytes(payload), fin, rsv
        self.mask, self.length_form = mask, length_form
        self.length_value = length_value  # a announced length that differs from the payload (hostile)

    def encode(self, key):
        first = (0x80 if self.fin else 0) | (self.rsv << 4) | self.opcode
        n = len(self.payload) if self.length_value is None else self.length_value
        form = self.length_form or (7 if n < 126 else 16 if n <= 0xFFFF else 64)
        mbit = 0x80 if self.mask else 0
        if form == 7:
            head = bytes([first, mbit | n])
        elif form == 16:
            head = bytes([first, mbit | 126]) + struct.pack("!H", n)
        else:
            head = bytes([first, mbit | 127]) + struct.pack("!Q", n)
        if not self.mask:
            return head, len(head), self.payload
        kb = struct.pack("!I", key)
        masked = bytes(b ^ kb[i % 4] for i, b in enumerate(self.payload))
        return head + kb, len(head) + 4, masked


def server_frame(opcode, payload, rsv=0):
    n = len(payload)
    first = 0x80 | (rsv << 4) | opcode
    if n < 126:
        head = bytes([first, n])
    elif n <= 0xFFFF:
        head = bytes([first, 126]) + struct.pack("!H", n)
    else:
        head = bytes([first, 127]) + struct.pack("!Q", n)
    return head + payload


def failfast_utf8(data, final=True):
    """Offset of the first byte at which UTF-8 decoding can no longer succeed, from CPython's
    strict decoder: its error spans the "maximal subpart" (Unicode §3.9); when that subpart
    begins with a valid lead byte the failing byte is the one after it, otherwise the subpart's
    own first byte. len(data) when the text ends mid-sequence (if `final`); None if valid.
    (CPython's incremental decoder is not used: it reports `ed a0` only at the third byte.)"""
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError as error:
        if error.reason == "unexpected end of data":
            return len(data) if final else None
        lead = data[error.start]
        return error.end if 0xC2 <= lead <= 0xF4 else error.start


class Deflate:
    """permessage-deflate parameters in force (the server's response)."""

    def __init__(self, header="permessage-deflate", server_nct=False, client_nct=False, server_bits=15, client_bits=15):
        self.header = header
        self.server_nct, self.client_nct = server_nct, client_nct
        self.server_bits, self.client_bits = server_bits, client_bits

    @staticmethod
    def parse(header):
        d = Deflate(header)
        for part in [p.strip() for p in header.split(";")[1:]]:
            name, _, value = part.partition("=")
            if name == "server_no_context_takeover":
                d.server_nct = True
            elif name == "client_no_context_takeover":
                d.client_nct = True
            elif name == "server_max_window_bits":
                d.server_bits = int(value)
            elif name == "client_max_window_bits":
                d.client_bits = int(value)
        return d


class Compressor:
    def __init__(self, bits, nct):
        self.bits, self.nct = max(bits, 9), nct
        self.obj = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -self.bits)

    def compress(self, data):
        out = self.obj.compress(data) + self.obj.flush(zlib.Z_SYNC_FLUSH)
        if out.endswith(b"\x00\x00\xff\xff"):
            out = out[:-4]
        if self.nct:
            self.obj = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -self.bits)
        return out or b"\x00"


def text(s):
    return s.encode("utf-8")


# ---------------------------------------------------------------------------------------------
# A case: client frames, expected findings (rule, frame index, where), how Autobahn chopped it.
# `where`: "start" (frame's first byte), "len" (second byte), "len8" (extended length),
# "payload" (first payload byte), ("payload", k), "end" (after the payload), "utf8" (the
# fail-fast offset within the message, computed), "close-reason-utf8".

CASES = []


def case(cid, desc, frames, expect=(), chunking="whole", deflate=None, limits=None, layer="frame",
         source=None, notes=None, disagree=None):
    CASES.append(dict(id=cid, desc=desc, frames=frames, expect=list(expect), chunking=chunking, deflate=deflate,
                      limits=limits, layer=layer, source=source, notes=notes, disagree=disagree or {}))


def autobahn_source(cid):
    """The Autobahn case file a case is ported from (7.7, 7.9 and 7.13 are generated from one file each)."""
    for family in ("7.7", "7.9", "7.13"):
        if cid.startswith(family + "."):
            return AUTOBAHN + "case" + family.replace(".", "_") + "_X.py"
    return AUTOBAHN + "case" + cid.replace(".", "_") + ".py"


def build(c, index):
    """Encodes a case: client bytes, expected findings with offsets, server bytes, decoded form."""
    # From the case's id, not its position: adding a case leaves the other fixtures' bytes alone.
    key_base = zlib.crc32(c["id"].encode())
    client = b""
    spans = []  # (start, payload_offset, frame)
    for i, f in enumerate(c["frames"]):
        head, hlen, body = f.encode((key_base + i * 0x9E3779B1) & 0xFFFFFFFF)
        spans.append((len(client), len(client) + hlen, f))
        client += head + body
    truncate = c.get("truncate")
    if truncate:
        client = client[:truncate]

    findings = []
    for rule, fi, where in c["expect"]:
        start, pstart, f = spans[fi]
        if where == "start":
            off = start
        elif where == "len":
            off = start + 1
        elif where == "len8":
            off = start + 2
        elif where == "payload":
            off = pstart
        elif where == "end":
            off = pstart + len(f.payload)
        elif isinstance(where, tuple) and where[0] == "payload":
            off = pstart + where[1]
        elif where == "utf8":
            # the message's frames up to fi: find the bad byte in the joined payload
            first = fi
            while first > 0 and (spans[first][2].opcode == CONT or spans[first][2].opcode >= 8):
                first -= 1
            joined, owners = b"", []
            for k in range(first, fi + 1):
                fk = spans[k][2]
                if fk.opcode >= 8:
                    continue
                for j in range(len(fk.payload)):
                    owners.append(spans[k][1] + j)
                joined += fk.payload
            bad = failfast_utf8(joined, final=spans[fi][2].fin)
            if bad is None:
                raise SystemExit(f"{c['id']}: expected invalid UTF-8 but the payload is valid")
            off = owners[bad] if bad < len(owners) else pstart + len(f.payload)
        elif where == "close-reason-utf8":
            bad = failfast_utf8(f.payload[2:])
            off = pstart + 2 + bad
        else:
            raise SystemExit(f"{c['id']}: bad where {where}")
        findings.append((rule, off, fi))

    # The conforming server: echo messages, answer pings, echo the close; stop at the first failure.
    failure = next(((r, o, fi) for r, o, fi in findings if CLOSE_CODE.get(r)), None)
    fail_frame = failure[2] if failure else None
    deflate = Deflate.parse(c["deflate"]) if c["deflate"] else None
    s_comp = Compressor(deflate.server_bits, deflate.server_nct) if deflate else None
    c_inflate = zlib.decompressobj(wbits=-max(deflate.client_bits, 9)) if deflate else None
    server = b""
    decoded = []
    frames = []  # the frames the peer accepts, as on the wire after unmasking (not inflated)
    partial = None  # (opcode, payload, compressed)
    closed = False
    for i, (_, _, f) in enumerate(spans):
        if fail_frame is not None and i >= fail_frame:
            break
        if closed:
            break
        frames.append({"opcode": f.opcode, "fin": f.fin, "rsv": f.rsv, "payload_hex": f.payload.hex()})
        if f.opcode in (PING, PONG):
            decoded.append({"type": "ping" if f.opcode == PING else "pong", "payload_hex": f.payload.hex()})
            if f.opcode == PING:
                server += server_frame(PONG, f.payload)
            continue
        if f.opcode == CLOSE:
            body = f.payload
            entry = {"type": "close"}
            if len(body) >= 2:
                entry["code"] = struct.unpack("!H", body[:2])[0]
                entry["reason_hex"] = body[2:].hex()
            decoded.append(entry)
            server += server_frame(CLOSE, body[:2])
            closed = True
            continue
        if f.opcode in (TEXT, BINARY):
            partial = [f.opcode, b"", bool(f.rsv & 4) and deflate is not None]
        if partial is None:
            continue
        partial[1] += f.payload
        if f.fin:
            opcode, data, compressed = partial
            if compressed:
                data = c_inflate.decompress(data + b"\x00\x00\xff\xff")
                if deflate.client_nct:
                    c_inflate = zlib.decompressobj(wbits=-max(deflate.client_bits, 9))
            decoded.append({"type": "text" if opcode == TEXT else "binary", "payload_hex": data.hex()})
            if s_comp:
                server += server_frame(opcode, s_comp.compress(data), rsv=4)
            else:
                server += server_frame(opcode, data)
            partial = None
    close_code = CLOSE_CODE[failure[0]] if failure else None
    if failure and not closed:
        server += server_frame(CLOSE, struct.pack("!H", close_code))

    inp = {"tested": "client", "client_hex": client.hex(), "server_hex": server.hex()}
    if c["deflate"]:
        inp["permessage_deflate"] = c["deflate"]
    if c["chunking"] != "whole":
        inp["chunking"] = c["chunking"]
    if c["limits"]:
        inp["limits"] = c["limits"]
    fixture = {
        "description": c["desc"],
        "dialect": "websocket",
        "layer": c["layer"],
        "input": inp,
        "decoded": {"messages": decoded, "close_code": close_code, "frames": frames},
        "expect": [{"rule": r, "offset": o} for r, o, _ in findings] or "ok",
        # Only the oracles that agreed; a documented deviation is not an agreement.
        "verified_by": [o for o in ("wsproto 1.3.2", "websockets 17.4") if o.split()[0] not in c["disagree"]],
        "source": c["source"] or autobahn_source(c["id"]),
    }
    if c["notes"]:
        fixture["notes"] = c["notes"]
    if c["disagree"]:
        # Each entry names the oracle's own verdict: the close code it sends (None: it accepts)
        # and how many frames it accepts ("all": every frame up to a close; "+N": N more than
        # the fixture lists), so that the cross-check excuses that difference and no other.
        everything = next((i + 1 for i, (_, _, f) in enumerate(spans) if f.opcode == CLOSE), len(spans))
        known = {}
        for oracle, (code, accepted, reason) in sorted(c["disagree"].items()):
            if accepted == "all":
                accepted = everything
            elif isinstance(accepted, str):
                accepted = len(frames) + int(accepted)
            known[oracle] = {"close_code": code, "frames": accepted, "reason": reason}
        fixture["known_disagreements"] = known
    return fixture


# ---------------------------------------------------------------------------------------------
# Category 1: framing (case1_1_X.py, case1_2_X.py)

SIZES_1 = [0, 125, 126, 127, 128, 65535, 65536, 65536]
for n, size in enumerate(SIZES_1, 1):
    chop = 997 if n == 8 else None
    case(f"1.1.{n}", f"Autobahn 1.1.{n}: text message of {size} bytes ('*')" + (", sent in 997-byte chops" if chop else ""),
         [Frame(TEXT, b"*" * size)], chunking=[chop] if chop else "whole", source=AUTOBAHN + f"case1_1_{n}.py")
    case(f"1.2.{n}", f"Autobahn 1.2.{n}: binary message of {size} bytes (0xfe)" + (", sent in 997-byte chops" if chop else ""),
         [Frame(BINARY, b"\xfe" * size)], chunking=[chop] if chop else "whole", source=AUTOBAHN + f"case1_2_{n}.py")

# Category 2: pings and pongs
case("2.1", "Autobahn 2.1: ping without payload", [Frame(PING)])
case("2.2", "Autobahn 2.2: ping with a small text payload", [Frame(PING, text("Hello, world!"))])
case("2.3", "Autobahn 2.3: ping with a small binary payload", [Frame(PING, bytes([0x00, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x00, 0xFF]))])
case("2.4", "Autobahn 2.4: ping with a 125-byte binary payload", [Frame(PING, b"\xfe" * 125)])
case("2.5", "Autobahn 2.5: ping with a 126-byte payload (too long for a control frame)",
     [Frame(PING, b"\xfe" * 126)], expect=[("WS.CONTROL-FRAME-TOO-LONG", 0, "len")])
case("2.6", "Autobahn 2.6: ping with a 125-byte payload, sent one byte at a time", [Frame(PING, b"\xfe" * 125)], chunking="octets")
case("2.7", "Autobahn 2.7: unsolicited pong without payload, then close 1000", [Frame(PONG), Frame(CLOSE, struct.pack("!H", 1000))])
case("2.8", "Autobahn 2.8: unsolicited pong with a payload, then close 1000",
     [Frame(PONG, text("unsolicited pong payload")), Frame(CLOSE, struct.pack("!H", 1000))])
case("2.9", "Autobahn 2.9: unsolicited pong, then a ping", [Frame(PONG, text("unsolicited pong payload")), Frame(PING, text("ping payload"))])
case("2.10", "Autobahn 2.10: 10 pings with payloads", [Frame(PING, text(f"payload-{i}")) for i in range(10)])
case("2.11", "Autobahn 2.11: 10 pings with payloads, sent one byte at a time", [Frame(PING, text(f"payload-{i}")) for i in range(10)], chunking="octets")

# Category 3: reserved bits (Autobahn's rsv value: 4 = RSV1, 2 = RSV2, 1 = RSV3)
hello = text("Hello, world!")
case("3.1", "Autobahn 3.1: small text with RSV = 1", [Frame(TEXT, hello, rsv=1)], expect=[("WS.RSV-WITHOUT-EXTENSION", 0, "start")])
case("3.2", "Autobahn 3.2: small text, then small text with RSV = 2, then ping",
     [Frame(TEXT, hello), Frame(TEXT, hello, rsv=2), Frame(PING)], expect=[("WS.RSV-WITHOUT-EXTENSION", 1, "start")])
case("3.3", "Autobahn 3.3: small text, then small text with RSV = 3, then ping, frame-wise",
     [Frame(TEXT, hello), Frame(TEXT, hello, rsv=3), Frame(PING)], expect=[("WS.RSV-WITHOUT-EXTENSION", 1, "start")], chunking="frames")
case("3.4", "Autobahn 3.4: small text, then small text with RSV = 4, then ping, octet-wise",
     [Frame(TEXT, hello), Frame(TEXT, hello, rsv=4), Frame(PING)], expect=[("WS.RSV-WITHOUT-EXTENSION", 1, "start")], chunking="octets")
case("3.5", "Autobahn 3.5: small binary with RSV = 5", [Frame(BINARY, bytes([0, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0, 0xFF]), rsv=5)],
     expect=[("WS.RSV-WITHOUT-EXTENSION", 0, "start"), ("WS.RSV-WITHOUT-EXTENSION", 0, "start")],
     notes="RSV1 and RSV3 are reported as two findings (RSV1 belongs to permessage-deflate, RSV2/RSV3 to no extension).")
case("3.6", "Autobahn 3.6: small binary message with RSV = 6 (Autobahn describes it as a ping; case3_6.py sends opcode 2)",
     [Frame(BINARY, hello, rsv=6)],
     expect=[("WS.RSV-WITHOUT-EXTENSION", 0, "start"), ("WS.RSV-WITHOUT-EXTENSION", 0, "start")])
case("3.7", "Autobahn 3.7: close without payload with RSV = 7", [Frame(CLOSE, rsv=7)],
     expect=[("WS.RSV-WITHOUT-EXTENSION", 0, "start"), ("WS.RSV-WITHOUT-EXTENSION", 0, "start")])

# Category 4: opcodes
# 4.x.1: the opcode alone; 4.x.2: with 'reserved opcode payload'; 4.x.3: between a text and a ping;
# 4.x.4: the same with 'Hello, world!' as its payload; 4.x.5: as 4.x.4, sent octet-wise.
for group, kind, opcodes in [(1, "non-control", [3, 4, 5, 6, 7]), (2, "control", [11, 12, 13, 14, 15])]:
    for n, op in enumerate(opcodes, 1):
        payload = {2: text("reserved opcode payload"), 4: hello, 5: hello}.get(n, b"")
        framed = n >= 3
        frames = ([Frame(TEXT, hello)] if framed else []) + [Frame(op, payload)] + ([Frame(PING)] if framed else [])
        case(f"4.{group}.{n}", f"Autobahn 4.{group}.{n}: reserved {kind} opcode {op}" + (f" with payload '{payload.decode()}'" if payload else "")
             + (" between a text and a ping" if framed else "") + (", sent octet-wise" if n == 5 else ""),
             frames, expect=[("WS.RESERVED-OPCODE", 1 if framed else 0, "start")], chunking="octets" if n == 5 else "whole")

# Category 5: fragmentation
f1, f2, f3, f4, f5 = (text(f"fragment{i}") for i in range(1, 6))
case("5.1", "Autobahn 5.1: ping in 2 fragments", [Frame(PING, f1, fin=False), Frame(CONT, f2)],
     expect=[("WS.CONTROL-FRAME-FRAGMENTED", 0, "start"), ("WS.CONTINUATION-WITHOUT-START", 1, "start")])
case("5.2", "Autobahn 5.2: pong in 2 fragments", [Frame(PONG, f1, fin=False), Frame(CONT, f2)],
     expect=[("WS.CONTROL-FRAME-FRAGMENTED", 0, "start"), ("WS.CONTINUATION-WITHOUT-START", 1, "start")])
for n, chunking in [(3, "whole"), (4, "frames"), (5, "octets")]:
    case(f"5.{n}", f"Autobahn 5.{n}: text in 2 fragments ({chunking})", [Frame(TEXT, f1, fin=False), Frame(CONT, f2)], chunking=chunking)
for n, chunking in [(6, "whole"), (7, "frames"), (8, "octets")]:
    case(f"5.{n}", f"Autobahn 5.{n}: text in 2 fragments with a ping in between ({chunking})",
         [Frame(TEXT, f1, fin=False), Frame(PING, text("ping payload")), Frame(CONT, f2)], chunking=chunking)
for n, chunking in [(9, "whole"), (10, "frames"), (11, "octets")]:
    case(f"5.{n}", f"Autobahn 5.{n}: text after a FIN continuation with nothing to continue ({chunking})",
         [Frame(CONT, text("non-continuation payload")), Frame(TEXT, hello)], chunking=chunking,
         expect=[("WS.CONTINUATION-WITHOUT-START", 0, "start")])
for n, chunking in [(12, "whole"), (13, "frames"), (14, "octets")]:
    case(f"5.{n}", f"Autobahn 5.{n}: text after a non-FIN continuation with nothing to continue ({chunking})",
         [Frame(CONT, text("non-continuation payload"), fin=False), Frame(TEXT, hello)], chunking=chunking,
         expect=[("WS.CONTINUATION-WITHOUT-START", 0, "start")])
case("5.15", "Autobahn 5.15: text in 2 fragments, then continuations with nothing to continue",
     [Frame(TEXT, f1, fin=False), Frame(CONT, f2), Frame(CONT, f3, fin=False), Frame(TEXT, f4)],
     expect=[("WS.CONTINUATION-WITHOUT-START", 2, "start")])
for n, first_fin in [(16, False), (17, True)]:
    frames = []
    for _ in range(2):
        frames += [Frame(CONT, f1, fin=first_fin), Frame(TEXT, f2, fin=False), Frame(CONT, f3)]
    case(f"5.{n}", f"Autobahn 5.{n}: twice (continuation FIN={int(first_fin)}, text FIN=0, continuation FIN=1)", frames,
         expect=[("WS.CONTINUATION-WITHOUT-START", 0, "start"), ("WS.CONTINUATION-WITHOUT-START", 3, "start")])
case("5.18", "Autobahn 5.18: text in 2 fragments, both with a text opcode", [Frame(TEXT, f1, fin=False), Frame(TEXT, f2)],
     expect=[("WS.MESSAGE-INTERLEAVED", 1, "start")])
for n, chunking in [(19, "whole"), (20, "frames")]:
    case(f"5.{n}", f"Autobahn 5.{n}: text in 5 fragments with 2 pings in between ({chunking})",
         [Frame(TEXT, f1, fin=False), Frame(CONT, f2, fin=False), Frame(PING, text("pongme 1!")), Frame(CONT, f3, fin=False),
          Frame(PING, text("pongme 2!")), Frame(CONT, f4, fin=False), Frame(CONT, f5)], chunking=chunking)

# Category 6: UTF-8 (case6_1_1.py ... case6_4_4.py, and case6_x_x.py for 6.5-6.23)
case("6.1.1", "Autobahn 6.1.1: empty text message", [Frame(TEXT)])
case("6.1.2", "Autobahn 6.1.2: text in 3 empty fragments", [Frame(TEXT, fin=False), Frame(CONT, fin=False), Frame(CONT)])
case("6.1.3", "Autobahn 6.1.3: text in 3 fragments, first and last empty",
     [Frame(TEXT, fin=False), Frame(CONT, text("middle frame payload"), fin=False), Frame(CONT)])
hello_utf8 = text("Hello-µ@ßöäüàá-UTF-8!!")
case("6.2.1", "Autobahn 6.2.1: valid UTF-8 in one fragment", [Frame(TEXT, hello_utf8)])
case("6.2.2", "Autobahn 6.2.2: valid UTF-8 in 2 fragments, split on a code point boundary ('Hello-µ@ßöä' + 'üàá-UTF-8!!')",
     [Frame(TEXT, text("Hello-µ@ßöä"), fin=False), Frame(CONT, text("üàá-UTF-8!!"))])
case("6.2.3", "Autobahn 6.2.3: valid UTF-8 in 1-byte fragments (split inside code points)",
     [Frame(TEXT if i == 0 else CONT, hello_utf8[i:i + 1], fin=i == len(hello_utf8) - 1) for i in range(len(hello_utf8))])
# 'κόσμε' as Autobahn (and Markus Kuhn's UTF-8 test) spells it: the ό is U+1F79, 3 bytes.
kosme = bytes.fromhex("cebae1bdb9cf83cebcceb5")
assert kosme.decode("utf-8") == "\u03ba\u1f79\u03c3\u03bc\u03b5"
case("6.2.4", "Autobahn 6.2.4: 'κόσμε' (ce ba e1 bd b9 cf 83 ce bc ce b5) in 1-byte fragments",
     [Frame(TEXT if i == 0 else CONT, kosme[i:i + 1], fin=i == len(kosme) - 1) for i in range(len(kosme))])
bad = kosme + b"\xed\xa0\x80" + text("edited")
case("6.3.1", "Autobahn 6.3.1: invalid UTF-8 (the surrogate U+D800 after 'κόσμε') in one fragment", [Frame(TEXT, bad)],
     expect=[("WS.INVALID-UTF8", 0, "utf8")])
case("6.3.2", "Autobahn 6.3.2: the same invalid UTF-8 in 1-byte fragments",
     [Frame(TEXT if i == 0 else CONT, bad[i:i + 1], fin=i == len(bad) - 1) for i in range(len(bad))],
     expect=[("WS.INVALID-UTF8", len(kosme) + 1, "utf8")],
     disagree={oracle: (1007, "+1", f"{oracle} checks UTF-8 with CPython's incremental decoder (codecs.getincrementaldecoder), which "
                                     "reports the surrogate prefix `ed a0` only when the third byte arrives: it fails one frame "
                                     "later than the first byte that makes the text invalid, with the same 1007.")
               for oracle in ("wsproto", "websockets")})
# 6.4.x: 'κόσμε', then f4 90 80 80 (U+110000 in the UTF-8 scheme, out of range: invalid at 0x90,
# the message's byte 12), then 'edited'.
fast = kosme + b"\xf4\x90\x80\x80" + text("edited")
case("6.4.1", "Autobahn 6.4.1: fail fast: 3 fragments ('κόσμε', f4 90 80 80, 'edited'), the second makes the text invalid",
     [Frame(TEXT, kosme, fin=False), Frame(CONT, b"\xf4\x90\x80\x80", fin=False), Frame(CONT, text("edited"))],
     expect=[("WS.INVALID-UTF8", 1, "utf8")])
case("6.4.2", "Autobahn 6.4.2: fail fast: 3 fragments, the second only the byte that makes the text invalid (0x90)",
     [Frame(TEXT, fast[:12], fin=False), Frame(CONT, fast[12:13], fin=False), Frame(CONT, fast[13:])],
     expect=[("WS.INVALID-UTF8", 1, "utf8")])
# 6.4.3/6.4.4: one frame whose header goes out with the first chop (2 + 4 bytes of mask).
case("6.4.3", "Autobahn 6.4.3: fail fast: one frame delivered in 3 chops (header + 'κόσμε', f4 90 80 80, 'edited')",
     [Frame(TEXT, fast)], chunking=[6 + 11, 4, 6], expect=[("WS.INVALID-UTF8", 0, "utf8")])
case("6.4.4", "Autobahn 6.4.4: fail fast: one frame delivered in 3 chops (header + 12 bytes, the invalid 0x90, the rest)",
     [Frame(TEXT, fast)], chunking=[6 + 12, 1, len(fast) - 13], expect=[("WS.INVALID-UTF8", 0, "utf8")])


def autobahn_utf8_sequences():
    """case6_x_x.py's createUtf8TestSequences(): Markus Kuhn's UTF-8 decoder capability test as
    Autobahn lists it, group by group (6.5 ... 6.23), each (valid, bytes). Ranges are Python 2's
    xrange, end excluded, as in the original."""
    groups = []
    vss = kosme
    groups.append(("Some valid UTF-8 sequences", [
        (True, b"hello\x24world"), (True, b"hello\xc2\xa2world"), (True, b"hello\xe2\x82\xacworld"),
        (True, b"hello\xf0\xa4\xad\xa2world"), (True, vss)]))
    # Autobahn computes these with its own validator: valid and ending on a code point.
    groups.append(("All prefixes of a valid UTF-8 string that contains multi-byte code points",
                   [(failfast_utf8(vss[:i]) is None, vss[:i]) for i in range(1, len(vss) + 1)]))
    groups.append(("First possible sequence of a certain length",
                   [(True, b"\x00"), (True, b"\xc2\x80"), (True, b"\xe0\xa0\x80"), (True, b"\xf0\x90\x80\x80")]))
    groups.append(("First possible sequence length 5/6 (invalid codepoints)",
                   [(False, b"\xf8\x88\x80\x80\x80"), (False, b"\xfc\x84\x80\x80\x80\x80")]))
    groups.append(("Last possible sequence of a certain length",
                   [(True, b"\x7f"), (True, b"\xdf\xbf"), (True, b"\xef\xbf\xbf"), (True, b"\xf4\x8f\xbf\xbf")]))
    groups.append(("Last possible sequence length 4/5/6 (invalid codepoints)",
                   [(False, b"\xf7\xbf\xbf\xbf"), (False, b"\xfb\xbf\xbf\xbf\xbf"), (False, b"\xfd\xbf\xbf\xbf\xbf\xbf")]))
    groups.append(("Other boundary conditions", [(True, b"\xed\x9f\xbf"), (True, b"\xee\x80\x80"), (True, b"\xef\xbf\xbd"),
                                                 (True, b"\xf4\x8f\xbf\xbf"), (False, b"\xf4\x90\x80\x80")]))
    groups.append(("Unexpected continuation bytes", [(False, b"\x80"), (False, b"\xbf"), (False, b"\x80\xbf"), (False, b"\x80\xbf\x80"),
                                                     (False, b"\x80\xbf\x80\xbf"), (False, b"\x80\xbf\x80\xbf\x80"),
                                                     (False, b"\x80\xbf\x80\xbf\x80\xbf"), (False, bytes(range(0x80, 0xBF)))]))
    groups.append(("Lonely start characters", [(False, b"".join(bytes([i, 0x20]) for i in range(lo, hi)))
                                               for lo, hi in [(0xC0, 0xDF), (0xE0, 0xEF), (0xF0, 0xF7), (0xF8, 0xFB), (0xFC, 0xFD)]]))
    k = [b"\xc0", b"\xe0\x80", b"\xf0\x80\x80", b"\xf8\x80\x80\x80", b"\xfc\x80\x80\x80\x80",
         b"\xdf", b"\xef\xbf", b"\xf7\xbf\xbf", b"\xfb\xbf\xbf\xbf", b"\xfd\xbf\xbf\xbf\xbf"]
    groups.append(("Sequences with last continuation byte missing", [(False, kk) for kk in k]))
    groups.append(("Concatenation of incomplete sequences", [(False, b"".join(k))]))
    groups.append(("Impossible bytes", [(False, b"\xfe"), (False, b"\xff"), (False, b"\xfe\xfe\xff\xff")]))
    groups.append(("Examples of an overlong ASCII character", [(False, b"\xc0\xaf"), (False, b"\xe0\x80\xaf"), (False, b"\xf0\x80\x80\xaf"),
                                                               (False, b"\xf8\x80\x80\x80\xaf"), (False, b"\xfc\x80\x80\x80\x80\xaf")]))
    groups.append(("Maximum overlong sequences", [(False, b"\xc1\xbf"), (False, b"\xe0\x9f\xbf"), (False, b"\xf0\x8f\xbf\xbf"),
                                                  (False, b"\xf8\x87\xbf\xbf\xbf"), (False, b"\xfc\x83\xbf\xbf\xbf\xbf")]))
    groups.append(("Overlong representation of the NUL character", [(False, b"\xc0\x80"), (False, b"\xe0\x80\x80"), (False, b"\xf0\x80\x80\x80"),
                                                                    (False, b"\xf8\x80\x80\x80\x80"), (False, b"\xfc\x80\x80\x80\x80\x80")]))
    groups.append(("Single UTF-16 surrogates", [(False, bytes.fromhex(h)) for h in
                                                ["eda080", "edadbf", "edae80", "edafbf", "edb080", "edbe80", "edbfbf"]]))
    groups.append(("Paired UTF-16 surrogates", [(False, bytes.fromhex(h)) for h in
                                                ["eda080edb080", "eda080edbfbf", "edadbfedb080", "edadbfedbfbf",
                                                 "edae80edb080", "edae80edbfbf", "edafbfedb080", "edafbfedbfbf"]]))
    nonchars = [(True, b"\xef\xbf\xbe"), (True, b"\xef\xbf\xbf")]
    for z1 in b"\xf0\xf1\xf2\xf3\xf4":
        for z2 in b"\x8f\x9f\xaf\xbf":
            if not (z1 == 0xF4 and z2 != 0x8F):  # those encode code points above U+10FFFF
                for z3 in b"\xbe\xbf":
                    zz = bytes([z1, z2, 0xBF, z3])
                    if zz not in (b"\xf0\x8f\xbf\xbe", b"\xf0\x8f\xbf\xbf"):  # overlong
                        nonchars.append((True, zz))
    groups.append(("Non-character code points (valid UTF-8)", nonchars))
    groups.append(("Unicode specials (i.e. replacement char)", [(True, bytes.fromhex(h)) for h in
                                                                ["efbfb9", "efbfba", "efbfbb", "efbfbc", "efbfbd", "efbfbe", "efbfbf"]]))
    return groups


for group, (title, sequences) in enumerate(autobahn_utf8_sequences(), 5):
    for n, (valid, payload) in enumerate(sequences, 1):
        cid = f"6.{group}.{n}"
        if (failfast_utf8(payload) is None) != valid:
            raise SystemExit(f"{cid}: Autobahn says {'valid' if valid else 'invalid'}, Python's UTF-8 decoder disagrees")
        case(cid, f"Autobahn {cid} ({title}): {'valid' if valid else 'invalid'} UTF-8 in one text frame, payload 0x{payload.hex()}",
             [Frame(TEXT, payload)], expect=[] if valid else [("WS.INVALID-UTF8", 0, "utf8")],
             source=AUTOBAHN + f"case6_x_x.py (createUtf8TestSequences, group {group}, sequence {n})")

# Category 7: close handling
close1000 = struct.pack("!H", 1000)
case("7.1.1", "Autobahn 7.1.1: text message, then close 1000 (which Autobahn sends once the echo has come back)",
     [Frame(TEXT, text("Hello World!")), Frame(CLOSE, close1000)])
case("7.1.2", "Autobahn 7.1.2: close 1000, then a second close without payload", [Frame(CLOSE, close1000), Frame(CLOSE)],
     expect=[("WS.FRAME-AFTER-CLOSE", 1, "start")],
     notes="Autobahn grades the server, which must ignore the second close; the client's bytes still break RFC 6455 §5.5.1.")
case("7.1.3", "Autobahn 7.1.3: close 1000, then a ping without payload", [Frame(CLOSE, close1000), Frame(PING)],
     expect=[("WS.FRAME-AFTER-CLOSE", 1, "start")])
case("7.1.4", "Autobahn 7.1.4: close, then text", [Frame(CLOSE, close1000), Frame(TEXT, text("Hello World!"))], expect=[("WS.FRAME-AFTER-CLOSE", 1, "start")])
case("7.1.5", "Autobahn 7.1.5: text fragment, close, then the continuation",
     [Frame(TEXT, f1, fin=False), Frame(CLOSE, close1000), Frame(CONT, f2)], expect=[("WS.FRAME-AFTER-CLOSE", 2, "start")],
     disagree={"websockets": (1002, 1, "websockets 17.4 fails a close received inside a fragmented message with 1002 ('incomplete fragmented message'); RFC 6455 §5.4 allows control frames between fragments, and Autobahn 7.1.5 expects a clean close.")})
case("7.1.6", "Autobahn 7.1.6 (scaled 1/32): 8 KiB text ('BAsd7&jh23' repeated; Autobahn: 256 KiB), text 'Hello World!', close 1000, "
     "then a ping without payload",
     [Frame(TEXT, (b"BAsd7&jh23" * 820)[:8192]), Frame(TEXT, text("Hello World!")), Frame(CLOSE, close1000), Frame(PING)],
     expect=[("WS.FRAME-AFTER-CLOSE", 3, "start")], notes="Autobahn sends 256 KiB; scaled down to keep the fixture small.")
case("7.3.1", "Autobahn 7.3.1: close with an empty payload", [Frame(CLOSE)])
case("7.3.2", "Autobahn 7.3.2: close with a 1-byte payload ('a')", [Frame(CLOSE, b"a")], expect=[("WS.CLOSE-PAYLOAD-ONE-BYTE", 0, "payload")])
case("7.3.3", "Autobahn 7.3.3: close 1000 without reason", [Frame(CLOSE, close1000)])
case("7.3.4", "Autobahn 7.3.4: close 1000 with a small reason", [Frame(CLOSE, close1000 + text("Hello World!"))])
case("7.3.5", "Autobahn 7.3.5: close 1000 with a 123-byte reason", [Frame(CLOSE, close1000 + b"*" * 123)])
case("7.3.6", "Autobahn 7.3.6: close 1000 with a 124-byte reason (126-byte payload)", [Frame(CLOSE, close1000 + b"*" * 124)],
     expect=[("WS.CONTROL-FRAME-TOO-LONG", 0, "len")])
case("7.5.1", "Autobahn 7.5.1: close 1000 with an invalid UTF-8 reason", [Frame(CLOSE, close1000 + bad)],
     expect=[("WS.CLOSE-REASON-INVALID-UTF8", 0, "close-reason-utf8")])
for n, code in enumerate([1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999], 1):
    case(f"7.7.{n}", f"Autobahn 7.7.{n}: close with valid code {code}", [Frame(CLOSE, struct.pack("!H", code))])
for n, code in enumerate([0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999], 1):
    case(f"7.9.{n}", f"Autobahn 7.9.{n}: close with invalid code {code}", [Frame(CLOSE, struct.pack("!H", code))],
         expect=[("WS.CLOSE-CODE-INVALID", 0, "payload")])
case("7.13.1", "Autobahn 7.13.1 (informational): close with code 5000", [Frame(CLOSE, struct.pack("!H", 5000))],
     expect=[("WS.CLOSE-CODE-INVALID", 0, "payload")], notes="Autobahn grades this INFORMATIONAL; codes above 4999 are undefined by RFC 6455 §7.4.2 and IMWire rejects them, as wsproto and websockets do.")
case("7.13.2", "Autobahn 7.13.2 (informational): close with code 65535", [Frame(CLOSE, struct.pack("!H", 65535))],
     expect=[("WS.CLOSE-CODE-INVALID", 0, "payload")])

# Category 9: limits and performance (case9_1_1.py ... case9_6_6.py, case9_7_X.py), with Autobahn's
# payload patterns and counts scaled down to keep the fixtures small; the throughput side of
# category 9 lives in Benchmarks/. Each description says what was scaled.
def pattern(n, seed=b"*"):
    """Autobahn's sendFrame(payload=seed, payload_len=n): the seed repeated and cut to n bytes."""
    return (seed * (n // len(seed) + 1))[:n]


KIB, MIB = 1 << 10, 1 << 20
TEXT_9, BINARY_9 = b"BAsd7&jh23", b"\x00\xfe\x23\xfa\xf0"  # case9_1_1.py, case9_2_1.py, case9_5_1.py, case9_6_1.py


def size_name(n):
    return f"{n // MIB} MiB" if n >= MIB and n % MIB == 0 else f"{n // KIB} KiB" if n >= KIB and n % KIB == 0 else f"{n} byte" + "s" * (n != 1)


def plural(n, noun):
    return f"{n} {noun}" + "s" * (n != 1)


# 9.1/9.2: one message of 64 KiB ... 16 MiB, scaled 1/1024.
for n, size in enumerate([64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB, 8 * MIB, 16 * MIB], 1):
    scaled = size // 1024
    case(f"9.1.{n}", f"Autobahn 9.1.{n} (scaled 1/1024): text message of {size_name(scaled)} (Autobahn: {size_name(size)}), 'BAsd7&jh23' repeated",
         [Frame(TEXT, pattern(scaled, TEXT_9))], source=AUTOBAHN + f"case9_1_{n}.py (size scaled 1/1024)")
    case(f"9.2.{n}", f"Autobahn 9.2.{n} (scaled 1/1024): binary message of {size_name(scaled)} (Autobahn: {size_name(size)}), 00 fe 23 fa f0 repeated",
         [Frame(BINARY, pattern(scaled, BINARY_9))], source=AUTOBAHN + f"case9_2_{n}.py (size scaled 1/1024)")
# 9.3/9.4: a 4 MiB message in fragments of 64 bytes ... 4 MiB, message and fragments scaled 1/1024
# (4 KiB); fragments below 1 byte become 1 byte, so 9.3.1-9.3.3 are all 4096 one-byte fragments
# (Autobahn: 65536, 16384 and 4096 fragments).
for n, frag in enumerate([64, 256, 1 * KIB, 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB], 1):
    size, scaled_frag = 4 * KIB, max(1, frag // 1024)
    for sub, opcode, seed, kind in [(3, TEXT, b"*", "text"), (4, BINARY, b"\xfe", "binary")]:
        msg = pattern(size, seed)
        parts = [msg[i:i + scaled_frag] for i in range(0, len(msg), scaled_frag)]
        case(f"9.{sub}.{n}", f"Autobahn 9.{sub}.{n} (scaled 1/1024): {kind} message of 4 KiB in {plural(len(parts), 'fragment')} of {size_name(scaled_frag)} "
             f"(Autobahn: 4 MiB in {plural(4 * MIB // frag, 'fragment')} of {size_name(frag)}" + (", below 1 byte when scaled" if frag < 1024 else "") + ")",
             [Frame(opcode if i == 0 else CONT, p, fin=i == len(parts) - 1) for i, p in enumerate(parts)],
             source=AUTOBAHN + f"case9_{sub}_{n}.py (message and fragment size scaled 1/1024, at least 1 byte)")
# 9.5/9.6: a 1 MiB message written in chops of 64 ... 2048 bytes; the message scaled 1/256 (4 KiB),
# the chops as Autobahn's.
for n, chop in enumerate([64, 128, 256, 512, 1024, 2048], 1):
    for sub, opcode, seed, kind in [(5, TEXT, TEXT_9, "text"), (6, BINARY, BINARY_9, "binary")]:
        case(f"9.{sub}.{n}", f"Autobahn 9.{sub}.{n} (scaled 1/256): {kind} message of 4 KiB (Autobahn: 1 MiB) delivered in {chop}-byte chops",
             [Frame(opcode, pattern(4 * KIB, seed))], chunking=[chop], source=AUTOBAHN + f"case9_{sub}_{n}.py (message size scaled 1/256)")
# 9.7/9.8: 1000 messages of 0 ... 4096 bytes, one after the other: 5 messages here.
for n, size in enumerate([0, 16, 64, 256, 1024, 4096], 1):
    case(f"9.7.{n}", f"Autobahn 9.7.{n} (scaled): 5 text messages of {size} bytes ('*'; Autobahn sends 1000)",
         [Frame(TEXT, pattern(size)) for _ in range(5)], source=AUTOBAHN + "case9_7_X.py (1000 messages scaled to 5)")
    case(f"9.8.{n}", f"Autobahn 9.8.{n} (scaled): 5 binary messages of {size} bytes (0xfe; Autobahn sends 1000)",
         [Frame(BINARY, pattern(size, b"\xfe")) for _ in range(5)], source=AUTOBAHN + "case9_7_X.py (Case9_8_X; 1000 messages scaled to 5)")

# Limits (IMWire): the bad inputs, with explicit caps.
case("imwire.limits.frame-2-63", "A binary frame announcing 2^63 bytes (64-bit length with the top bit set)",
     [Frame(BINARY, b"", length_form=64, length_value=1 << 63)], expect=[("WS.LENGTH-HIGH-BIT-SET", 0, "len8")], source="swift-nio CVE-2026-43678 regression vector",
     disagree={"websockets": (1009, 0, "websockets 17.4 answers 1009 (PayloadTooBig from its size check) where RFC 6455 §5.2 makes the length invalid (1002, as wsproto).")})
case("imwire.limits.too-many-fragments", "10,000 one-byte fragments under Limits.maxFragments = 1000",
     [Frame(BINARY, b"\x00", fin=False)] + [Frame(CONT, b"\x01", fin=False) for _ in range(9998)] + [Frame(CONT, b"\x02")],
     limits={"max_fragments": 1000}, expect=[("WS.TOO-MANY-FRAGMENTS", 1000, "start")], source="issue #4 bad inputs",
     notes="Neither oracle has a fragment-count limit, so no independent implementation confirms this verdict; it rests on Limits.maxFragments and the generator's construction.",
     disagree={"wsproto": (None, "all", "wsproto 1.3.2 has no fragment-count limit and accepts the message."),
               "websockets": (None, "all", "websockets 17.4 has no fragment-count limit and accepts the message.")})
case("imwire.limits.message-too-large", "A 2,000-byte text message under Limits.maxMessageSize = 1024", [Frame(TEXT, pattern(2000))],
     limits={"max_message_size": 1024}, expect=[("WS.MESSAGE-TOO-LARGE", 0, "start")], source="issue #4 bad inputs",
     disagree={"wsproto": (None, "all", "wsproto 1.3.2 has no message-size limit and accepts the message.")})
case("imwire.limits.frame-too-large", "A 2,000-byte binary frame under Limits.maxFrameSize = 1024", [Frame(BINARY, pattern(2000))],
     limits={"max_frame_size": 1024}, expect=[("WS.FRAME-TOO-LARGE", 0, "len")], source="issue #4 bad inputs",
     disagree={"wsproto": (None, "all", "wsproto 1.3.2 has no frame-size limit and accepts the frame.")})
case("imwire.frame.unmasked-client", "A client text frame without a mask", [Frame(TEXT, hello, mask=False)],
     expect=[("WS.CLIENT-FRAME-UNMASKED", 0, "len")], source="RFC 6455 §5.1")
case("imwire.frame.length-16-not-minimal", "Length 5 written in the 16-bit form", [Frame(TEXT, text("Hello"), length_form=16)],
     expect=[("WS.LENGTH-NOT-MINIMAL", 0, "len")], source="RFC 6455 §5.2",
     disagree={"websockets": (None, "all", "websockets 17.4 does not check minimal length encoding (RFC 6455 §5.2) and accepts the frame.")})
case("imwire.frame.length-64-not-minimal", "Length 200 written in the 64-bit form", [Frame(BINARY, pattern(200), length_form=64)],
     expect=[("WS.LENGTH-NOT-MINIMAL", 0, "len")], source="RFC 6455 §5.2",
     disagree={"websockets": (None, "all", "websockets 17.4 does not check minimal length encoding (RFC 6455 §5.2) and accepts the frame.")})
case("imwire.frame.text-ends-mid-codepoint", "Text in 2 fragments ending inside a 3-byte code point",
     [Frame(TEXT, b"\xe2\x82", fin=False), Frame(CONT, b"")], expect=[("WS.INVALID-UTF8", 1, "end")], source="RFC 6455 §8.1")
case("imwire.frame.close-after-fragment-then-text", "Close inside a fragmented message, nothing after",
     [Frame(TEXT, f1, fin=False), Frame(CLOSE, close1000)], source="RFC 6455 §5.4, §5.5.1",
     disagree={"websockets": (1002, 1, "websockets 17.4 fails a close received inside a fragmented message with 1002; RFC 6455 §5.4 allows control frames between fragments.")})

# Categories 12 and 13: compression (layer "message"), scaled (see MSG_SIZES below).
def lcg_bytes(n, seed):
    out, s = bytearray(), seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((s >> 16) & 0xFF)
    return bytes(out)


WORDS = "der Tor und Faust Mephistopheles Gretchen Himmel Erde Geist Natur Welt Herz Zeit Leben Nacht Wagner".split()


def words(n, seed):
    out, s = [], seed
    while sum(len(w) + 1 for w in out) < n:
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(WORDS[(s >> 16) % len(WORDS)])
    return " ".join(out).encode()[:n]


def json_payload(n, seed):
    items, s = [], seed
    while len(json.dumps(items)) < n:
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        items.append({"id": s % 100000, "name": WORDS[s % len(WORDS)], "active": bool(s & 1), "score": (s >> 8) % 1000})
    return json.dumps(items).encode()[:n]


def html_payload(n, seed):
    rows = "".join(f"<tr><td class=\"c{i % 7}\">{w}</td></tr>" for i, w in enumerate(words(n, seed).decode().split()))
    return ("<html><body><table>" + rows + "</table></body></html>").encode()[:n]


PAYLOADS = [("json", "JSON-like text", json_payload, TEXT), ("lena", "binary image-like data", lambda n, s: lcg_bytes(n, s), BINARY),
            ("faust", "German prose", words, TEXT), ("html", "HTML", html_payload, TEXT),
            ("ooms", "incompressible random bytes", lambda n, s: lcg_bytes(n, s * 7 + 1), BINARY)]


def compressed_frames(messages, deflate_header, frag=None):
    d = Deflate.parse(deflate_header)
    comp = Compressor(d.client_bits, d.client_nct)
    frames = []
    for opcode, data in messages:
        body = comp.compress(data)
        if frag:
            parts = [body[i:i + frag] for i in range(0, len(body), frag)] or [b""]
        else:
            parts = [body]
        for i, p in enumerate(parts):
            frames.append(Frame(opcode if i == 0 else CONT, p, fin=i == len(parts) - 1, rsv=4 if i == 0 else 0))
    return frames


# case12_x_x.py's MSG_SIZES: (payload length, message count, timeout, auto-fragment size; 0: none).
# The same 18 rows make 12.j.1-18 for each data set and 13.j.1-18 for each parameter set.
MSG_SIZES = [(16, 1000, 60, 0), (64, 1000, 60, 0), (256, 1000, 120, 0), (1024, 1000, 240, 0), (4096, 1000, 480, 0),
             (8192, 1000, 480, 0), (16384, 1000, 480, 0), (32768, 1000, 480, 0), (65536, 1000, 480, 0), (131072, 1000, 480, 0),
             (8192, 1000, 480, 256), (16384, 1000, 480, 256), (32768, 1000, 480, 256), (65536, 1000, 480, 256),
             (131072, 1000, 480, 256), (131072, 1000, 480, 1024), (131072, 1000, 480, 4096), (131072, 1000, 480, 32768)]
# Scaled to keep Fixtures/websocket small: payload and auto-fragment sizes and the data sets 1/16
# (so a 131072-byte message is 8192 bytes, a 256-byte fragment 16), 1000 messages to 2 (enough
# for the second to refer back into the first when the context is taken over).
SCALE_12, MESSAGES_12 = 16, 2


def lcg(seed):
    s = seed
    while True:
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        yield s >> 16


def synth_json(n):
    rng, items, total = lcg(7), [], 0
    while total < n:
        r = next(rng)
        item = json.dumps({"id": r % 100000, "name": WORDS[r % len(WORDS)], "active": bool(r & 1), "score": (r >> 3) % 1000,
                           "tags": [WORDS[(r >> k) % len(WORDS)] for k in (2, 5)]})
        items.append(item)
        total += len(item) + 2
    return ("[" + ", ".join(items) + "]").encode()[:n]


def synth_prose(n):
    rng, out, total = lcg(11), [], 0
    while total < n:
        r = next(rng)
        word = WORDS[r % len(WORDS)] + ("." if r % 11 == 0 else "," if r % 7 == 0 else "") + ("\n" if r % 13 == 0 else " ")
        out.append(word)
        total += len(word)
    return "".join(out).encode()[:n]


def synth_html(n):
    rng, rows, total = lcg(13), [], 0
    while total < n:
        r = next(rng)
        row = f'<tr class="r{r % 5}"><td>{r % 1000}</td><td><a href="/{WORDS[r % len(WORDS)].lower()}">{WORDS[(r >> 4) % len(WORDS)]}</a></td></tr>\n'
        rows.append(row)
        total += len(row)
    return ("<!DOCTYPE html>\n<html><head><title>data1</title></head><body><table>\n" + "".join(rows)).encode()[:n]


def synth_bitmap(n):
    """A 512x512 8-bit grayscale BMP: headers, a grey palette, then smooth rows with some noise."""
    head = b"BM" + struct.pack("<IHHI", 263222, 0, 0, 1078) + struct.pack("<IiiHHIIiiII", 40, 512, 512, 1, 8, 0, 262144, 2835, 2835, 256, 0)
    out, rng, y = bytearray(head + b"".join(bytes([i, i, i, 0]) for i in range(256))), lcg(17), 0
    while len(out) < n:
        out += bytes(((x * 3 + y * 5) // 8 + ((x * y) >> 11) + next(rng) % 7) & 0xFF for x in range(512))
        y += 1
    return bytes(out[:n])


def synth_pdf(n):
    """A PDF header, then compressed-looking (incompressible) stream bytes."""
    rng, head = lcg(19), b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length 65000 /Filter /FlateDecode >>\nstream\n"
    return head + bytes(next(rng) & 0xFF for _ in range(n - len(head)))


# case12_x_x.py's WS_COMPRESSION_TESTDATA, in the order Autobahn numbers them (its Python 2 dict
# order, as its reports show: 12.1 JSON ... 12.5 PDF), with Autobahn's text/binary flag. The files
# themselves (a JSON and an HTML file, Gutenberg's Faust, the Lena bitmap, a paper's PDF) are not
# copied: each is synthesized, deterministically, at 1/16 of the original's size, with the same
# kind of content (ASCII JSON/HTML/German prose, an 8-bit bitmap, incompressible PDF streams).
DATASETS_12 = [
    ("Large JSON data file (data1.json, utf8, 194237 bytes)", synth_json(194237 // SCALE_12), TEXT),
    ("Lena Picture, Bitmap 512x512 bw (lena512.bmp, binary, 263222 bytes)", synth_bitmap(263222 // SCALE_12), BINARY),
    ("Human readable text, Goethe's Faust I (German) (pg2229.txt, binary, 222218 bytes)", synth_prose(222218 // SCALE_12), BINARY),
    ("Large HTML file (data1.html, utf8, 83314 bytes)", synth_html(83314 // SCALE_12), TEXT),
    ("A larger PDF (10.1.1.105.5439.pdf, binary, 1042328 bytes)", synth_pdf(1042328 // SCALE_12), BINARY),
]


def autobahn_messages(data, length, count):
    """case12_x_x.py's sendOne(): each message the next `length` bytes of the data set, wrapping
    around at its end. (Autobahn's slicing wraps once only, so a message longer than the part of
    the data set left after the pointer comes out short, e.g. 12.4.10's second message with the
    83314-byte HTML file; here every message has the row's length, as the case intends.)"""
    out, ptr = [], 0
    for _ in range(count):
        msg = (data[ptr:] + data * (length // len(data) + 1))[:length]
        out.append(msg)
        ptr = (ptr + length) % len(data)
    return out


def scaled_row(row):
    length, count, _, frag = row
    return length // SCALE_12, frag // SCALE_12, f"{MESSAGES_12} compressed {{kind}} messages of {plural(length // SCALE_12, 'byte')}" + (
        f", auto-fragmented to {frag // SCALE_12} bytes" if frag else "") + f" (Autobahn: {count} of {length}" + (
        f", fragments of {frag}" if frag else "") + ")"


for j, (title, data, opcode) in enumerate(DATASETS_12, 1):
    kind = "text" if opcode == TEXT else "binary"
    for i, row in enumerate(MSG_SIZES, 1):
        length, frag, what = scaled_row(row)
        msgs = [(opcode, m) for m in autobahn_messages(data, length, MESSAGES_12)]
        case(f"12.{j}.{i}", f"Autobahn 12.{j}.{i} (scaled 1/16): {what.format(kind=kind)}, default permessage-deflate offer; "
             f"data: {title}, synthesized", compressed_frames(msgs, "permessage-deflate", frag or None),
             deflate="permessage-deflate", layer="message",
             source=AUTOBAHN + "case12_x_x.py (Case12_X_X; data set synthesized, sizes 1/16, 1000 messages scaled to 2)")

# case12_x_x.py's DEFLATE_PARAMS for 13.1-13.7: the client's offers (autobahn's
# PerMessageDeflateOffer(requestNoContextTakeover, requestMaxWindowBits).getExtensionString()) and
# the response the server's accept function gives (PerMessageDeflateOfferAccept.getExtensionString()),
# which is what is in force. 13.7's accept7 tries accept5 first, which takes the first offer.
# With max_window_bits=8 a zlib sender compresses with 9 bits (zlib's minimum for raw deflate),
# whose distances never exceed 250 bytes, so the stream is valid for an 8-bit window.
OFFER_DEFAULT = "permessage-deflate; client_no_context_takeover; client_max_window_bits"
DEFLATE_PARAMS_13 = [
    ("(requestNoContextTakeover, requestMaxWindowBits) = [(False, 0)] / accept1", [OFFER_DEFAULT], "permessage-deflate"),
    ("[(True, 0)] / accept2", [OFFER_DEFAULT + "; server_no_context_takeover"],
     "permessage-deflate; server_no_context_takeover; client_no_context_takeover"),
    ("[(False, 8)] / accept3", [OFFER_DEFAULT + "; server_max_window_bits=8"],
     "permessage-deflate; server_max_window_bits=8; client_max_window_bits=8"),
    ("[(False, 15)] / accept4", [OFFER_DEFAULT + "; server_max_window_bits=15"],
     "permessage-deflate; server_max_window_bits=15; client_max_window_bits=15"),
    ("[(True, 8)] / accept5", [OFFER_DEFAULT + "; server_no_context_takeover; server_max_window_bits=8"],
     "permessage-deflate; server_no_context_takeover; server_max_window_bits=8; client_no_context_takeover; client_max_window_bits=8"),
    ("[(True, 15)] / accept6", [OFFER_DEFAULT + "; server_no_context_takeover; server_max_window_bits=15"],
     "permessage-deflate; server_no_context_takeover; server_max_window_bits=15; client_no_context_takeover; client_max_window_bits=15"),
    ("[(True, 8), (True, 0), (False, 0)] / accept7", [OFFER_DEFAULT + "; server_no_context_takeover; server_max_window_bits=8",
                                                     OFFER_DEFAULT + "; server_no_context_takeover", OFFER_DEFAULT],
     "permessage-deflate; server_no_context_takeover; server_max_window_bits=8; client_no_context_takeover; client_max_window_bits=8"),
]
json_13 = DATASETS_12[0][1]
for j, (params, offers, response) in enumerate(DEFLATE_PARAMS_13, 1):
    for i, row in enumerate(MSG_SIZES, 1):
        length, frag, what = scaled_row(row)
        msgs = [(TEXT, m) for m in autobahn_messages(json_13, length, MESSAGES_12)]
        case(f"13.{j}.{i}", f"Autobahn 13.{j}.{i} (scaled 1/16): {what.format(kind='text')}; data: the JSON data set, synthesized; "
             f"client offers {params}: `{', '.join(offers)}`; the server accepts with `{response}`",
             compressed_frames(msgs, response, frag or None), deflate=response, layer="message",
             source=AUTOBAHN + "case12_x_x.py (Case13_X_X; data set synthesized, sizes 1/16, 1000 messages scaled to 2)")

# permessage-deflate violations (IMWire).
pmd = "permessage-deflate"
hello_c = Compressor(15, False).compress(text("Hello"))
case("imwire.pmd.rfc7692-hello", "RFC 7692 §7.2.3.1: 'Hello' compressed, two fragments",
     [Frame(TEXT, hello_c[:3], fin=False, rsv=4), Frame(CONT, hello_c[3:])], deflate=pmd, layer="message", source="RFC 7692 §7.2.3.1")
case("imwire.pmd.rsv1-on-continuation", "RSV1 set on a continuation frame", [Frame(TEXT, hello_c[:3], fin=False, rsv=4), Frame(CONT, hello_c[3:], rsv=4)],
     deflate=pmd, layer="message", expect=[("PMD.RSV1-ON-CONTINUATION", 1, "start")], source="RFC 7692 §6.1")
case("imwire.pmd.rsv1-on-ping", "RSV1 set on a ping", [Frame(PING, text("x"), rsv=4)], deflate=pmd, layer="message",
     expect=[("PMD.RSV1-ON-CONTROL", 0, "start")], source="RFC 7692 §6.1")
case("imwire.pmd.corrupt", "A compressed message with a reserved block type (BTYPE=11)", [Frame(BINARY, b"\xff\xff\xff", rsv=4)],
     deflate=pmd, layer="message", expect=[("ZLIB.CORRUPT-DATA", 0, "start")], source="RFC 1951 §3.2.3",
     disagree={"websockets": (1002, "+0", "websockets 17.4 answers corrupt deflate data with 1002 (ProtocolError) where wsproto and IMWire send 1007.")})
two = compressed_frames([(TEXT, text("Hello")), (TEXT, text("Hello"))], pmd)
case("imwire.pmd.context-taken-over-against-no-context-takeover",
     "The second message refers back into the first although client_no_context_takeover was negotiated",
     two, deflate="permessage-deflate; client_no_context_takeover", layer="message",
     expect=[("ZLIB.CORRUPT-DATA", 2 if len(two) > 2 else 1, "start")], source="RFC 7692 §7.1.1.2",
     disagree={"websockets": (1002, "+0", "websockets 17.4 answers corrupt deflate data with 1002 (ProtocolError) where wsproto and IMWire send 1007.")})
zeros = zlib.compressobj(9, zlib.DEFLATED, -15)
bomb = zeros.compress(b"\x00" * (1 << 20)) + zeros.flush(zlib.Z_SYNC_FLUSH)
bomb = bomb[:-4]
case("imwire.pmd.bomb", f"A {len(bomb)}-byte compressed message inflating to 1 MiB under Limits.maxMessageSize = 64 KiB",
     [Frame(BINARY, bomb, rsv=4)], deflate=pmd, layer="message", limits={"max_message_size": 65536},
     expect=[("WS.MESSAGE-TOO-LARGE", 0, "start")], source="issue #4 bad inputs",
     disagree={"wsproto": (None, "all", "wsproto 1.3.2 has no decompressed-size limit and inflates the whole message.")})
case("imwire.pmd.bomb-ratio", f"The same {len(bomb)}-byte bomb under Limits.maxExpansionRatio = 100",
     [Frame(BINARY, bomb, rsv=4)], deflate=pmd, layer="message", limits={"max_expansion_ratio": 100},
     expect=[("ZLIB.EXPANSION-RATIO", 0, "start")], source="issue #4 bad inputs",
     notes="Neither oracle limits the expansion ratio, so no independent implementation confirms this verdict; it rests on Limits.maxExpansionRatio and the generator's construction.",
     disagree={"wsproto": (None, "all", "wsproto 1.3.2 has no decompression limit."), "websockets": (None, "all", "websockets 17.4 limits size (max_size), not ratio.")})
case("imwire.pmd.rsv1-without-negotiation", "A compressed-looking text frame with RSV1 when permessage-deflate was not negotiated",
     [Frame(TEXT, hello_c, rsv=4)], layer="message", expect=[("WS.RSV-WITHOUT-EXTENSION", 0, "start"), ("WS.INVALID-UTF8", 0, "utf8")],
     source="RFC 6455 §5.2", notes="The payload is then read as plain text, which is not UTF-8: a second finding.")
case("imwire.pmd.uncompressed-message", "An uncompressed message (RSV1 clear) on a permessage-deflate connection",
     [Frame(TEXT, text("plain"))], deflate=pmd, layer="message", source="RFC 7692 §6.1")
case("imwire.pmd.window-9-both", "client_max_window_bits=9: messages compressed with a 512-byte window",
     compressed_frames([(TEXT, words(3000, 5)), (TEXT, words(3000, 6))], "permessage-deflate; client_max_window_bits=9"),
     deflate="permessage-deflate; client_max_window_bits=9", layer="message", source="RFC 7692 §7.1.2.2")


def write_handshake_fixtures():
    """Handshake fixtures: the request (client bytes) and response (server bytes) as text."""
    import base64
    import hashlib

    def accept(key):
        return base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()

    key = "dGhlIHNhbXBsZSBub25jZQ=="

    def req(extra=(), method="GET", version="HTTP/1.1", key_line=f"Sec-WebSocket-Key: {key}", version_line="Sec-WebSocket-Version: 13"):
        lines = [f"{method} /realtime HTTP/1.1".replace("HTTP/1.1", version), "Host: rtm51.leancloud.cn", "Upgrade: websocket",
                 "Connection: Upgrade"] + ([key_line] if key_line else []) + ([version_line] if version_line else []) + list(extra)
        return "\r\n".join(lines) + "\r\n\r\n"

    def resp(extra=(), status="101 Switching Protocols", accept_value=None):
        lines = [f"HTTP/1.1 {status}", "Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Accept: {accept_value or accept(key)}"] + list(extra)
        return "\r\n".join(lines) + "\r\n\r\n"

    lc_offer = ["Sec-WebSocket-Protocol: lc.protobuf2.3", "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"]
    cases = [
        ("leancloud-protobuf2-deflate", "LeanCloud upgrade offering lc.protobuf2.3 and permessage-deflate; accepted with both",
         req(lc_offer), resp(["Sec-WebSocket-Protocol: lc.protobuf2.3", "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=15"]),
         "response", [], {"upgraded": True, "subprotocol": "lc.protobuf2.3", "permessage_deflate": "permessage-deflate"}),
        ("rfc6455-example", "RFC 6455 §1.2 example handshake (chat, superchat)",
         req(["Origin: http://example.com", "Sec-WebSocket-Protocol: chat, superchat"]), resp(["Sec-WebSocket-Protocol: chat"]),
         "response", [], {"upgraded": True, "subprotocol": "chat", "permessage_deflate": None}),
        ("no-context-takeover", "permessage-deflate with both no_context_takeover flags and window bits",
         req(["Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; server_no_context_takeover; client_max_window_bits; server_max_window_bits=10"]),
         resp(["Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; server_no_context_takeover; client_max_window_bits=9; server_max_window_bits=10"]),
         "response", [], {"upgraded": True, "subprotocol": None,
                          "permessage_deflate": "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9"}),
        ("wrong-accept", "Sec-WebSocket-Accept that does not match the key",
         req(), resp(accept_value="AAAAAAAAAAAAAAAAAAAAAAAAAAA="), "response", [("WS.HANDSHAKE-ACCEPT", "Sec-WebSocket-Accept")],
         {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("status-400", "The server refuses the upgrade with 400", req(),
         "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "response", [("WS.HANDSHAKE-STATUS", 0)],
         {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("subprotocol-not-offered", "The server picks a subprotocol the client did not offer", req(lc_offer[:1]),
         resp(["Sec-WebSocket-Protocol: lc.json.3"]), "response", [("WS.SUBPROTOCOL-NOT-OFFERED", "Sec-WebSocket-Protocol")],
         {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("extension-not-offered", "The server accepts permessage-deflate that was not offered", req(),
         resp(["Sec-WebSocket-Extensions: permessage-deflate"]), "response", [("WS.EXTENSION-NOT-OFFERED", "ext-value")],
         {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("server-window-too-large", "server_max_window_bits in the response above the one requested",
         req(["Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=10"]),
         resp(["Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=12"]), "response",
         [("PMD.PARAMETER-NOT-REQUESTED", "ext-value")], {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("client-window-unrequested", "client_max_window_bits in the response although the offer did not allow it", req(["Sec-WebSocket-Extensions: permessage-deflate"]),
         resp(["Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=10"]), "response",
         [("PMD.PARAMETER-NOT-REQUESTED", "ext-value")], {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("truncated-request", "A request cut before its blank line", req()[:-2], None, "request", [("WS.HANDSHAKE-TRUNCATED", "end")],
         {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("post-method", "An upgrade request with POST", req(method="POST"), None, "request", [("WS.HANDSHAKE-METHOD", 0)],
         {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("bad-key", "A Sec-WebSocket-Key that is not 16 bytes of base64", req(key_line="Sec-WebSocket-Key: c2hvcnQ="), None, "request",
         [("WS.HANDSHAKE-KEY", "Sec-WebSocket-Key")], {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("version-8", "Sec-WebSocket-Version 8 (hybi-08)", req(version_line="Sec-WebSocket-Version: 8"), None, "request",
         [("WS.HANDSHAKE-VERSION", "Sec-WebSocket-Version")], {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
        ("deflate-bad-window", "An offer with server_max_window_bits=16", req(["Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=16"]),
         None, "request", [("PMD.PARAMETER-INVALID", "param")], {"upgraded": False, "subprotocol": None, "permessage_deflate": None}),
    ]
    out_dir = os.path.join(OUT, "handshake")
    os.makedirs(out_dir, exist_ok=True)
    for name, desc, request, response, tested, expect, decoded in cases:
        target = request if tested == "request" else response
        findings = []
        for rule, where in expect:
            if where == "end":
                off = len(target.encode())
            elif where == "param":
                off = target.index("server_max_window_bits")
            elif where == "ext-value":
                off = target.index("Sec-WebSocket-Extensions: ") + len("Sec-WebSocket-Extensions: ")
                if rule == "PMD.PARAMETER-NOT-REQUESTED":
                    off = off  # the item's name
            elif isinstance(where, str):
                off = target.index(where + ":")
            else:
                off = where
            findings.append({"rule": rule, "offset": off})
        decoded = dict(decoded)
        # A server declines an invalid permessage-deflate offer and still upgrades (RFC 7692 §5).
        decoded["server_accepts"] = tested == "response" or all(rule.startswith("PMD.") for rule, _ in expect)
        inp = {"tested": tested, "request": request}
        if response is not None:
            inp["response"] = response
        fixture = {"description": desc, "dialect": "websocket", "layer": "handshake", "input": inp, "decoded": decoded,
                   "expect": findings or "ok", "verified_by": ["wsproto 1.3.2", "websockets 17.4"], "source": "RFC 6455 §4, RFC 7692 §7"}
        if name in ("client-window-unrequested", "server-window-too-large", "bad-key"):
            fixture["verified_by"] = ["websockets 17.4"]
        # Each entry names the oracle's own verdict (`accepts`), so that the cross-check excuses
        # that difference and no other.
        if name in ("client-window-unrequested", "server-window-too-large"):
            fixture["known_disagreements"] = {"wsproto": {"accepts": True, "reason": "wsproto 1.3.2's client takes the response's window parameters as given (PerMessageDeflate.finalize) without checking them against its offer (RFC 7692 §7.1.2)."}}
        if name == "bad-key":
            fixture["known_disagreements"] = {"wsproto": {"accepts": True, "reason": "wsproto 1.3.2 does not check that Sec-WebSocket-Key decodes to 16 bytes (RFC 6455 §4.2.1 (4)) and upgrades."}}
        with open(os.path.join(out_dir, name + ".json"), "w") as fh:
            json.dump(fixture, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
    return len(cases)


def dump_stream_fixture(fixture):
    """The fixture as JSON (indent 1), with `decoded.frames` written one frame a line: some
    cases have thousands of frames, and a frame spread over six lines would triple the file."""
    frames = fixture["decoded"]["frames"]
    marker = "@@FRAMES@@"
    fixture = dict(fixture, decoded=dict(fixture["decoded"], frames=marker))
    text = json.dumps(fixture, indent=1, ensure_ascii=False)
    lines = ",\n".join("   " + json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in frames)
    text = text.replace(json.dumps(marker), "[\n" + lines + "\n  ]" if frames else "[]")
    return text + "\n"


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    counts = {}
    for index, c in enumerate(CASES):
        fixture = build(c, index)
        directory = os.path.join(OUT, c["layer"])
        os.makedirs(directory, exist_ok=True)
        name = ("autobahn-" if not c["id"].startswith("imwire") else "") + c["id"].replace("imwire.", "") + ".json"
        with open(os.path.join(directory, name), "w") as fh:
            fh.write(dump_stream_fixture(fixture))
        counts[c["layer"]] = counts.get(c["layer"], 0) + 1
    counts["handshake"] = write_handshake_fixtures()
    print("wrote", ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())), f"(total {sum(counts.values())})")


if __name__ == "__main__":
    main()
