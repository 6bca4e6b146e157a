import IMWireCore
import Testing

@testable import IMWireCapture

/// Packets of one synthesized connection, with hand-picked sequence numbers.
private struct Flow {
    let tcp = TCPSynthesizer(index: 1, serverPort: 80)
    var packets: [(time: Int64, data: [UInt8])] = []
    var time: Int64 = 0

    mutating func add(_ direction: Direction, _ flags: UInt8, _ payload: String = "", sequence: UInt32) {
        time += 1000
        packets.append(
            (time, tcp.segment(direction, flags: flags, payload: Array(payload.utf8), sequence: sequence, ack: 0)))
    }

    func read(limits: Limits = .default) throws -> [String] {
        items(try PacketCaptureReader(path: try temporaryFile(pcap(packets)), limits: limits))
    }
}

@Suite struct TCPReassemblyTests {
    @Test func outOfOrderSegmentsComeOutInOrder() throws {
        var flow = Flow()
        flow.add(.send, 0x02, sequence: 99)  // SYN: data starts at 100
        flow.add(.receive, 0x12, sequence: 499)  // SYN-ACK
        flow.add(.send, 0x18, "world", sequence: 105)
        flow.add(.send, 0x18, "hello", sequence: 100)
        flow.add(.receive, 0x18, "ok", sequence: 500)
        flow.add(.send, 0x11, sequence: 110)
        flow.add(.receive, 0x11, sequence: 502)
        let described = try flow.read()
        #expect(described.first == "open 10.1.0.1:40001-10.2.0.1:80 10.1.0.1:40001→10.2.0.1:80")
        #expect(streams(described) == ("helloworld", "ok"))
        #expect(described.last == "close 10.1.0.1:40001-10.2.0.1:80")
        #expect(!described.contains { $0.hasPrefix("problem") || $0.hasPrefix("gap") })
    }

    @Test func identicalRetransmissionsAreQuietAndConflictsAreReported() throws {
        var flow = Flow()
        flow.add(.send, 0x02, sequence: 0)
        flow.add(.send, 0x18, "abcdef", sequence: 1)
        flow.add(.send, 0x18, "abcdef", sequence: 1)  // same bytes again
        flow.add(.send, 0x18, "defGHI", sequence: 4)  // overlaps "def", then new bytes
        flow.add(.send, 0x18, "XY", sequence: 2)  // overlaps "bc" with other bytes
        let described = try flow.read()
        #expect(streams(described).send == "abcdefGHI")
        #expect(described.filter { $0.hasPrefix("problem") } == ["problem CAPTURE.TCP-OVERLAP-CONFLICT"])
    }

