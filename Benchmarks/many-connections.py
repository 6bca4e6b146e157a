#!/usr/bin/env python3
"""Benchmarks/many-connections.py [--concurrent] N FILE -- a pcap of N short connections, for the
checker's memory and for its time per connection.

Each connection is raw MQTT on port 1883 (yun2win, recognised by its CONNECT) from a client
address of its own: SYN, SYN-ACK, CONNECT, CONNACK, FIN, FIN; 363 bytes of file each. The checker
reports every one (a CONNECT without uid or token is a finding), so its peak memory against N
shows what it keeps per connection. Raw IP link type (101), microsecond timestamps.
With --concurrent, all N connections open first (SYN to CONNACK); then every other one ends,
the last first, and the rest stay open until the capture ends: N connections open at once, and
N/2 still open when the checker reaches the end of the file.
Example: python3 Benchmarks/many-connections.py 1000000 /tmp/c1m.pcap
"""
import struct
import sys


def checksum(header):
    total = sum(struct.unpack("!%dH" % (len(header) // 2), header))
    total = (total >> 16) + (total & 0xFFFF)
    return ~(total + (total >> 16)) & 0xFFFF


def main():
    concurrent = sys.argv[1:2] == ["--concurrent"]
    count, path = int(sys.argv[-2]), sys.argv[-1]
    server = bytes([10, 200, 0, 1])
    time = 1_700_000_000_000_000
    with open(path, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 101))

        def packet(t, source, destination, source_port, destination_port, sequence, ack, flags, payload=b""):
            tcp = struct.pack("!HHIIBBHHH", source_port, destination_port, sequence, ack, 5 << 4, flags, 65535, 0, 0) + payload
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, source, destination)
            ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
            out.write(struct.pack("<IIII", t // 1_000_000, t % 1_000_000, len(ip) + len(tcp), len(ip) + len(tcp)) + ip + tcp)

        def connection(index):
            client = bytes([10, 1 + (index >> 16) % 250, (index >> 8) & 255, index & 255])
            client_id = b"0%08d" % index
            connect = b"\x00\x04MQTT\x04\x02\x00\x3c" + struct.pack("!H", len(client_id)) + client_id
            return client, 1024 + index % 60000, bytes([0x10, len(connect)]) + connect

        def begin(index, time):
            client, port, connect = connection(index)
            packet(time, client, server, port, 1883, 100, 0, 0x02)
            packet(time + 10, server, client, 1883, port, 500, 101, 0x12)
            packet(time + 20, client, server, port, 1883, 101, 501, 0x18, connect)
            packet(time + 30, server, client, 1883, port, 501, 101 + len(connect), 0x18, b"\x20\x02\x00\x00")

        def end(index, time):
            client, port, connect = connection(index)
            packet(time, client, server, port, 1883, 101 + len(connect), 505, 0x11)
            packet(time + 10, server, client, 1883, port, 505, 102 + len(connect), 0x11)

        for index in range(count):
            time += 1000
            begin(index, time)
            if not concurrent:
                end(index, time + 40)
        if concurrent:
            for index in reversed(range(0, count, 2)):
                time += 1000
                end(index, time)


if __name__ == "__main__":
    main()
