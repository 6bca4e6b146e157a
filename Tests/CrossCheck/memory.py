#!/usr/bin/env python3
"""Peak memory of `imwire check` on hostile WebSocket input stays within what Limits allow.

Issue #4's bad inputs, each as a JSONL transcript (Spec/capture-jsonl.md) of raw `stream` bytes:
an HTTP upgrade (lc.protobuf2.3, permessage-deflate where needed) and then the client's frames:

  frame-2-63        a binary frame whose 64-bit length is 2^63
  fragments-10000   a binary message in 10,000 one-byte fragments
  frame-16m-of-1m   a frame announcing 16 MiB of which 1 MiB arrives before the stream ends
  deflate-bomb      a ~200 KB permessage-deflate message of zeros inflating to 200 MiB

Each runs under `/usr/bin/time -f %M` (peak resident set, KiB) and must report its finding (so
the bytes did reach the decoder) and stay under

    bound = base + allowance + margin

- base: the peak RSS of the same binary checking a clean transcript of the same shape (upgrade
  and one small frame), measured in the same run: the process, Swift runtime and checker.
- allowance: what the caps in `Limits` (Sources/IMWireCore/Limits.swift, defaults) let that input
  hold. 2^63: nothing (a length over maxFrameSize, 16 MiB, is refused before any allocation).
  10,000 fragments: maxFragments (4096) one-byte fragments, 4 KiB. 16 MiB announced: the payload
  may be held only as it arrives (the decoder does not trust the announced length), so
  min(maxFrameSize, delivered) = 1 MiB. Bomb: maxDecompressedSize, 64 MiB (inflating stops as soon
  as the output crosses it; maxExpansionRatio, 1024, may stop it earlier).
- margin: 8 MiB. Repeated runs of the same input differ by well under 1 MiB; the rest covers what
  is not payload: malloc's arenas and top-of-heap slack, an array that grows by doubling holding
  its old buffer while the new one fills, the transcript reader's line buffer (lines here are at
  most 128 KiB) and the report. It stays far below every cap that matters: a decoder that kept the
  announced 16 MiB, a second copy of a 1 MiB payload per fragment, or two copies of the 64 MiB
  inflate output would all cross it.

Then the number of connections: a pcap of 10,000 and one of 60,000 short connections
(Benchmarks/many-connections.py: raw MQTT, each from its own client). Peak RSS may grow between
them by at most MANY_GROWTH, 10 MiB: what may fill up to a fixed size in between (the
16,384 address pairs FlowTable keeps in memory and its 2 MiB Bloom filter, up to 64,000 16-byte
judge keys and their sort) plus margin. Memory that grew with each connection would not fit:
before the index file and the sorted runs, the checker kept about 0.39 KiB per connection, 19 MiB
for the 50,000 more (a release build measured 31.1 and 56.8 MiB at 10,000 and 80,000).

Usage: python3 Tests/CrossCheck/memory.py [path/to/imwire]   (default .build/debug/imwire)
Exit 1 if a bound is crossed or an expected finding is missing.
"""

import base64
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KIB, MIB = 1 << 10, 1 << 20
MARGIN = 8 * MIB
MANY_SMALL, MANY_LARGE, MANY_GROWTH = 10_000, 60_000, 10 * MIB
# Limits.default (Sources/IMWireCore/Limits.swift).
MAX_FRAME_SIZE, MAX_FRAGMENTS, MAX_DECOMPRESSED_SIZE = 16 * MIB, 4096, 64 * MIB