    @Test func retransmissionsAreComparedWithTheWholeWindowOfALongStream() {
        var stream = TCPStream(maxBuffered: 1 << 20)
        stream.syn(sequence: 0)
        let sent = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        for start in stride(from: 0, to: sent.count, by: 1_000) {
            #expect(
                stream.segment(sequence: 1 + UInt32(start), payload: sent[start..<(start + 1_000)]) == [
                    .data(Array(sent[start..<(start + 1_000)]))
                ])
        }
        func resend(_ offset: Int, _ count: Int, changing changed: Int? = nil) -> [TCPStream.Output] {
            var bytes = Array(sent[offset..<(offset + count)])
            if let changed { bytes[changed] ^= 0xff }
            return stream.segment(sequence: 1 + UInt32(offset), payload: bytes[...])
        }
        // The last 65,536 bytes are kept, wherever the ring wraps.
        let kept = sent.count - TCPStream.recentWindow
        for offset in stride(from: kept, to: sent.count - 500, by: 6_007) {
            #expect(resend(offset, 500) == [], "offset \(offset)")
            #expect(
                resend(offset, 500, changing: 499) == [.conflict(offset: Int64(offset), length: 500)],
                "offset \(offset)")
        }
        // Older bytes cannot be compared; a copy straddling the window is compared where it can be.
        #expect(resend(1_000, 500, changing: 0) == [])
        #expect(resend(kept - 100, 500, changing: 0) == [])
        #expect(resend(kept - 100, 500, changing: 100) == [.conflict(offset: Int64(kept), length: 400)])

        // One segment longer than the window replaces it whole.
        let long = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        #expect(stream.segment(sequence: 1 + UInt32(sent.count), payload: long[...]) == [.data(long)])
        let end = sent.count + long.count
        var copy = Array(long[(long.count - 300)...])
        #expect(stream.segment(sequence: 1 + UInt32(end - 300), payload: copy[...]) == [])
        copy[0] ^= 1
        #expect(
            stream.segment(sequence: 1 + UInt32(end - 300), payload: copy[...]) == [
                .conflict(offset: Int64(end - 300), length: 300)
            ])
    }

    @Test func missingBytesBecomeAGapAndDecodingResumes() throws {
        var limits = Limits.default
        limits.maxMessageSize = 4  // the reordering buffer gives up quickly
        var flow = Flow()
        flow.add(.send, 0x02, sequence: 0)
        flow.add(.send, 0x18, "ab", sequence: 1)
        flow.add(.send, 0x18, "ef", sequence: 5)  // "cd" never captured
        flow.add(.send, 0x18, "ghij", sequence: 7)
        let described = try flow.read(limits: limits)
        #expect(described.contains("gap send 2"))
        #expect(streams(described).send == "abefghij")
    }

    @Test func sequenceNumbersWrapAround() throws {
        var flow = Flow()
        flow.add(.send, 0x02, sequence: UInt32.max - 2)
        flow.add(.send, 0x18, "12", sequence: UInt32.max - 1)
        flow.add(.send, 0x18, "34", sequence: 0)
        flow.add(.send, 0x18, "56", sequence: 2)
        #expect(streams(try flow.read()).send == "123456")
    }

    /// `nextInOrder` (the flow table's fast path) delivers exactly what `segment` would, and
    /// declines, changing nothing, whenever the segment is not simply the next in order.
    @Test func theInOrderFastPathAgreesWithTheGeneralPath() {
        var random = SplitMix64(seed: 8)
        let sent = (0..<4_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for round in 0..<50 {
            // Segments in order, some swapped, repeated or overlapping, then everything at the end.
            var segments: [Range<Int>] = []
            var start = 0
            while start < sent.count {
                let end = min(sent.count, start + 1 + Int(random.next() % 300))
                segments.append(start..<end)
                start = end
            }
            for _ in 0..<(round % 7) {
                let a = Int(random.next() % UInt64(segments.count))
                let b = Int(random.next() % UInt64(segments.count))
                segments.swapAt(a, b)
                if random.next() % 2 == 0 { segments.insert(segments[a], at: b) }
            }
            segments.append(0..<sent.count)
            var general = TCPStream(maxBuffered: 1 << 20)
            var fast = TCPStream(maxBuffered: 1 << 20)
            if round % 2 == 0 {
                general.syn(sequence: 41)
                fast.syn(sequence: 41)
            }
            var declined = 0
            for range in segments {
                let sequence = 42 &+ UInt32(range.lowerBound)
                let expected = general.segment(sequence: sequence, payload: sent[range])
                if let bytes = fast.nextInOrder(sequence: sequence, payload: sent[range]) {
                    #expect(expected == [.data(bytes)], "round \(round), \(range)")
                } else {
                    declined += 1
                    #expect(
                        fast.segment(sequence: sequence, payload: sent[range]) == expected, "round \(round), \(range)")
                }
            }
            #expect(declined > 0)
            #expect(fast.delivered == general.delivered)
            // without a SYN the stream starts where the capture does
            if round % 2 == 0 { #expect(fast.delivered == Int64(sent.count)) }
        }
    }

    /// Packet payloads are slices of their frames (indices from the header's length on): the
    /// window of recent bytes must take them as they are, also once it wraps around.
    @Test func payloadSlicesOfFramesFillTheRecentWindow() {
        var stream = TCPStream(maxBuffered: 1 << 20)
        stream.syn(sequence: 0)
        let sent = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 7) }
        let header = [UInt8](repeating: 0xee, count: 54)
        for start in stride(from: 0, to: sent.count, by: 1_400) {
            let frame = header + sent[start..<min(sent.count, start + 1_400)]
            let payload = frame[header.count...]
            #expect(stream.nextInOrder(sequence: 1 + UInt32(start), payload: payload) == Array(payload))
        }
        let offset = sent.count - 3_000
        var changed = header + sent[offset..<(offset + 500)]
        #expect(stream.segment(sequence: 1 + UInt32(offset), payload: changed[header.count...]) == [])
        changed[header.count + 499] ^= 0xff
        #expect(
            stream.segment(sequence: 1 + UInt32(offset), payload: changed[header.count...])
                == [.conflict(offset: Int64(offset), length: 500)])
    }

    @Test func aConnectionSeenMidwayUsesThePortsToTellTheClient() throws {
        var flow = Flow()
        flow.add(.receive, 0x18, "from server", sequence: 7)  // no SYN in the capture
        flow.add(.send, 0x18, "from client", sequence: 70)
        let described = try flow.read()
        #expect(described.first == "open 10.1.0.1:40001-10.2.0.1:80 10.1.0.1:40001→10.2.0.1:80")
        #expect(streams(described) == ("from client", "from server"))
    }

    @Test func resetClosesAndStrayAcksOpenNothing() throws {
        var flow = Flow()
        flow.add(.send, 0x10, sequence: 5)  // a bare ACK of a connection already gone
        flow.add(.send, 0x02, sequence: 0)
        flow.add(.send, 0x18, "x", sequence: 1)
        flow.add(.receive, 0x14, sequence: 9)  // RST
        let described = try flow.read()
        #expect(described.filter { $0.hasPrefix("open") }.count == 1)
        #expect(described.last?.hasPrefix("close") == true)
    }

    /// A byte in flight when the server reset (Autobahn's fuzzing client sends a byte at a time)
    /// is the ended connection's, not a new SYN-less one; far from where it stopped, or with a
    /// SYN, the pair opens a new connection.
    @Test func aSegmentAfterTheResetStaysWithItsConnection() throws {
        var flow = Flow()
        flow.add(.send, 0x02, sequence: 0)
        flow.add(.receive, 0x12, sequence: 500)
        flow.add(.send, 0x18, "G", sequence: 1)
        flow.add(.receive, 0x14, sequence: 501)  // RST
        flow.add(.send, 0x18, "E", sequence: 2)  // in flight
        flow.add(.send, 0x18, "T", sequence: 3)
        var described = try flow.read()
        #expect(described.filter { $0.hasPrefix("open") }.count == 1)
        #expect(described.suffix(2) == ["problem CAPTURE.TCP-AFTER-END", "problem CAPTURE.TCP-AFTER-END"])
        #expect(streams(described).send == "G")

        flow.add(.send, 0x18, "new", sequence: 3_000_000_000)  // a connection seen midway
        flow.add(.send, 0x14, sequence: 3_000_000_003)
        flow.add(.send, 0x02, sequence: 9)  // and one that opens
        described = try flow.read()
        let opens = described.filter { $0.hasPrefix("open") }.map { $0.split(separator: " ")[1] }
        #expect(
            opens == ["10.1.0.1:40001-10.2.0.1:80", "10.1.0.1:40001-10.2.0.1:80#2", "10.1.0.1:40001-10.2.0.1:80#3"])
        #expect(described.contains("send new"))
    }

    /// A connection silent for longer than `Limits.tcpIdleSeconds` ends as at the capture's end:
    /// at a look at the open connections while another goes on (no finding: a shard without the
    /// other would not see it), or at its own next segment, which is `CAPTURE.TCP-IDLE` and not
    /// decoded either way. At the limit, or with the limit 0, it stays open.
    @Test func aConnectionSilentPastTheLimitEnds() throws {
        let quiet = TCPSynthesizer(index: 1, serverPort: 80)
        let busy = TCPSynthesizer(index: 2, serverPort: 80)
        func capture(silence: Int64, withBusy: Bool = true) -> [(time: Int64, data: [UInt8])] {
            var packets = [(Int64(0), quiet.segment(.send, flags: 0x02, payload: [], sequence: 0, ack: 0))]
            packets.append((1, quiet.segment(.send, flags: 0x18, payload: Array("a".utf8), sequence: 1, ack: 0)))
            for second in stride(from: Int64(0), through: withBusy ? silence / 1_000_000 + 60 : -1, by: 30) {
                packets.append(
                    (
                        2 + second * 1_000_000,
                        busy.segment(.send, flags: 0x18, payload: [0x62], sequence: 1 + UInt32(second / 30), ack: 0)
                    ))
            }
            packets.append(
                (1 + silence, quiet.segment(.send, flags: 0x18, payload: Array("c".utf8), sequence: 2, ack: 0)))
            return packets.sorted { $0.0 < $1.0 }
        }
        let limits = Limits(tcpIdleSeconds: 600)
        func read(_ packets: [(time: Int64, data: [UInt8])], _ limits: Limits) throws -> [String] {
            items(try PacketCaptureReader(path: try temporaryFile(pcap(packets)), limits: limits))
        }
        let ended = try read(capture(silence: 601_000_000), limits)
        let close = try #require(ended.firstIndex(of: "close 10.1.0.1:40001-10.2.0.1:80"))
        // Looked at every 600/16 s (at a packet): the end comes between 600 and 637.5 s.
        let busyBefore = ended[..<close].filter { $0 == "send b" }.count
        #expect(busyBefore >= 600 / 30 && busyBefore <= (600 + 600 / 16) / 30 + 1, "\(busyBefore)")
        #expect(ended.filter { $0.hasPrefix("problem") } == ["problem CAPTURE.TCP-IDLE"])  // the late "c"
        #expect(ended.filter { $0.hasPrefix("open") }.count == 2 && !ended.contains("send c"))
        #expect(ended.last == "close 10.1.0.2:40002-10.2.0.2:80")

        let alone = try read(capture(silence: 601_000_000, withBusy: false), limits)
        #expect(
            alone == [
                "open 10.1.0.1:40001-10.2.0.1:80 10.1.0.1:40001→10.2.0.1:80", "send a",
                "close 10.1.0.1:40001-10.2.0.1:80",
                "problem CAPTURE.TCP-IDLE",
            ])

        for (silence, limits) in [(Int64(600_000_000), limits), (601_000_000, Limits(tcpIdleSeconds: 0))] {
            let open = try read(capture(silence: silence), limits)
            #expect(
                !open.contains { $0.hasPrefix("problem") } && open.contains("send c"),
                "\(silence) \(limits.tcpIdleSeconds)")
            #expect(
                open.suffix(2).sorted() == ["close 10.1.0.1:40001-10.2.0.1:80", "close 10.1.0.2:40002-10.2.0.2:80"])
        }
    }

    @Test func pairsWrittenOutAreStillCounted() throws {
        let addresses = try [
            [10, 1, 0, 1], [10, 1, 0, 2], [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1],
            [UInt8](repeating: 0, count: 15) + [1],
        ]
        .map { try #require(IPAddress($0)) }
        var seen = SeenPairs(inMemory: 3)  // a run written every 3 new pairs
        var expected: [String: Int] = [:]
        var state: UInt64 = 7
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let pick = Int(state >> 33)
            let (client, server) = (
                Endpoint(address: addresses[pick % 4], port: UInt16(40000 + (pick >> 2) % 10)),
                Endpoint(address: addresses[(pick >> 8) % 4], port: 443)
            )
            let key = "\(client)-\(server)"
            expected[key, default: 0] += 1
            #expect(seen.connections(client: client, server: server) == expected[key], "\(key)")
        }
        #expect(expected.values.contains { $0 > 10 } && expected.count > 100)  // reused often, across many runs
    }

    @Test func anAddressPairUsedAgainNumbersItsConnections() throws {
        var flow = Flow()
        for _ in 0..<3 {
            flow.add(.send, 0x02, sequence: 0)  // SYN
            flow.add(.receive, 0x14, sequence: 0)  // RST
        }
        flow.add(.receive, 0x02, sequence: 0)  // now the other side opens: a pair of its own
        flow.add(.send, 0x14, sequence: 0)
        flow.add(.send, 0x02, sequence: 0)
        let opens = try flow.read().filter { $0.hasPrefix("open") }.map { $0.split(separator: " ")[1] }
        #expect(
            opens == [
                "10.1.0.1:40001-10.2.0.1:80", "10.1.0.1:40001-10.2.0.1:80#2", "10.1.0.1:40001-10.2.0.1:80#3",
                "10.2.0.1:80-10.1.0.1:40001", "10.1.0.1:40001-10.2.0.1:80#4",
            ])
    }
}

