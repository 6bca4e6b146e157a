/// Every resource cap in one value. Decoders check a length against these before they allocate
/// or convert anything, so hostile input costs at most what the limits allow.
public struct Limits: Sendable, Hashable {
    /// Largest single frame or command payload accepted (bytes).
    public var maxFrameSize: Int
    /// Largest reassembled message (bytes), after defragmentation.
    public var maxMessageSize: Int
    /// Most fragments one message may have.
    public var maxFragments: Int
    /// Largest output of one decompression (bytes).
    public var maxDecompressedSize: Int
    /// Largest ratio of decompressed to compressed size before the input counts as a bomb.
    public var maxExpansionRatio: Int
    /// Deepest nesting of protobuf sub-messages.
    public var maxNestingDepth: Int
    /// Deepest nesting of JSON arrays and objects.
    public var maxJSONDepth: Int
    /// Longest line of a text transcript (bytes).
    public var maxLineLength: Int
    /// Most requests (and pushes awaiting an ack) one connection's session tracker follows at
    /// once: beyond it new ones go untracked (no timeout or answer is judged for them), so a peer
    /// that never answers cannot grow memory without bound.
    public var maxPendingRequests: Int
    /// Most findings kept per connection; the rest are counted, not stored.
    public var maxFindingsPerConnection: Int
    /// Longest a TCP connection of a capture may go without a packet while the capture goes on
    /// (seconds of capture time; 0: for ever): then it ends as if the capture had. Without it a
    /// capture of connections that never close holds every one of them to its end.
    public var tcpIdleSeconds: Int

    public init(
        maxFrameSize: Int = 16 << 20,
        maxMessageSize: Int = 64 << 20,
        maxFragments: Int = 4096,
        maxDecompressedSize: Int = 64 << 20,
        maxExpansionRatio: Int = 1024,
        maxNestingDepth: Int = 64,
        maxJSONDepth: Int = 64,
        maxLineLength: Int = 32 << 20,
        maxPendingRequests: Int = 10_000,
        maxFindingsPerConnection: Int = 10_000,
        tcpIdleSeconds: Int = 3_600
    ) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.maxFragments = maxFragments
        self.maxDecompressedSize = maxDecompressedSize
        self.maxExpansionRatio = maxExpansionRatio
        self.maxNestingDepth = maxNestingDepth
        self.maxJSONDepth = maxJSONDepth
        self.maxLineLength = maxLineLength
        self.maxPendingRequests = maxPendingRequests
        self.maxFindingsPerConnection = maxFindingsPerConnection
        self.tcpIdleSeconds = tcpIdleSeconds
    }

    /// Safe defaults for a checker on a developer machine.
    public static let `default` = Limits()
}
