import IMWireCore

/// Frames and decodes MQTT packets from a byte stream delivered in any chunking (TCP segments,
/// WebSocket binary messages, one byte at a time): the same bytes give the same packets and the
/// same findings whatever the chunk boundaries. Memory is bounded: at most one incomplete packet
/// of at most `Limits.maxFrameSize` is buffered; larger bodies are skipped as they arrive.
public struct MQTTStreamDecoder: Sendable {
    public var options: MQTTDecodeOptions
    /// The version packets are read under: the option, else the last CONNECT's, else 3.1.1.
    public var version: MQTTVersion { options.version ?? learnedVersion ?? .v3_1_1 }
    /// Stream bytes fed so far.
    public private(set) var position = 0
    /// True after a remaining length over 4 bytes: the stream cannot be framed any further.
    public private(set) var failed = false

    private var learnedVersion: MQTTVersion?
    /// Bytes of the packet in progress (only when a packet spans chunks).
    private var pending: [UInt8] = []
    /// Body bytes still to skip of a packet over the size limit.
    private var skipRemaining = 0
    /// Type nibble and stream offset of the packet being skipped, for `finish`.
    private var skipping: (typeNibble: UInt8, start: Int, length: Int)?

    public init(options: MQTTDecodeOptions = MQTTDecodeOptions()) {
        self.options = options
    }

    public mutating func feed(_ bytes: [UInt8]) -> [MQTTDecodedPacket] {
        bytes.withUnsafeBytes { feed($0) }
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [MQTTDecodedPacket] {
        var out: [MQTTDecodedPacket] = []
        var index = 0
        while index < chunk.count, !failed {
            if skipRemaining > 0 {
                let count = min(skipRemaining, chunk.count - index)
                skipRemaining -= count
                index += count
                position += count
                if skipRemaining == 0 { skipping = nil }
                continue
            }
            if pending.isEmpty {
                // Fast path: frame straight from the chunk, copying nothing.
                let rest = UnsafeRawBufferPointer(rebasing: chunk[index...])
                let used = frame(rest, streamOffset: position, into: &out)
                if used == 0 {
                    pending.append(contentsOf: rest)
                    position += rest.count
                    index = chunk.count
                } else {
                    index += used
                    position += used
                }
                continue
            }
            // Slow path: top up the pending packet with just the bytes it still needs.
            let start = position - pending.count
            let needed: Int
            switch pending.withUnsafeBytes({ FixedHeaderRead.read($0) }) {
            case .header(let header) where header.remainingLength <= options.limits.maxFrameSize:
                needed = header.totalLength - pending.count
            default:
                needed = 1
            }
            let count = min(needed, chunk.count - index)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index..<(index + count)]))
            index += count
            position += count
            let used = pending.withUnsafeBytes { frame($0, streamOffset: start, into: &out) }
            if used > 0 {
                // Whatever framing used beyond the pending bytes was a skip that is now under way.
                pending.removeAll(keepingCapacity: pending.count <= 4096)
            }
        }
        if failed, index < chunk.count { position += chunk.count - index }
        return out
    }

    /// Frames one packet at the start of `bytes`: decodes it (or reports it) and returns the bytes
    /// used, or 0 when more bytes are needed. A packet over the limit starts a skip.
    private mutating func frame(_ bytes: UnsafeRawBufferPointer, streamOffset: Int, into out: inout [MQTTDecodedPacket])
        -> Int
    {
        switch FixedHeaderRead.read(bytes) {
        case .needMore:
            return 0
        case .overlong(let offset):
            failed = true
            let finding = MQTTRules.remainingLengthOverlong.finding(
                "the 4th remaining-length byte has its continuation bit set", at: offset)
            // Only the header is known; the rest of the stream is dropped.
            out.append(
                MQTTDecodedPacket(
                    packet: nil, findings: [finding], streamOffset: streamOffset,
                    length: offset + 1, typeNibble: bytes[0] >> 4, version: version))
            return bytes.count
        case .header(let header):
            if header.remainingLength > options.limits.maxFrameSize {
                let finding = MQTTRules.packetTooLarge.finding(
                    """
                    remaining length \(header.remainingLength) exceeds \
                    the limit of \(options.limits.maxFrameSize) bytes
                    """, at: 1)
                out.append(
                    MQTTDecodedPacket(
                        packet: nil, findings: [finding], streamOffset: streamOffset,
                        length: header.totalLength, typeNibble: header.typeNibble, version: version))
                let available = min(bytes.count, header.totalLength)
                skipRemaining = header.totalLength - available
                skipping = skipRemaining > 0 ? (header.typeNibble, streamOffset, header.totalLength) : nil
                return available
            }
            guard bytes.count >= header.totalLength else { return 0 }
            let body = UnsafeRawBufferPointer(rebasing: bytes[header.headerLength..<header.totalLength])
            let readVersion = version
            let (packet, findings) = PacketBodyDecoder.decode(
                header: header, body: body, version: readVersion, options: options)
            if case .connect(let connect)? = packet, let connectVersion = connect.version {
                learnedVersion = connectVersion
            }
            out.append(
                MQTTDecodedPacket(
                    packet: packet, findings: findings, streamOffset: streamOffset,
                    length: header.totalLength, typeNibble: header.typeNibble, version: readVersion))
            return header.totalLength
        }
    }

    /// Ends the stream: a packet still incomplete is reported as truncated (offset: where the
    /// bytes ran out, from the packet's first byte).
    public mutating func finish() -> [MQTTDecodedPacket] {
        defer {
            pending.removeAll()
            skipRemaining = 0
            skipping = nil
        }
        if let skipping {
            let finding = MQTTRules.truncated.finding(
                "the stream ends \(skipRemaining) byte(s) before the end of the oversized packet",
                at: skipping.length - skipRemaining)
            return [
                MQTTDecodedPacket(
                    packet: nil, findings: [finding], streamOffset: skipping.start,
                    length: skipping.length, typeNibble: skipping.typeNibble, version: version)
            ]
        }
        guard !pending.isEmpty, !failed else { return [] }
        let announced: Int?
        if case .header(let header) = pending.withUnsafeBytes({ FixedHeaderRead.read($0) }) {
            announced = header.totalLength
        } else {
            announced = nil
        }
        let what =
            announced.map { "\(pending.count) of \($0) bytes of the packet" }
            ?? "\(pending.count) byte(s) of a fixed header"
        let finding = MQTTRules.truncated.finding("the stream ends after \(what)", at: pending.count)
        return [
            MQTTDecodedPacket(
                packet: nil, findings: [finding], streamOffset: position - pending.count,
                length: announced ?? pending.count, typeNibble: pending[0] >> 4, version: version)
        ]
    }

    /// Decodes a complete byte string: every packet, then `finish`.
    public static func decodeAll(_ bytes: [UInt8], options: MQTTDecodeOptions = MQTTDecodeOptions())
        -> [MQTTDecodedPacket]
    {
        var decoder = MQTTStreamDecoder(options: options)
        return decoder.feed(bytes) + decoder.finish()
    }
}
