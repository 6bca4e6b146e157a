import IMWireCore

/// The body of an engine.io 3 HTTP long-poll (a GET's response, a POST's request): packets one
/// after the other, each preceded by its length. Two forms (engine.io-parser 2.x):
/// - text, `<length>:<packet>` with the length in characters, i.e. UTF-16 code units (JavaScript's
///   `String.length`); binary packets travel base64 as `b<type><base64>` (what `b64=1` asks for);
/// - binary (XHR2), `<0 string | 1 binary><length as one byte per decimal digit>\u{ff}<packet>`,
///   the length in bytes.
public enum EngineIOPayload {
    /// One packet of a payload, as it would travel alone in a WebSocket message.
    public struct Packet: Sendable, Hashable {
        public var bytes: [UInt8]
        /// A binary packet (the binary form's `1`): its first byte is the packet type as a number.
        public var binaryFrame: Bool
        /// Where the packet starts in the body.
        public var offset: Int

        public init(bytes: [UInt8], binaryFrame: Bool, offset: Int) {
            self.bytes = bytes
            self.binaryFrame = binaryFrame
            self.offset = offset
        }
    }

    /// The packets of `body`; the packets before a malformed part, and a finding at its offset.
    public static func decode(_ body: [UInt8]) -> (packets: [Packet], findings: [Finding]) {
        guard let first = body.first else { return ([], []) }
        return first <= 1 ? decodeBinary(body) : decodeText(body)
    }

    /// The text form of `packets` (each as `EngineIOPacket.encoded` gives it, binary ones as base64).
    public static func encodeText(_ packets: [[UInt8]]) -> [UInt8] {
        var body: [UInt8] = []
        for packet in packets {
            body += Array("\(String(decoding: packet, as: UTF8.self).utf16.count):".utf8) + packet
        }
        return body
    }

    /// The binary form of `packets` (`binaryFrame`: the packet is binary, type byte first).
    public static func encodeBinary(_ packets: [(bytes: [UInt8], binaryFrame: Bool)]) -> [UInt8] {
        var body: [UInt8] = []
        for packet in packets {
            body.append(packet.binaryFrame ? 1 : 0)
            body += String(packet.bytes.count).utf8.map { $0 - UInt8(ascii: "0") }
            body.append(0xff)
            body += packet.bytes
        }
        return body
    }

    /// More length digits than any real packet needs (engine.io-parser gives up past 310).
    static let maxLengthDigits = 10

    private static func decodeText(_ body: [UInt8]) -> (packets: [Packet], findings: [Finding]) {
        var packets: [Packet] = []
        var findings: [Finding] = []
        var index = 0
        var countedBytes = false
        while index < body.count {
            let digitsStart = index
            while index < body.count, PacketText.isDigit(body[index]), index - digitsStart <= maxLengthDigits {
                index += 1
            }
            guard index > digitsStart, index - digitsStart <= maxLengthDigits, index < body.count,
                body[index] == UInt8(ascii: ":"),
                let length = Int(PacketText.string(body[digitsStart..<index]))
            else {
                findings.append(SocketIORules.eioPayloadInvalid.finding("expected <length>:<packet>", at: digitsStart))
                break
            }
            let start = index + 1
            guard let end = packetEnd(body, from: start, characters: length) else {
                findings.append(
                    SocketIORules.eioPayloadInvalid.finding(
                        "a packet of \(length) characters does not fit the \(body.count - start) bytes that follow",
                        at: digitsStart))
                break
            }
            // The characters' end should be where the next length (or the body) starts; a length
            // that counts bytes (python-engineio) lands there when characters do not.
            var stop = end
            if !startsNextPacket(body, at: end), start + length <= body.count,
                startsNextPacket(body, at: start + length)
            {
                stop = start + length
                countedBytes = true
            }
            packets.append(Packet(bytes: Array(body[start..<stop]), binaryFrame: false, offset: start))
            index = stop
        }
        if countedBytes {
            findings.append(
                SocketIORules.eioPayloadLengthInBytes.finding("a packet length counts bytes, not characters", at: 0))
        }
        return (packets, findings)
    }

    /// Where `characters` UTF-16 code units starting at `start` end, in bytes; nil when the body
    /// ends first. Invalid UTF-8 counts a byte as one unit (the packet's decoder reports it).
    static func packetEnd(_ body: [UInt8], from start: Int, characters: Int) -> Int? {
        var index = start
        var units = 0
        while units < characters {
            guard index < body.count else { return nil }
            let byte = body[index]
            let width = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
            units += width == 4 ? 2 : 1
            index += width
        }
        return index <= body.count ? index : nil
    }

    private static func startsNextPacket(_ body: [UInt8], at index: Int) -> Bool {
        guard index < body.count else { return index == body.count }
        var cursor = index
        while cursor < body.count, PacketText.isDigit(body[cursor]) { cursor += 1 }
        return cursor > index && cursor < body.count && body[cursor] == UInt8(ascii: ":")
    }

    private static func decodeBinary(_ body: [UInt8]) -> (packets: [Packet], findings: [Finding]) {
        var packets: [Packet] = []
        var index = 0
        while index < body.count {
            let kind = body[index]
            guard kind <= 1 else {
                return (
                    packets,
                    [
                        SocketIORules.eioPayloadInvalid.finding(
                            "packet kind \(kind), not 0 (string) or 1 (binary)", at: index)
                    ]
                )
            }
            var cursor = index + 1
            var length = 0
            while cursor < body.count, body[cursor] != 0xff {
                guard body[cursor] <= 9, cursor - index <= maxLengthDigits else {
                    let finding = SocketIORules.eioPayloadInvalid.finding(
                        "length digit \(body[cursor]) is not 0–9", at: cursor)
                    return (packets, [finding])
                }
                length = length * 10 + Int(body[cursor])
                cursor += 1
            }
            guard cursor < body.count, cursor > index + 1 else {
                return (packets, [SocketIORules.eioPayloadInvalid.finding("a length without its 0xff end", at: index)])
            }
            let start = cursor + 1
            guard length <= body.count - start else {
                return (
                    packets,
                    [
                        SocketIORules.eioPayloadInvalid.finding(
                            "a packet of \(length) bytes does not fit the \(body.count - start) that follow", at: index)
                    ]
                )
            }
            packets.append(Packet(bytes: Array(body[start..<(start + length)]), binaryFrame: kind == 1, offset: start))
            index = start + length
        }
        return (packets, [])
    }
}
