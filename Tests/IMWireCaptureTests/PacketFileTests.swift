import Foundation
import IMWireCore
import IMWireIO
import Testing

@testable import IMWireCapture

@Suite struct PcapTests {
    @Test(arguments: [(Endianness.little, false), (.big, false), (.little, true), (.big, true)])
    func readsBothByteOrdersAndResolutions(order: Endianness, nanoseconds: Bool) throws {
        let path = try temporaryFile(
            pcap(
                [(1_700_000_000_123_456, [1, 2, 3]), (1_700_000_001_000_001, [4])], order: order,
                nanoseconds: nanoseconds))
        let reader = try PacketCaptureReader.packets(path: path)
        var packets: [CapturedPacket] = []
        while let item = reader.next() { if case .packet(let packet) = item { packets.append(packet) } }
        #expect(packets.map(\.time) == [1_700_000_000_123_456, 1_700_000_001_000_001])
        #expect(packets.map(\.data) == [[1, 2, 3], [4]])
        #expect(packets.map(\.number) == [1, 2])
        #expect(packets.first?.linkType == 101)
    }

    @Test func damageIsReportedAndReadingStopsCleanly() throws {
        var bytes = pcap([(0, [1, 2, 3, 4])])
        bytes += [0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0]  // a record header cut after 12 bytes
        let reader = try PacketCaptureReader.packets(path: try temporaryFile(bytes))
        var kinds: [String] = []
        while let item = reader.next() {
            if case .problem(let finding) = item {
                kinds.append("\(finding.ruleID)@\(finding.offset ?? -1)")
            } else {
                kinds.append("packet")
            }
        }
        #expect(kinds == ["packet", "CAPTURE.TRUNCATED-FILE@44"])
    }

    @Test func hugeRecordsAreSkippedWithoutBeingRead() throws {
        var limits = Limits.default
        limits.maxFrameSize = 16
        var writer = ByteWriter()
        writer.append(contentsOf: pcap([], snapLength: 0xffff_ffff))  // a snaplen of 4 GB
        writer.append(UInt32(0), .little)
        writer.append(UInt32(0), .little)
        writer.append(UInt32(100), .little)
        writer.append(UInt32(100), .little)
        writer.append(contentsOf: [UInt8](repeating: 7, count: 100))
        writer.append(contentsOf: pcap([(5, [9, 9])]).dropFirst(24))  // a normal record after it
        let reader = try PacketCaptureReader.packets(path: try temporaryFile(writer.bytes), limits: limits)
        var kinds: [String] = []
        while let item = reader.next() {
            if case .problem(let finding) = item { kinds.append("\(finding.ruleID)") } else { kinds.append("packet") }
        }
        #expect(kinds == ["CAPTURE.RECORD-TOO-LARGE", "packet"])
    }

    @Test func notAPacketCapture() throws {
        let hello = try temporaryFile(Array("hello".utf8))
        #expect(throws: IMWireError(.captureFormat, "not pcap or pcapng (starts with 68656c6c)", path: hello)) {
            try PacketCaptureReader.packets(path: hello)
        }
        #expect {
            try PacketCaptureReader.packets(path: "/nonexistent/file.pcap")
        } throws: { ($0 as? IMWireError)?.code == .fileRead && ($0 as? IMWireError)?.path == "/nonexistent/file.pcap" }
    }
}

@Suite struct PcapngTests {
    @Test func writerAndReaderAgree() throws {
        var writer = PcapngWriter()
        writer.packet(
            [0x45, 1, 2], linkType: 101, time: 1_700_000_000_654_321, inbound: true,
            comments: ["first", "中文 comment"])
        writer.packet([0xde, 0xad], linkType: 1, time: 5, originalLength: 60, inbound: false)
        let reader = try PacketCaptureReader.packets(path: try temporaryFile(writer.bytes))
        var packets: [CapturedPacket] = []
        var problems: [String] = []
        while let item = reader.next() {
            switch item {
            case .packet(let packet): packets.append(packet)
            case .problem(let finding): problems.append("\(finding.ruleID)")
            case .secrets: problems.append("secrets")
            }
        }
        #expect(packets.map(\.data) == [[0x45, 1, 2], [0xde, 0xad]])
        #expect(packets.map(\.time) == [1_700_000_000_654_321, 5])
        #expect(packets.map(\.linkType) == [101, 1])
        #expect(packets.map(\.inbound) == [true, false])
        #expect(packets.first?.comments == ["first", "中文 comment"])
        #expect(problems == ["CAPTURE.PACKET-TRUNCATED"])  // 2 of 60 bytes captured
    }

