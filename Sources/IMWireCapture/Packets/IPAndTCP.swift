/// An IPv4 or IPv6 address with its textual form. Held in two words (big-endian; IPv4 in the
/// low 32 bits), not an array: two addresses are read, hashed and compared per packet.
package struct IPAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    private let isIPv6: Bool
    private let high: UInt64
    private let low: UInt64

    /// `bytes`: 4 (IPv4) or 16 (IPv6) bytes in network order; nil for any other count.
    package init?<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.init(header: bytes)
    }

    /// From an IP header's address field: 16 bytes are IPv6, anything else IPv4 (the header
    /// parsers always pass 4 or 16).
    init<Bytes: Collection<UInt8>>(header bytes: Bytes) {
        var words: (UInt64, UInt64) = (0, 0)
        for (index, byte) in bytes.enumerated() {
            if index < bytes.count - 8 {
                words.0 = words.0 << 8 | UInt64(byte)
            } else {
                words.1 = words.1 << 8 | UInt64(byte)
            }
        }
        isIPv6 = bytes.count == 16
        high = words.0
        low = words.1
    }

    /// The 4 (IPv4) or 16 (IPv6) bytes of an IP header's address field at `start` of `frame`.
    init<Frame: RandomAccessCollection<UInt8>>(_ frame: Frame, at start: Int, count: Int) where Frame.Index == Int {
        assert(count == 4 || count == 16, "an IP address of \(count) bytes")
        // Two addresses per packet: one bounds check and one or two loads where the bytes lie
        // in memory (a capture's frames do), not a check and a shift per byte.
        let loaded = frame.withContiguousStorageIfAvailable { buffer in
            let bytes = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<(start + count)]))
            return count == 16
                ? (
                    bytes.loadUnaligned(as: UInt64.self).bigEndian,
                    bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian
                )
                : (0, UInt64(bytes.loadUnaligned(as: UInt32.self).bigEndian))
        }
        if let loaded {
            isIPv6 = count == 16
            (high, low) = loaded
            return
        }
        var words: (UInt64, UInt64) = (0, 0)
        for index in 0..<count {
            let byte = UInt64(frame[start + index])
            if index < count - 8 {
                words.0 = words.0 << 8 | byte
            } else {
                words.1 = words.1 << 8 | byte
            }
        }
        isIPv6 = count == 16
        high = words.0
        low = words.1
    }

    /// The address folded into one word with the odd multipliers `a` and `b` (a multiply-shift
    /// hash, `AddressIndex`).
    func folded(_ a: UInt64, _ b: UInt64) -> UInt64 { (high &* a) ^ (low &* b) ^ (isIPv6 ? b : 0) }

    /// An IPv4 address from its number.
    init(ipv4: UInt32) {
        isIPv6 = false
        high = 0
        low = UInt64(ipv4)
    }

    /// The 16 bytes of the address, IPv4 zero-padded on the left, as two big-endian words.
    var paddedWords: (high: UInt64, low: UInt64) { (high, low) }

    /// The address of an IPv4 packet as one number; nil for IPv6.
    var ipv4: UInt32? { isIPv6 ? nil : UInt32(truncatingIfNeeded: low) }

    /// The 4 or 16 bytes in network order.
    package var bytes: [UInt8] {
        func append(_ word: UInt64, _ count: Int, to bytes: inout [UInt8]) {
            for shift in stride(from: 8 * (count - 1), through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(isIPv6 ? 16 : 4)
        if isIPv6 { append(high, 8, to: &bytes) }
        append(low, isIPv6 ? 8 : 4, to: &bytes)
        return bytes
    }

    /// IPv4 before IPv6, then by the bytes.
    package static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        (lhs.isIPv6 ? 1 : 0, lhs.high, lhs.low) < (rhs.isIPv6 ? 1 : 0, rhs.high, rhs.low)
    }

    /// Dotted quad, or RFC 5952 IPv6 (longest zero run compressed, lowercase). Built from the
    /// words, not from `bytes`: every connection's id is made of two of these.
    package var description: String {
        guard isIPv6 else {
            let quad = UInt32(truncatingIfNeeded: low)
            return "\(quad >> 24).\(quad >> 16 & 0xff).\(quad >> 8 & 0xff).\(quad & 0xff)"
        }
        let groups = (0..<8).map { UInt16(truncatingIfNeeded: ($0 < 4 ? high : low) >> UInt64(48 - 16 * ($0 % 4))) }
        var best = (start: -1, length: 0)
        var run = (start: -1, length: 0)
        for (index, group) in groups.enumerated() {
            if group == 0 {
                run = run.start < 0 ? (index, 1) : (run.start, run.length + 1)
                if run.length > best.length { best = run }
            } else {
                run = (-1, 0)
            }
        }
        let text = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return text.joined(separator: ":") }
        let head = text[..<best.start].joined(separator: ":")
        let tail = text[(best.start + best.length)...].joined(separator: ":")
        return "\(head)::\(tail)"
    }
}