KEY = "dGhlIHNhbXBsZSBub25jZQ=="
ACCEPT = base64.b64encode(hashlib.sha1((KEY + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()


def handshake(deflate):
    ext = ["Sec-WebSocket-Extensions: permessage-deflate"] if deflate else []
    request = "\r\n".join(["GET /realtime HTTP/1.1", "Host: rtm51.leancloud.cn", "Upgrade: websocket", "Connection: Upgrade",
                           f"Sec-WebSocket-Key: {KEY}", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Protocol: lc.protobuf2.3"]
                          + ext) + "\r\n\r\n"
    response = "\r\n".join(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
                            f"Sec-WebSocket-Accept: {ACCEPT}", "Sec-WebSocket-Protocol: lc.protobuf2.3"] + ext) + "\r\n\r\n"
    return request.encode(), response.encode()


def frame_head(opcode, length, fin=True, rsv1=False, announced=None):
    """A masked client frame header (mask key 0: the payload goes out as is)."""
    n = length if announced is None else announced
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    if n < 126:
        head = bytes([first, 0x80 | n])
    elif n <= 0xFFFF:
        head = bytes([first, 0x80 | 126]) + struct.pack("!H", n)
    else:
        head = bytes([first, 0x80 | 127]) + struct.pack("!Q", n)
    return head + b"\x00\x00\x00\x00"


def transcript(path, client, deflate=False, chunk=64 * KIB):
    """An open line, the upgrade both ways, then the client's bytes in `chunk`-byte stream lines."""
    request, response = handshake(deflate)
    with open(path, "w") as fh:
        fh.write(json.dumps({"type": "open", "conn": "m1", "url": "wss://rtm51.leancloud.cn/realtime"}) + "\n")
        fh.write(json.dumps({"type": "stream", "conn": "m1", "dir": "send", "hex": request.hex()}) + "\n")
        fh.write(json.dumps({"type": "stream", "conn": "m1", "dir": "receive", "hex": response.hex()}) + "\n")
        for start in range(0, len(client), chunk):
            fh.write(json.dumps({"type": "stream", "conn": "m1", "dir": "send", "hex": client[start:start + chunk].hex()}) + "\n")


def inputs():
    """(name, client bytes, deflate, allowance, expected rules (any of), what)."""
    small = frame_head(2, 2) + b"\x08\x00"
    yield "baseline", small, False, 0, None, "clean: the upgrade and one 2-byte binary frame"
    yield ("frame-2-63", frame_head(2, 0, announced=1 << 63) + b"\x00" * 16, False, 0, {"WS.LENGTH-HIGH-BIT-SET"},
           "a binary frame announcing 2^63 bytes")
    fragments = frame_head(2, 1, fin=False) + b"\x00"
    fragments += (frame_head(0, 1, fin=False) + b"\x01") * 9998 + frame_head(0, 1) + b"\x02"
    yield ("fragments-10000", fragments, False, MAX_FRAGMENTS * 1, {"WS.TOO-MANY-FRAGMENTS"},
           "a binary message in 10,000 one-byte fragments")
    delivered = 1 * MIB
    yield ("frame-16m-of-1m", frame_head(2, 0, announced=16 * MIB) + b"\x5a" * delivered, False, min(MAX_FRAME_SIZE, delivered),
           {"WS.TRUNCATED-FRAME"}, "a frame announcing 16 MiB, 1 MiB delivered, then the stream ends")
    zeros = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = b"".join(zeros.compress(b"\x00" * (8 * MIB)) for _ in range(25)) + zeros.flush(zlib.Z_SYNC_FLUSH)
    bomb = bomb[:-4]  # permessage-deflate strips the 00 00 ff ff
    yield ("deflate-bomb", frame_head(2, len(bomb), rsv1=True) + bomb, True, MAX_DECOMPRESSED_SIZE,
           {"ZLIB.OUTPUT-LIMIT", "ZLIB.EXPANSION-RATIO"}, f"a {len(bomb) // KIB} KiB compressed message of zeros inflating to 200 MiB")


def run(imwire, path, workdir):
    rss_file = os.path.join(workdir, "rss")
    report = os.path.join(workdir, "report.json")
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file, imwire, "check", "--format", "json", "-o", report, path],
                          capture_output=True, text=True)
    with open(rss_file) as fh:
        rss = int(fh.read().strip().splitlines()[-1]) * KIB
    try:
        with open(report) as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        doc = None
    return proc.returncode, rss, doc


def many_connections(imwire, workdir):
    """Peak RSS at MANY_LARGE connections stays within MANY_GROWTH of that at MANY_SMALL."""
    failures, peaks = [], []
    for count in (MANY_SMALL, MANY_LARGE):
        path = os.path.join(workdir, f"connections-{count}.pcap")
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "many-connections.py"), str(count), path], check=True)
        code, rss, doc = run(imwire, path, workdir)
        reported = len((doc or {}).get("connections", []))
        print(f"{count:>7,} connections  peak RSS {rss / MIB:6.1f} MiB  ({reported:,} in the report)")
        if code not in (0, 1) or reported != count:
            failures.append(f"{count} connections: imwire check exits {code}, {reported} connections in the report")
        peaks.append(rss)
    if peaks[1] - peaks[0] > MANY_GROWTH:
        failures.append(f"peak RSS grew {(peaks[1] - peaks[0]) / MIB:.1f} MiB from {MANY_SMALL:,} to {MANY_LARGE:,} connections "
                        f"(at most {MANY_GROWTH // MIB} MiB)")
    return failures


def main():
    imwire = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "imwire")
    if not os.path.exists("/usr/bin/time"):  # GNU time, Debian package `time`
        subprocess.run([os.path.join(ROOT, "scripts", "ensure-packages.sh"), "time"], check=True)
    failures, base = [], None
    with tempfile.TemporaryDirectory(prefix="imwire-memory-") as workdir:
        for name, client, deflate, allowance, rules, what in inputs():
            path = os.path.join(workdir, name + ".jsonl")
            transcript(path, client, deflate)
            code, rss, doc = run(imwire, path, workdir)
            found = {f["rule"] for c in (doc or {}).get("connections", []) for f in c.get("findings", [])}
            if name == "baseline":
                # Clean at the WebSocket layer; the dialect may well complain about the 2-byte payload.
                base = rss
                print(f"{name:16} peak RSS {rss / MIB:6.1f} MiB  (base)  {what}")
                framing = sorted(r for r in found if r.startswith(("WS.", "PMD.", "ZLIB.")))
                if code not in (0, 1) or doc is None or framing:
                    failures.append(f"{name}: imwire check exits {code}, WebSocket findings {framing}")
                continue
            bound = base + allowance + MARGIN
            print(f"{name:16} peak RSS {rss / MIB:6.1f} MiB  bound {bound / MIB:6.1f} MiB = base {base / MIB:.1f} + "
                  f"allowance {allowance / MIB:.3g} + margin {MARGIN // MIB}  {what}: {', '.join(sorted(rules & found)) or 'no finding'}")
            if code not in (0, 1) or doc is None:
                failures.append(f"{name}: imwire check exits {code}")
            if not (rules & found):
                failures.append(f"{name}: expected {' or '.join(sorted(rules))}, found {sorted(found)}")
            if rss > bound:
                failures.append(f"{name}: peak RSS {rss / MIB:.1f} MiB over the bound {bound / MIB:.1f} MiB")
        failures += many_connections(imwire, workdir)
    for failure in failures:
        print("FAIL " + failure)
    print("memory under the caps: 4 hostile inputs, each with its finding and within its bound; "
          f"{MANY_LARGE:,} connections within {MANY_GROWTH // MIB} MiB of {MANY_SMALL:,}" if not failures
          else f"memory under the caps: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