    /// A hand-built big-endian section with a nanosecond interface, a simple packet block, an
    /// unknown block and a second (little-endian) section.
    @Test func sectionsResolutionsAndSkippedBlocks() throws {
        func block(_ type: UInt32, _ body: [UInt8], _ order: Endianness) -> [UInt8] {
            var writer = ByteWriter()
            writer.append(type, order)
            writer.append(UInt32(12 + body.count), order)
            writer.append(contentsOf: body)
            writer.append(UInt32(12 + body.count), order)
            return writer.bytes
        }
        func shb(_ order: Endianness) -> [UInt8] {
            var body = ByteWriter()
            body.append(UInt32(0x1a2b_3c4d), order)
            body.append(UInt16(1), order)
            body.append(UInt16(0), order)
            body.append(UInt64.max, order)
            return block(0x0a0d_0d0a, body.bytes, order)
        }
        func idb(_ order: Endianness, tsresol: UInt8?) -> [UInt8] {
            var body = ByteWriter()
            body.append(UInt16(101), order)
            body.append(UInt16(0), order)
            body.append(UInt32(0), order)
            if let tsresol {
                body.append(UInt16(9), order)
                body.append(UInt16(1), order)
                body.append(contentsOf: [tsresol, 0, 0, 0])
            }
            return block(1, body.bytes, order)
        }
        func epb(_ order: Endianness, units: UInt64, data: [UInt8]) -> [UInt8] {
            var body = ByteWriter()
            body.append(UInt32(0), order)
            body.append(UInt32(units >> 32), order)
            body.append(UInt32(units & 0xffff_ffff), order)
            body.append(UInt32(data.count), order)
            body.append(UInt32(data.count), order)
            body.append(contentsOf: data)
            body.append(contentsOf: repeatElement(0, count: (4 - data.count % 4) % 4))
            return block(6, body.bytes, order)
        }
        var spbBody = ByteWriter()
        spbBody.append(UInt32(3), .big)
        spbBody.append(contentsOf: [7, 8, 9, 0])
        let bytes =
            shb(.big) + idb(.big, tsresol: 9) + epb(.big, units: 1_500_000_000, data: [1])
            + block(3, spbBody.bytes, .big)
            + block(0x1234, [0, 0, 0, 0], .big)
            + shb(.little) + idb(.little, tsresol: 0x80 | 10) + epb(.little, units: 3 * 1024 + 512, data: [2, 3])
        let reader = try PacketCaptureReader.packets(path: try temporaryFile(bytes))
        var packets: [CapturedPacket] = []
        var problems: [String] = []
        while let item = reader.next() {
            switch item {
            case .packet(let packet): packets.append(packet)
            case .problem(let finding): problems.append("\(finding.ruleID)")
            case .secrets: problems.append("secrets")
            }
        }
        #expect(packets.map(\.data) == [[1], [7, 8, 9], [2, 3]])
        // ns; simple packet keeps the last time; 2^-10 s
        #expect(packets.map(\.time) == [1_500_000, 1_500_000, 3_500_000])
        #expect(problems == ["CAPTURE.PCAPNG-UNKNOWN-BLOCK"])
    }

    @Test func badBlocksAreReported() throws {
        var writer = PcapngWriter()
        writer.packet([1, 2, 3, 4], linkType: 101, time: 1)
        var damaged = writer.bytes
        damaged[damaged.count - 4] ^= 0x40  // the trailer copy of the last block's length
        let reader = try PacketCaptureReader.packets(path: try temporaryFile(damaged))
        var problems: [String] = []
        var count = 0
        while let item = reader.next() {
            if case .problem(let finding) = item { problems.append("\(finding.ruleID)") } else { count += 1 }
        }
        #expect(problems == ["CAPTURE.PCAPNG-BLOCK-LENGTH"])
        #expect(count == 1)

        let truncated = Array(writer.bytes.dropLast(6))
        let second = try PacketCaptureReader.packets(path: try temporaryFile(truncated))
        var last: String?
        while let item = second.next() { if case .problem(let finding) = item { last = "\(finding.ruleID)" } }
        #expect(last == "CAPTURE.TRUNCATED-FILE")
    }
}

@Suite struct DecryptionSecretsBlockTests {
    /// A Decryption Secrets Block (what `editcap --inject-secrets` writes) comes out of the reader in
    /// file order, between the packets around it, with its bytes unpadded.
    @Test func secretsAreReadInFileOrder() throws {
        var writer = PcapngWriter()
        writer.packet([0x45, 1], linkType: 101, time: 1)
        let keyLog = Array("CLIENT_RANDOM 00 11\n".utf8)  // 20 bytes: padded to 20, then options
        writer.secrets(keyLog + [0x41])  // 21 bytes: padding must not come back
        writer.packet([0x45, 2], linkType: 101, time: 2)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dsb-\(UInt32.random(in: 0...UInt32.max)).pcapng"
        ).path
        try TextFile.write(writer.bytes, to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try PacketCaptureReader.packets(path: path)
        var items: [String] = []
        while let item = reader.next() {
            switch item {
            case .packet(let packet): items.append("packet \(packet.number)")
            case .secrets(let secrets):
                items.append(
                    "secrets \(String(format: "%08x", secrets.type)) \(String(decoding: secrets.data, as: UTF8.self))")
            case .problem(let finding): items.append("problem \(finding.ruleID)")
            }
        }
        #expect(items == ["packet 1", "secrets 544c534b CLIENT_RANDOM 00 11\nA", "packet 2"])
    }
}