/// An IP packet's addresses and where its TCP segment is.
struct IPPacket {
    var source: IPAddress
    var destination: IPAddress
    var protocolNumber: UInt8
    /// Range of the transport payload in the frame.
    var payload: Range<Int>
    /// Transport bytes the IP header announces but the capture does not hold (snaplen).
    var missing: Int
    var isFragment: Bool
}

enum IPParser {
    enum Outcome {
        case packet(IPPacket)
        case malformed(String)
    }

    /// The IP packet at `start` of `frame`: a capture's `[UInt8]`, or `FrameBytes` read in place.
    static func parse<Frame: RandomAccessCollection<UInt8>>(_ frame: Frame, at start: Int) -> Outcome
    where Frame.Index == Int {
        guard frame.count > start else { return .malformed("no IP header") }
        switch frame[start] >> 4 {
        case 4: return ipv4(frame, start)
        case 6: return ipv6(frame, start)
        default: return .malformed("IP version \(frame[start] >> 4)")
        }
    }

    private static func ipv4<Frame: RandomAccessCollection<UInt8>>(_ frame: Frame, _ start: Int) -> Outcome
    where Frame.Index == Int {
        guard frame.count - start >= 20 else {
            return .malformed("IPv4 header needs 20 bytes, \(frame.count - start) present")
        }
        let headerLength = Int(frame[start] & 0x0f) * 4
        let totalLength = Int(frame[start + 2]) << 8 | Int(frame[start + 3])
        guard headerLength >= 20, totalLength >= headerLength, frame.count - start >= headerLength else {
            return .malformed("IPv4 header length \(headerLength), total length \(totalLength)")
        }
        let flagsAndOffset = Int(frame[start + 6]) << 8 | Int(frame[start + 7])
        let available = min(totalLength, frame.count - start)
        return .packet(
            IPPacket(
                source: IPAddress(frame, at: start + 12, count: 4),
                destination: IPAddress(frame, at: start + 16, count: 4),
                protocolNumber: frame[start + 9], payload: (start + headerLength)..<(start + available),
                missing: totalLength - available, isFragment: flagsAndOffset & 0x3fff != 0))
    }

    private static func ipv6<Frame: RandomAccessCollection<UInt8>>(_ frame: Frame, _ start: Int) -> Outcome
    where Frame.Index == Int {
        guard frame.count - start >= 40 else {
            return .malformed("IPv6 header needs 40 bytes, \(frame.count - start) present")
        }
        let payloadLength = Int(frame[start + 4]) << 8 | Int(frame[start + 5])
        var next = frame[start + 6]
        var offset = start + 40
        let end = start + 40 + payloadLength
        var fragment = false
        // Extension headers: hop-by-hop, routing, destination options, fragment, AH.
        while [0, 43, 44, 51, 60].contains(next) {
            guard frame.count >= offset + 8, offset + 8 <= end else {
                return .malformed("IPv6 extension header cut short")
            }
            let length: Int
            switch next {
            case 44:
                length = 8
                fragment = fragment || (Int(frame[offset + 2]) << 8 | Int(frame[offset + 3])) & 0xfff9 != 0
            case 51: length = (Int(frame[offset + 1]) + 2) * 4
            default: length = (Int(frame[offset + 1]) + 1) * 8
            }
            next = frame[offset]
            offset += length
        }
        guard offset <= end else { return .malformed("IPv6 extension headers run past the payload length") }
        let available = min(end, frame.count)
        guard offset <= available else { return .malformed("IPv6 headers run past the captured bytes") }
        return .packet(
            IPPacket(
                source: IPAddress(frame, at: start + 8, count: 16),
                destination: IPAddress(frame, at: start + 24, count: 16),
                protocolNumber: next, payload: offset..<available, missing: end - available, isFragment: fragment))
    }
}

/// A TCP segment's header fields and payload range.
struct TCPSegment {
    var sourcePort: UInt16
    var destinationPort: UInt16
    var sequence: UInt32
    var flags: UInt8
    var payload: Range<Int>

    var syn: Bool { flags & 0x02 != 0 }
    var fin: Bool { flags & 0x01 != 0 }
    var rst: Bool { flags & 0x04 != 0 }
    var ack: Bool { flags & 0x10 != 0 }

    /// Parses the TCP header at the start of `range`; nil when it is malformed.
    static func parse<Frame: RandomAccessCollection<UInt8>>(_ frame: Frame, in range: Range<Int>) -> TCPSegment?
    where Frame.Index == Int {
        let start = range.lowerBound
        guard range.count >= 20 else { return nil }
        let dataOffset = Int(frame[start + 12] >> 4) * 4
        guard dataOffset >= 20, dataOffset <= range.count else { return nil }
        func word(_ at: Int) -> UInt32 {
            UInt32(frame[at]) << 24 | UInt32(frame[at + 1]) << 16 | UInt32(frame[at + 2]) << 8 | UInt32(frame[at + 3])
        }
        return TCPSegment(
            sourcePort: UInt16(frame[start]) << 8 | UInt16(frame[start + 1]),
            destinationPort: UInt16(frame[start + 2]) << 8 | UInt16(frame[start + 3]),
            sequence: word(start + 4), flags: frame[start + 13], payload: (start + dataOffset)..<range.upperBound)
    }
}
