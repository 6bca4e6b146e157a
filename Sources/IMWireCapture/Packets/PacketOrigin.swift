import IMWireCore

/// Where a packet of a shard (`CaptureSharder`) lay in the capture it was cut from: its packet
/// number there, the offset of its record and of its first byte. A shard's Enhanced Packet
/// Blocks carry it as a pcapng custom option (code 2989, Private Enterprise Number 0, then the
/// three values as little-endian 64-bit words); a reader that finds the shard's section header
/// (`ShardIdentity`) numbers and places the packet by it, so findings name the original
/// capture's packets and byte offsets. Outside a shard's section the option is ignored.
public struct PacketOrigin: Sendable, Hashable {
    /// pcapng custom option, binary, safe to copy (draft-ietf-opsawg-pcapng §3.5.1).
    static let optionCode: UInt16 = 2989
    /// The option value's length: the PEN and three 64-bit words.
    static let optionLength = 28
    public var number: Int
    public var fileOffset: Int
    public var dataOffset: Int

    public init(number: Int, fileOffset: Int, dataOffset: Int) {
        self.number = number
        self.fileOffset = fileOffset
        self.dataOffset = dataOffset
    }

    /// The option's value as `order` wrote it; nil when it is not one of these.
    static func parse(_ value: UnsafeRawBufferPointer, order: Endianness) -> PacketOrigin? {
        guard value.count == optionLength else { return nil }
        var reader = ByteReader(value)
        guard reader.readUInt32(order) == 0, let number = reader.readUInt64(order), let file = reader.readUInt64(order),
            let data = reader.readUInt64(order), let n = Int(exactly: number), let f = Int(exactly: file),
            let d = Int(exactly: data)
        else { return nil }
        return PacketOrigin(number: n, fileOffset: f, dataOffset: d)
    }
}

/// What a shard's section header says it is: shard `index` of `count` cut from the capture
/// `capture` (the path as `imwire shard` was given it) of `captureBytes` bytes. Written as the
/// section header's `opt_comment`, `imwire shard 1 ` followed by one line of JSON, so that
/// `imwire check` of the shard can say in its report which capture it belongs to and
/// `imwire merge` can refuse reports of different captures.
public struct ShardIdentity: Sendable, Hashable {
    /// The format of the comment; a reader refuses another.
    package static let version = 1
    static let prefix = "imwire shard \(version) "
    package var capture: String
    package var captureBytes: Int
    package var index: Int
    package var count: Int

    package init(capture: String, captureBytes: Int, index: Int, count: Int) {
        self.capture = capture
        self.captureBytes = captureBytes
        self.index = index
        self.count = count
    }

    package var json: JSONValue {
        [
            "capture": .string(capture), "captureBytes": .number(JSONNumber(captureBytes)),
            "index": .number(JSONNumber(index)), "count": .number(JSONNumber(count)),
        ]
    }

    package init?(json: JSONValue) {
        guard let capture = json["capture"]?.stringValue, let bytes = json["captureBytes"]?.int64Value,
            let index = json["index"]?.int64Value, let count = json["count"]?.int64Value,
            let b = Int(exactly: bytes), let i = Int(exactly: index), let c = Int(exactly: count), i >= 0, i < c
        else { return nil }
        self.init(capture: capture, captureBytes: b, index: i, count: c)
    }

    /// The section header comment.
    package var comment: String { Self.prefix + JSONWriter.string(json) }

    /// The identity a section header comment states; nil for any other comment.
    package init?(comment: String) {
        guard comment.hasPrefix(Self.prefix),
            let value = try? JSONParser.parse(String(comment.dropFirst(Self.prefix.count)))
        else {
            return nil
        }
        self.init(json: value)
    }
}

extension ShardIdentity {
    /// The identity the pcapng file at `path` states in its section header, or the JSONL
    /// transcript in its first line; nil for any other file (or one that cannot be read).
    package static func of(path: String, limits: Limits = .default) -> ShardIdentity? {
        // Standard input cannot be read twice.
        guard path != "-" else { return nil }
        if let packets = (try? PacketCaptureReader.packets(path: path, limits: limits)) as? PcapngReader {
            _ = packets.next()
            return packets.shard
        }
        guard (try? CaptureFile.format(of: path)) == .jsonl,
            let transcript = try? TranscriptReader(path: path, limits: limits)
        else { return nil }
        _ = transcript.next()
        return transcript.shard
    }
}
