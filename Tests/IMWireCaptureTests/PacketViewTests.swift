import Foundation
import IMWireCore
import Testing

@testable import IMWireCapture

/// `imwire shard` reads packets in place (`PacketReader.read(packets:other:keeping:)`, and
/// pcapng's Enhanced Packet Blocks straight from the buffer); it must give what `next()` gives.
@Suite struct PacketViewTests {
    /// What a reader gives, through `next()` or in place.
    struct Read {
        var packets: [CapturedPacket] = []
        var others: [String] = []
    }

    /// Where `read` first differs from `expected`, briefly (a whole capture's packets are too
    /// long a failure message); nil when they are the same.
    static func difference(_ read: Read, _ expected: Read) -> String? {
        if let index = zip(read.packets, expected.packets).enumerated().first(where: { $0.element.0 != $0.element.1 })?
            .offset
        {
            return "packet \(index): \(read.packets[index].number), expected \(expected.packets[index].number)"
        }
        if read.packets.count != expected.packets.count {
            return "\(read.packets.count) packets, expected \(expected.packets.count)"
        }
        return read.others == expected.others ? nil : "others \(read.others), expected \(expected.others)"
    }

    static func describe(_ item: PacketItem) -> String {
        switch item {
        case .packet(let packet): "packet \(packet.number)"
        case .secrets(let secrets): "secrets \(secrets.type) \(secrets.data.count) at \(secrets.fileOffset)"
        case .problem(let finding): "problem \(finding.ruleID) \(finding.offset ?? -1) \(finding.message)"
        }
    }

    static func byNext(_ path: String) throws -> Read {
        let reader = try PacketCaptureReader.packets(path: path)
        var read = Read()
        while let item = reader.next() {
            if case .packet(let packet) = item {
                read.packets.append(packet)
            } else {
                read.others.append(describe(item))
            }
        }
        return read
    }

    static func inPlace(_ path: String, keeping: (Int) -> Bool = { _ in true }) throws -> (read: Read, asked: [Int]) {
        let reader = try PacketCaptureReader.packets(path: path)
        var read = Read()
        var asked: [Int] = []
        reader.read(
            packets: { read.packets.append(CapturedPacket($0)) }, other: { read.others.append(describe($0)) },
            keeping: {
                asked.append($0)
                return keeping($0)
            })
        return (read, asked)
    }

    static let captures: [String] = {
        let root =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/Fixtures/captures/"
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
        return names.filter { $0.hasSuffix(".pcapng") || $0.hasSuffix(".pcap") }.sorted().map { root + $0 }
    }()