@Suite struct LinkLayerTests {
    private static let ipv4 = TCPSynthesizer(index: 1).segment(
        .send, flags: 0x18, payload: Array("hi".utf8), sequence: 1, ack: 0)

    @Test func readsEveryLinkType() throws {
        let ethernet: [UInt8] = [UInt8](repeating: 0xaa, count: 12) + [0x81, 0x00, 0, 1] + [0x08, 0x00] + Self.ipv4
        let sll: [UInt8] = [UInt8](repeating: 0, count: 14) + [0x08, 0x00] + Self.ipv4
        let sll2: [UInt8] = [0x08, 0x00] + [UInt8](repeating: 0, count: 18) + Self.ipv4
        let null: [UInt8] = [2, 0, 0, 0] + Self.ipv4
        for (linkType, frame) in [
            (UInt32(1), ethernet), (113, sll), (276, sll2), (0, null), (101, Self.ipv4), (228, Self.ipv4),
        ] {
            let described = items(
                try PacketCaptureReader(path: try temporaryFile(pcap([(1, frame)], linkType: linkType))))
            #expect(streams(described).send == "hi", "link type \(linkType)")
        }
        let arp: [UInt8] = [UInt8](repeating: 0xaa, count: 12) + [0x08, 0x06] + [UInt8](repeating: 0, count: 28)
        #expect(items(try PacketCaptureReader(path: try temporaryFile(pcap([(1, arp)], linkType: 1)))).isEmpty)
        let unknown = items(
            try PacketCaptureReader(path: try temporaryFile(pcap([(1, Self.ipv4), (2, Self.ipv4)], linkType: 147))))
        #expect(unknown == ["problem CAPTURE.LINKTYPE-UNSUPPORTED"])
    }

