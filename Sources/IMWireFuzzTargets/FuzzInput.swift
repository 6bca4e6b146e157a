import IMWireCore

/// A fuzz input split into options and payload, the way swift-protobuf's fuzzers do it: when the
/// first byte is 0x00 (never the start of a useful input), the next byte holds option bits and
/// the rest is the payload; otherwise everything is payload and the options are the defaults.
/// One target thereby explores every mode, and a saved crasher replays with its options.
public struct FuzzInput: Sendable {
    public var payload: [UInt8]
    /// Bit 0: lenient checking. Bit 1: tight limits. Bits 2-3: a variant the target chooses
    /// (e.g. the encoding of a text frame).
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
}
