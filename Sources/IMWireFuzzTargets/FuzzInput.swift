import IMWireCore

/// A fuzz input split into options and payload, the way swift-protobuf's fuzzers do it: when the
/// first byte is 0x00 (never the start of a useful input), the next byte holds option bits and
/// the rest is the payload; otherwise everything is payload and the options are the defaults.
/// One target thereby explores every mode, and a saved crasher replays with its options.
public struct FuzzInput: Sendable {
    public var payload: [UInt8]
    /// Bit 0: lenient checking. Bit 1: tight limits. Bits 2-3: a variant the target chooses
    /// (e.g. the encoding of a text frame). Bits 4-7: further settings of the target.
    public var flags: UInt8

    public init(_ data: [UInt8]) {
        if data.count >= 2, data[0] == 0 {
            flags = data[1]
            payload = Array(data[2...])
        } else {
            flags = 0
            payload = data
        }
    }

    public var lenient: Bool { flags & 1 != 0 }
    public var variant: Int { Int(flags >> 2 & 3) }
    /// Bits 4-7, for targets with more settings than the variant holds.
    public var extra: Int { Int(flags >> 4) }

    /// Default limits, or small ones that make the limit paths reachable with short inputs.
    public var limits: Limits {
        guard flags & 2 != 0 else { return .default }
        var tight = Limits.default
        tight.maxFrameSize = 256
        tight.maxMessageSize = 512
        tight.maxNestingDepth = 3
        tight.maxJSONDepth = 4
        tight.maxLineLength = 256
        tight.maxFragments = 4
        tight.maxDecompressedSize = 1024
        tight.maxPendingRequests = 4
        tight.maxFindingsPerConnection = 8
        return tight
    }

    /// The payload cut into pieces of 1 to 17 bytes, the sizes drawn from a generator seeded by
    /// the payload itself: a second chunking of the same bytes for the streaming decoders, the
    /// same one every time the input is replayed.
    public var chunks: [ArraySlice<UInt8>] { Self.chunks(payload) }

    public static func chunks(_ payload: [UInt8]) -> [ArraySlice<UInt8>] {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in payload { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < payload.count {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = Int(seed >> 59) % 17 + 1
            let end = min(payload.count, start + size)
            pieces.append(payload[start..<end])
            start = end
        }
        return pieces
    }
}