    @Test func readsIPv6WithExtensionHeaders() throws {
        var packet = ByteWriter()
        let tcp = Array(Self.ipv4[20...])
        packet.append(0x60)
        packet.append(contentsOf: [0, 0, 0])
        packet.append(UInt16(8 + tcp.count), .big)
        packet.append(0)  // next header: hop-by-hop options
        packet.append(64)
        packet.append(contentsOf: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1])
        packet.append(contentsOf: [UInt8](repeating: 0, count: 15) + [1])
        packet.append(contentsOf: [6, 0, 1, 4, 0, 0, 0, 0])  // hop-by-hop: next TCP, 8 bytes
        packet.append(contentsOf: tcp)
        let described = items(try PacketCaptureReader(path: try temporaryFile(pcap([(1, packet.bytes)]))))
        #expect(described.first == "open [2001:db8::1]:40001-[::1]:443 [2001:db8::1]:40001→[::1]:443")
        #expect(streams(described).send == "hi")
        // The same packet again after a reset of the connection is still the first connection's
        // (sent after its end); a SYN after it opens the pair's second connection.
        var (reset, syn) = (packet.bytes, packet.bytes)
        reset[40 + 8 + 13] = 0x14
        syn[40 + 8 + 13] = 0x02
        let again = items(
            try PacketCaptureReader(
                path: try temporaryFile(pcap([(1, packet.bytes), (2, reset), (3, packet.bytes), (4, syn)]))))
        #expect(
            again.filter { $0.hasPrefix("open") }.map { $0.split(separator: " ")[1] }
                == ["[2001:db8::1]:40001-[::1]:443", "[2001:db8::1]:40001-[::1]:443#2"])
        #expect(again.contains("problem CAPTURE.TCP-AFTER-END"))
    }

    @Test func fragmentsAndDamagedHeadersAreFindings() throws {
        var fragment = Self.ipv4
        fragment[6] = 0x20  // more fragments
        var short = Self.ipv4
        short[0] = 0x4f  // header length 60 > packet
        let described = items(
            try PacketCaptureReader(path: try temporaryFile(pcap([(1, fragment), (2, short), (3, [0x45])]))))
        #expect(
            described == [
                "problem CAPTURE.IP-FRAGMENT", "problem CAPTURE.IP-MALFORMED", "problem CAPTURE.IP-MALFORMED",
            ])
    }

    @Test func addressesPrintLikeRFC5952() throws {
        func ip(_ bytes: [UInt8]) throws -> IPAddress { try #require(IPAddress(bytes)) }
        #expect(try ip([192, 168, 0, 1]).description == "192.168.0.1")
        #expect(
            try ip([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]).description == "2001:db8::1:0:0:1")
        #expect(try ip([UInt8](repeating: 0, count: 16)).description == "::")
        #expect(try ip([255, 0, 128, 7]).description == "255.0.128.7")
        #expect(try ip([UInt8](repeating: 0, count: 15) + [1]).description == "::1")
        #expect(try ip([0xfe, 0x80] + [UInt8](repeating: 0, count: 14)).description == "fe80::")
        #expect(try ip([0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4, 0xab, 0xcd]).description == "1:0:2::3:4:abcd")
        // Two zero runs as long: the first is compressed.
        #expect(try ip([0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4]).description == "1::2:0:0:3:4")
        #expect(try ip([0xab, 0xcd, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7]).description == "abcd:1:2:3:4:5:6:7")
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]
        #expect(try ip(v6).bytes == v6)
        #expect(try ip([10, 0, 0, 2]).bytes == [10, 0, 0, 2])
        #expect(try ip([10, 0, 0, 2]) < ip([10, 0, 0, 10]))
        // Endpoints: IPv4 written byte by byte, IPv6 bracketed.
        for (bytes, port, text) in [
            ([0, 0, 0, 0], 0, "0.0.0.0:0"), ([255, 255, 255, 255], 65535, "255.255.255.255:65535"),
            ([10, 9, 100, 199], 8080, "10.9.100.199:8080"), ([1, 20, 0, 3], 10, "1.20.0.3:10"),
        ] as [([UInt8], UInt16, String)] {
            #expect(Endpoint(address: try ip(bytes), port: port).description == text)
        }
        #expect(Endpoint(address: try ip(v6), port: 443).description == "[2001:db8::1:0:0:1]:443")
        #expect(try ip([255, 255, 255, 255]) < ip([UInt8](repeating: 0, count: 16)))
        #expect(try ip(v6) < ip(v6.dropLast() + [2]) && ip([10, 0, 0, 2]) != ip([10, 0, 0, 3]))
        #expect(IPAddress([1, 2, 3]) == nil && IPAddress([UInt8](repeating: 1, count: 8)) == nil)
    }

    // A header's addresses are loaded as words where the frame lies in memory and read byte by
    // byte where it does not: both say what the byte-list initialiser says, at any offset.
    @Test func headerAddressesLoadedInPlaceMatchTheirBytes() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let frame = (0..<40).map { _ in UInt8.random(in: 0...255, using: &random) }
            for (start, count) in [
                (Int.random(in: 0...36, using: &random), 4), (Int.random(in: 0...24, using: &random), 16),
            ] {
                let expected = try #require(IPAddress(frame[start..<(start + count)]))
                #expect(IPAddress(frame, at: start, count: count) == expected)
                #expect(IPAddress(frame.lazy.map { $0 }, at: start, count: count) == expected)
                frame.withUnsafeBytes { raw in
                    #expect(IPAddress(FrameBytes(raw), at: start, count: count) == expected)
                }
            }
        }
    }
}

