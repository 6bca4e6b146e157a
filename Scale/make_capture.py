#!/usr/bin/env python3
"""Writes a large pcapng of all four dialects for the Spark job and its benchmark.

    python3 Scale/make_capture.py [--clean | --from DIR] OUT.pcapng MEGABYTES

Copies of the real recordings of Fixtures/captures (LeanCloud, NIM over socket.io 0.9 WebSocket
and xhr-polling, JMessage over engine.io 3 polling, upgrade and WebSocket, yun2win MQTT 3.1,
3.1.1 and MQTT over WebSocket), one after another until MEGABYTES are written. With --clean, only
the recordings of Fixtures/captures/real/ without their defect variants (`*-clean.pcapng`): a
mix with no seeded defect, which the benchmark checks beside the full one. With --from DIR, the
recordings DIR/**/*.pcapng instead (other recordings, copied the same way). Copy k is moved to
addresses of its own (the last three bytes of both addresses of recording r of copy k set to
k × recordings + r, so each is its own client for `imwire shard` and no two reuse a TCP
connection's ports), to times after the copy before it, and its socket.io session ids end in
that number (same length, so no HTTP length or TCP sequence number changes). Login ids are not
changed: one user's connections in many copies are one client for the reconnect judge, which then
judges across shards. Standard library only; the recordings are little-endian pcapng with
Ethernet link type, as Tests/CrossCheck/real_traffic.py records them.
"""
import glob
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SID_PATTERNS = [
    re.compile(rb"sid=([A-Za-z0-9_-]{8,})"),
    re.compile(rb'"sid":"([A-Za-z0-9_-]{8,})"'),
    re.compile(rb"/socket\.io/1/[a-z-]+/([A-Za-z0-9_-]{8,})"),
    re.compile(rb"\r\n\r\n([A-Za-z0-9_-]{8,}):[0-9]*:[0-9]*:[a-z,-]+"),
]


def recordings(clean, directory=None):
    if directory:
        paths = sorted(glob.glob(os.path.join(directory, "**", "*.pcapng"), recursive=True))
        assert paths, f"{directory}: no .pcapng recordings"
    elif clean:
        paths = sorted(glob.glob(os.path.join(ROOT, "Fixtures/captures/real/*-clean.pcapng")))
    else:
        paths = sorted(glob.glob(os.path.join(ROOT, "Fixtures/captures/*.pcapng")))
        paths += sorted(glob.glob(os.path.join(ROOT, "Fixtures/captures/real/*.pcapng")))
    for path in paths:
        data = open(path, "rb").read()
        assert data[8:12] == b"\x4d\x3c\x2b\x1a", f"{path}: not little-endian pcapng"
        offset, link_types, units, packets = 0, [], [], []
        while offset + 12 <= len(data):
            block_type, length = struct.unpack_from("<II", data, offset)
            if block_type == 1:
                link_types.append(struct.unpack_from("<H", data, offset + 8)[0])
                units.append(units_per_second(data[offset + 16 : offset + length - 4]))
            elif block_type == 6:
                interface, high, low, captured, original = struct.unpack_from("<IIIII", data, offset + 8)
                assert link_types[interface] == 1, f"{path}: link type {link_types[interface]}"
                frame = data[offset + 28 : offset + 28 + captured]
                # The output's interface counts microseconds; dumpcap's recordings count nanoseconds.
                micros = ((high << 32) | low) * 1_000_000 // units[interface]
                packets.append((micros, frame, original))
            offset += length
        sids = set()
        for _, frame, _ in packets:
            for pattern in SID_PATTERNS:
                sids.update(pattern.findall(frame))
        yield path, packets, sorted(sids, key=len, reverse=True)


def units_per_second(options):
    """An interface's timestamp units per second, from its if_tsresol option (9: 10^9; 10^6 without it)."""
    offset = 0
    while offset + 4 <= len(options):
        code, length = struct.unpack_from("<HH", options, offset)
        if code == 0:
            break
        if code == 9 and length >= 1:
            resolution = options[offset + 4]
            return 2 ** (resolution & 0x7F) if resolution & 0x80 else 10**resolution
        offset += 4 + length + (-length % 4)
    return 1_000_000


def moved(frame, unit):
    """The frame with the last three bytes of both IP addresses set to `unit` (24 bits)."""
    frame = bytearray(frame)
    ethertype = frame[12:14]
    tail = bytes([unit >> 16 & 0xFF, unit >> 8 & 0xFF, unit & 0xFF])
    if ethertype == b"\x08\x00" and len(frame) >= 34:
        frame[14 + 13 : 14 + 16] = tail
        frame[14 + 17 : 14 + 20] = tail
    elif ethertype == b"\x86\xdd" and len(frame) >= 54:
        frame[14 + 8 + 13 : 14 + 8 + 16] = tail
        frame[14 + 24 + 13 : 14 + 24 + 16] = tail
    return bytes(frame)


def block(block_type, body):
    body += b"\0" * (-len(body) % 4)
    return struct.pack("<II", block_type, len(body) + 12) + body + struct.pack("<I", len(body) + 12)


def main():
    arguments = sys.argv[1:]
    clean = arguments[:1] == ["--clean"]
    directory = arguments[1] if arguments[:1] == ["--from"] and len(arguments) > 1 else None
    arguments = arguments[1:] if clean else arguments[2:] if directory else arguments
    if len(arguments) != 2:
        sys.exit("usage: make_capture.py [--clean | --from DIR] OUT.pcapng MEGABYTES")
    out, target = arguments[0], int(float(arguments[1]) * (1 << 20))
    sources = list(recordings(clean, directory))
    written = 0
    time = 1_700_000_000_000_000
    with open(out, "wb") as file:
        header = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + struct.pack("<HH", 0, 0))
        interface = block(1, struct.pack("<HHI", 1, 0, 0) + struct.pack("<HHB3x", 9, 1, 6) + struct.pack("<HH", 0, 0))
        file.write(header + interface)
        written += len(header) + len(interface)
        copy = 0
        while written < target:
            copy += 1
            assert (copy + 1) * len(sources) < 1 << 24, "more copies than addresses"
            chunk = []
            for index, (_, packets, sids) in enumerate(sources):
                unit = copy * len(sources) + index
                start = packets[0][0]
                for stamp, frame, original in packets:
                    frame = moved(frame, unit)
                    for sid in sids:
                        if sid in frame:
                            frame = frame.replace(sid, sid[:-6] + b"%06x" % unit)
                    micros = time + stamp - start
                    chunk.append(block(6, struct.pack("<IIIII", 0, micros >> 32, micros & 0xFFFFFFFF, len(frame), original) + frame))
                time += packets[-1][0] - start + 1_000_000
            data = b"".join(chunk)
            file.write(data)
            written += len(data)
    print(f"{out}: {written} bytes, {copy} copies of {len(sources)} recordings")


if __name__ == "__main__":
    main()