    @Test func thereAreCaptures() { #expect(Self.captures.count >= 15) }

    /// Every item, packets and findings, in the order `next()` gives them.
    static func sequence(_ path: String, inPlace: Bool) throws -> [String] {
        let reader = try PacketCaptureReader.packets(path: path)
        var sequence: [String] = []
        func packet(_ packet: CapturedPacket) {
            sequence.append("packet \(packet.number) \(packet.time) \(packet.fileOffset) \(packet.data.hashValue)")
        }
        guard inPlace else {
            while let item = reader.next() {
                if case .packet(let captured) = item { packet(captured) } else { sequence.append(describe(item)) }
            }
            return sequence
        }
        while reader.readSome(packets: { packet(CapturedPacket($0)) }, other: { sequence.append(describe($0)) }) {}
        #expect(!reader.readSome(packets: { _ in sequence.append("after the end") }, other: { _ in }))
        return sequence
    }

    /// What the checker reads, a buffer at a time: every item in `next()`'s order.
    @Test(arguments: captures)
    func readingSomeAtATimeGivesNextsOrder(_ path: String) throws {
        #expect(try Self.sequence(path, inPlace: true) == Self.sequence(path, inPlace: false))
    }

    @Test(arguments: captures)
    func readingInPlaceGivesWhatNextGives(_ path: String) throws {
        let expected = try Self.byNext(path)
        let (read, asked) = try Self.inPlace(path)
        #expect(Self.difference(read, expected) == nil)
        #expect(asked == Array(expected.packets.indices))
    }

    /// A refused packet is counted and not given; the others come as they would.
    @Test(arguments: captures)
    func refusedPacketsArePassedOver(_ path: String) throws {
        let expected = try Self.byNext(path)
        let (read, asked) = try Self.inPlace(path) { $0 % 3 != 1 }
        var kept = expected
        kept.packets = expected.packets.indices.filter { $0 % 3 != 1 }.map { expected.packets[$0] }
        #expect(Self.difference(read, kept) == nil)
        #expect(asked == Array(expected.packets.indices))
    }

    /// A pcapng of packets of every size around the reader's 64 KiB buffer, with options, secrets,
    /// packets cut short by the snaplen (a finding each, before the packet), a second section in
    /// the other byte order, a damaged trailer and a cut last block.
    @Test func blocksAcrossTheBufferAndDamageReadAsNextReadsThem() throws {
        var writer = PcapngWriter(application: "test")
        var sizes: [Int] = []
        for index in 0..<600 {
            let size = (index * 7919) % 3000 + (index % 50 == 0 ? 70_000 : 0)
            sizes.append(size)
            writer.packet(
                (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }, linkType: 101,
                time: 1_700_000_000_000_000 + Int64(index), originalLength: index % 97 == 3 ? size + 5 : nil,
                inbound: index % 4 == 0 ? true : nil,
                comments: index % 5 == 0 ? ["packet \(index)"] : [])
            if index == 300 { writer.secrets(Array("CLIENT_RANDOM 00 11\n".utf8)) }
        }
        var bytes = writer.bytes
        // The trailer of a block in the middle says another length.
        var offset = 0
        var blocks: [(offset: Int, length: Int)] = []
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
            blocks.append((offset, length))
            offset += length
        }
        let damaged = blocks[blocks.count / 2]
        bytes[damaged.offset + damaged.length - 4] ^= 0x04
        // A second section, big-endian, whose last block is cut short.
        var big: [UInt8] = [0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 28, 0x1a, 0x2b, 0x3c, 0x4d, 0, 1, 0, 0]
        big += [UInt8](repeating: 0xff, count: 8) + [0, 0, 0, 28]
        big += [0, 0, 0, 1, 0, 0, 0, 20, 0, 101, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20]
        for index in 0..<40 {
            let data = [UInt8](repeating: UInt8(index), count: 40 + index)
            let padded = (data.count + 3) & ~3
            let length = UInt32(32 + padded)
            func word(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
            big += word(6) + word(length) + word(0) + word(0) + word(UInt32(index)) + word(UInt32(data.count))
            big += word(UInt32(data.count)) + data + [UInt8](repeating: 0, count: padded - data.count) + word(length)
        }
        bytes += big.dropLast(10)
        let path = try temporaryFile(bytes, suffix: ".pcapng")
        let expected = try Self.byNext(path)
        #expect(expected.packets.count == 639)
        #expect(expected.packets.map(\.data.count).prefix(600) == sizes[...])
        #expect(expected.others.contains { $0.hasPrefix("secrets") })
        #expect(expected.others.contains { $0.contains("trailer") })
        #expect(expected.others.contains { $0.contains("remain") })
        #expect(expected.others.filter { $0.contains("captured") }.count == 7)
        let (read, asked) = try Self.inPlace(path)
        #expect(Self.difference(read, expected) == nil)
        #expect(asked == Array(expected.packets.indices))
        #expect(try Self.sequence(path, inPlace: true) == Self.sequence(path, inPlace: false))
        let (odd, _) = try Self.inPlace(path) { $0 % 2 == 1 }
        var kept = expected
        kept.packets = expected.packets.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(Self.difference(odd, kept) == nil)
    }

    /// pcap, in both byte orders and resolutions: records of every size around the buffer, one
    /// cut short by its snaplen (a finding), one too large to read, and a cut last record.
    @Test(arguments: [Endianness.little, .big], [false, true])
    func pcapRecordsReadInPlaceAsNextReadsThem(order: Endianness, nanoseconds: Bool) throws {
        var packets: [(time: Int64, data: [UInt8])] = []
        for index in 0..<700 {
            let size = (index * 7919) % 2000 + (index == 350 ? 80_000 : 0)
            packets.append(
                (1_700_000_000_000_000 + Int64(index) * 1_001, (0..<size).map { UInt8(truncatingIfNeeded: $0 + index) })
            )
        }
        var bytes = pcap(packets, order: order, nanoseconds: nanoseconds)
        // Record 100 says 10 more bytes were on the wire than captured.
        var offset = PcapReader.headerSize
        for index in 0..<100 { offset += 16 + packets[index].data.count }
        let field = offset + 12
        let original = UInt32(packets[100].data.count + 10)
        let word = order == .big ? original.bigEndian : original.littleEndian
        withUnsafeBytes(of: word) { bytes.replaceSubrange(field..<(field + 4), with: $0) }
        bytes.removeLast(7)
        let path = try temporaryFile(bytes, suffix: ".pcap")
        let expected = try Self.byNext(path)
        #expect(expected.packets.count == 698)  // the record too large is skipped, the last one cut
        #expect(expected.others.count == 3)
        let (read, asked) = try Self.inPlace(path)
        #expect(Self.difference(read, expected) == nil)
        #expect(asked == Array(expected.packets.indices))
        #expect(try Self.sequence(path, inPlace: true) == Self.sequence(path, inPlace: false))
        let (even, _) = try Self.inPlace(path) { $0 % 2 == 0 }
        var kept = expected
        kept.packets = expected.packets.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(Self.difference(even, kept) == nil)
    }

    /// The first pass's note of each packet comes back in order, across the scratch file's chunks.
    @Test func packetPlacesComeBackInOrder() throws {
        let places = try PacketPlaces()
        let count = 300_000  // past one chunk of 262,144 entries
        func entry(_ index: Int) -> (unit: Int?, opens: Bool) { (index % 7 == 0 ? nil : index * 3, index % 5 == 0) }
        for index in 0..<count { try places.append(unit: entry(index).unit, opens: entry(index).opens) }
        try places.flush()
        for _ in 0..<2 {
            let reader = places.reader()
            var wrong = 0
            for index in 0..<count where reader.next() != entry(index) { wrong += 1 }
            #expect(wrong == 0)
            #expect(reader.next() == (nil, false))
        }
    }
}
