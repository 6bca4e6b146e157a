import IMWireCore
import IMWireIO

/// Classic libpcap files (draft-ietf-opsawg-pcap): both byte orders, microsecond and nanosecond
/// timestamps. Records are read one at a time; a record longer than `Limits.maxFrameSize`, or
/// than a snaplen above 65,535 (smaller snaplens are not trusted), is skipped by its length,
/// never held in memory.
package final class PcapReader: PacketReader {
    package static let headerSize = 24
    package static let magics: [[UInt8]] = [
        [0xa1, 0xb2, 0xc3, 0xd4], [0xd4, 0xc3, 0xb2, 0xa1], [0xa1, 0xb2, 0x3c, 0x4d], [0x4d, 0x3c, 0xb2, 0xa1],
    ]

    private let input: BufferedInput
    private let limits: Limits
    private var order: Endianness = .big
    private var nanoseconds = false
    private var snapLength = 0
    private var linkType: UInt32 = 0
    private var number = 0
    private var finished = false
    private var pending: [PacketItem] = []

    /// Reads the file header; throws when the file is not pcap at all.
    package init(_ input: BufferedInput, limits: Limits = .default) throws(IMWireError) {
        self.input = input
        self.limits = limits
        guard let header = input.read(Self.headerSize) else {
            throw IMWireError(.captureFormat, "shorter than a pcap header")
        }
        switch Array(header[0..<4]) {
        case Self.magics[0]: order = .big
        case Self.magics[1]: order = .little
        case Self.magics[2]:
            order = .big
            nanoseconds = true
        case Self.magics[3]:
            order = .little
            nanoseconds = true
        default: throw IMWireError(.captureFormat, "not a pcap file (magic \(Hex.encode(header[0..<4])))")
        }
        header.withReader { reader in
            _ = reader.skip(4)
            let major = reader.readUInt16(order) ?? 0
            let minor = reader.readUInt16(order) ?? 0
            _ = reader.skip(8)
            snapLength = Int(reader.readUInt32(order) ?? 0)
            linkType = (reader.readUInt32(order) ?? 0) & 0x0fff_ffff  // upper bits: FCS length
            if major != 2 || minor > 4 {
                pending.append(
                    .problem(CaptureRules.badFileHeader.finding("pcap version \(major).\(minor), expected 2.4", at: 4)))
            }
        }
    }

    package var bytesRead: Int { input.offset }

    package func next() -> PacketItem? {
        if !pending.isEmpty { return pending.removeFirst() }
        guard !finished else { return nil }
        let recordOffset = input.offset
        guard let header = input.read(16) else {
            finished = true
            let left = input.remaining(upTo: 16)
            if left > 0 {
                return .problem(
                    CaptureRules.truncatedFile.finding(
                        "\(left) bytes after the last record, a record header needs 16", at: recordOffset))
            }
            return nil
        }
        number += 1
        var seconds: UInt32 = 0
        var fraction: UInt32 = 0
        var included: UInt32 = 0
        var original: UInt32 = 0
        header.withReader { reader in
            seconds = reader.readUInt32(order) ?? 0
            fraction = reader.readUInt32(order) ?? 0
            included = reader.readUInt32(order) ?? 0
            original = reader.readUInt32(order) ?? 0
        }
        let limit = largestRecord
        guard Int(included) <= limit else {
            let skipped = input.skip(Int(included))
            if skipped < Int(included) { finished = true }
            return .problem(
                CaptureRules.recordTooLarge.finding(
                    "record \(number) holds \(included) bytes, limit \(limit); skipped", at: recordOffset
                ).atRecord(number, fileOffset: recordOffset))
        }
        guard let data = input.read(Int(included)) else {
            finished = true
            let left = input.remaining(upTo: Int(included))
            return .problem(
                CaptureRules.truncatedFile.finding(
                    "record \(number) announces \(included) bytes, \(left) remain", at: recordOffset
                ).atRecord(number, fileOffset: recordOffset))
        }
        let packet = CapturedPacket(
            time: time(seconds, fraction), linkType: linkType, data: data, originalLength: Int(original),
            number: number, fileOffset: recordOffset, dataOffset: recordOffset + 16)
        if original > included {
            pending.append(.packet(packet))
            return .problem(
                CaptureRules.packetTruncated.finding(
                    "record \(number): \(included) of \(original) bytes captured", at: recordOffset
                ).atRecord(number, fileOffset: recordOffset))
        }
        return .packet(packet)
    }
}

extension PcapReader {
    /// Record bytes read at most; a longer record is skipped.
    private var largestRecord: Int {
        min(limits.maxFrameSize, snapLength > 0 ? max(snapLength, 65_535) : limits.maxFrameSize)
    }

    /// A record's timestamp in microseconds.
    private func time(_ seconds: UInt32, _ fraction: UInt32) -> Int64 {
        Int64(seconds) * 1_000_000 + (nanoseconds ? Int64(fraction) / 1000 : Int64(fraction))
    }

    /// `next()`'s packets lent in place: the records that lie whole in the input's buffer and
    /// need no finding are read there, each other one through `next()`.
    package func read(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void, keeping: (Int) -> Bool) {
        var ordinal = 0
        while step(packet, other, keeping, &ordinal) {}
    }

    package func readSome(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void) -> Bool {
        var ordinal = 0
        return step(packet, other, { _ in true }, &ordinal)
    }

    /// Gives what is pending, the records in the buffer, then one item of `next()`; false once
    /// the file is over.
    private func step(
        _ packet: (PacketView) -> Void, _ other: (PacketItem) -> Void, _ keeping: (Int) -> Bool, _ ordinal: inout Int
    ) -> Bool {
        func give(_ item: PacketItem) {
            guard case .packet(let captured) = item else { return other(item) }
            if keeping(ordinal) { captured.withView(packet) }
            ordinal += 1
        }
        while !pending.isEmpty { give(pending.removeFirst()) }
        let (order, largest, linkType) = (order, largestRecord, linkType)
        input.withBuffered(atLeast: 1 << 16) { bytes, fileOffset in
            var at = 0
            while !finished, bytes.count - at >= 16 {
                var header = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + 16)]))
                let seconds = header.readUInt32(order) ?? 0
                let fraction = header.readUInt32(order) ?? 0
                let included = Int(header.readUInt32(order) ?? 0)
                let original = Int(header.readUInt32(order) ?? 0)
                guard included <= largest, included <= bytes.count - at - 16, original <= included else { break }
                number += 1
                if keeping(ordinal) {
                    let data = UnsafeRawBufferPointer(rebasing: bytes[(at + 16)..<(at + 16 + included)])
                    packet(
                        PacketView(
                            time: time(seconds, fraction), linkType: linkType, data: FrameBytes(data),
                            originalLength: original, number: number, fileOffset: fileOffset + at,
                            dataOffset: fileOffset + at + 16, inbound: nil, comments: []))
                }
                ordinal += 1
                at += 16 + included
            }
            return at
        }
        guard let item = next() else { return false }
        give(item)
        return true
    }
}

extension IMWireError.Code {
    /// A capture file that is not in the format its reader expected, or in no capture format
    /// (nothing could be read): `path` names it when known.
    public static let captureFormat = Self("capture.format")
}
