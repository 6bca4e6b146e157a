import IMWireCore

/// The fixed header: packet type, flags and remaining length (MQTT 3.1.1 §2.2).
package struct MQTTFixedHeader: Sendable, Hashable {
    /// The 4-bit type as sent (0 and 15 are reserved and have no `MQTTPacketType`).
    package let typeNibble: UInt8
    package let flags: UInt8
    package let remainingLength: Int
    /// 2 to 5: the type/flags byte plus 1 to 4 length bytes.
    package let headerLength: Int
    /// The remaining length used more bytes than its value needs.
    package let nonMinimalLength: Bool

    package var type: MQTTPacketType? { MQTTPacketType(rawValue: typeNibble) }
    package var totalLength: Int { headerLength + remainingLength }
}

extension MQTTFixedHeader {
    /// How far the packet at the start of a stream reaches, for cutting a stream into packets.
    package enum Extent: Sendable, Hashable {
        /// The fixed header is not complete yet.
        case needMore
        /// The whole packet is this many bytes (header included).
        case packet(length: Int)
        /// The remaining length runs past four bytes: no packet boundary can be found.
        case malformed
    }

    /// The extent of the packet at the start of `bytes`.
    package static func extent(_ bytes: UnsafeRawBufferPointer) -> Extent {
        switch FixedHeaderRead.read(bytes) {
        case .needMore: .needMore
        case .overlong: .malformed
        case .header(let header): .packet(length: header.totalLength)
        }
    }
}

/// What the first bytes of a packet say so far.
enum FixedHeaderRead {
    /// The header is not complete yet.
    case needMore
    /// The fourth length byte still has its continuation bit: offset of that byte.
    case overlong(offset: Int)
    case header(MQTTFixedHeader)

    /// Reads a fixed header at the start of `bytes`. The remaining length is at most 4 bytes, so
    /// the value stays below 2^28 and never overflows.
    static func read(_ bytes: UnsafeRawBufferPointer) -> FixedHeaderRead {
        guard let first = bytes.first else { return .needMore }
        var value = 0
        var multiplier = 1
        var index = 1
        while true {
            guard index < bytes.count else { return .needMore }
            let byte = bytes[index]
            value += Int(byte & 0x7f) * multiplier
            if byte & 0x80 == 0 { break }
            guard index < 4 else { return .overlong(offset: index) }
            multiplier *= 128
            index += 1
        }
        let lengthBytes = index
        let nonMinimal = lengthBytes > 1 && bytes[lengthBytes] == 0
        return .header(
            MQTTFixedHeader(
                typeNibble: first >> 4, flags: first & 0x0f, remainingLength: value,
                headerLength: lengthBytes + 1, nonMinimalLength: nonMinimal))
    }
}

/// The variable-byte-integer encoding of a remaining length (1–4 bytes, minimal).
enum RemainingLength {
    static let maximum = 268_435_455

    static func encode(_ length: Int, into out: inout [UInt8]) {
        var value = max(0, min(length, maximum))
        repeat {
            var byte = UInt8(value % 128)
            value /= 128
            if value > 0 { byte |= 0x80 }
            out.append(byte)
        } while value > 0
    }
}