@Suite struct HARTests {
    @Test func chromeExportsBecomeConnections() throws {
        let har = #"""
            {"log": {"version": "1.2", "entries": [
              {"request": {"url": "wss://rtm.example/", "method": "GET", "headers": []},
               "response": {"status": 101, "headers": [{"name": "sec-websocket-protocol", "value": "lc.protobuf2.3"}]},
               "_webSocketMessages": [
                 {"type": "send", "time": 1700000000.5, "opcode": 2, "data": "CA4oAQ=="},
                 {"type": "receive", "time": 1700000000.75, "opcode": 1, "data": "{}"},
                 {"type": "receive", "time": 1700000001, "opcode": 9, "data": ""},
                 {"type": "sideways", "time": 1700000001, "opcode": 1, "data": "x"}]},
              {"request": {"url": "wss://other.example/"}, "response": {"status": 101, "headers": []}},
              {"request": {"url": "https://example/"}, "response": {"status": 200}}
            ]}}
            """#
        let reader = try CaptureFile.open(try temporaryFile(Array(har.utf8), suffix: ".har"))
        var described: [String] = []
        var subprotocol: String?
        while let item = reader.next() {
            if case .event(let event) = item, case .open(let info) = event.kind { subprotocol = info.subprotocol }
            switch item {
            case .problem(let finding): described.append("problem \(finding.ruleID)")
            case .secrets: described.append("secrets")
            case .event(let event):
                switch event.kind {
                case .message(let message):
                    described.append(
                        """
                        \(message.direction.rawValue) \(message.frameType) \
                        \(message.payload.count) @\(event.time ?? 0)
                        """)
                default: described.append("\(event.kind)".split(separator: "(").first.map(String.init) ?? "")
                }
            }
        }
        #expect(subprotocol == "lc.protobuf2.3")
        #expect(
            described == [
                "open", "send binary 4 @1700000000500000", "receive text 2 @1700000000750000",
                "problem CAPTURE.HAR-BAD-MESSAGE", "close",
                "problem CAPTURE.HAR-NO-WEBSOCKET-MESSAGES",
            ])
    }

    @Test func formatsAreRecognised() throws {
        #expect(try CaptureFile.format(of: try temporaryFile(Array(#"{"log":{"entries":[]}}"#.utf8))) == .har)
        #expect(try CaptureFile.format(of: try temporaryFile(Array("{\n  \"log\": {}\n}".utf8))) == .har)
        #expect(
            try CaptureFile.format(of: try temporaryFile(Array("{\"dir\":\"send\",\"text\":\"x\"}\n".utf8))) == .jsonl)
        #expect(try CaptureFile.format(of: try temporaryFile(pcap([]))) == .pcap)
        #expect(try CaptureFile.format(of: try temporaryFile(PcapngWriter().bytes)) == .pcapng)
        #expect(try CaptureFile.format(of: try temporaryFile(Array("GIF89a".utf8))) == nil)
    }
}
