/// What a source of traffic says about one connection, in order: it opened (with what it
/// negotiated), bytes or a message crossed it, it closed. The transport layer reads connections
/// only as these, so a capture file's reader (pcap, pcapng, HAR, JSONL), the proxy and the
/// server feed it the same way: none of them needs packets to get through it.
public struct ConnectionInput: Sendable, Hashable {
    /// What happened on the connection.
    public enum Kind: Sendable, Hashable {
        /// Boxed, as `close` is: they come once per connection, and unboxed they made every
        /// input as large as their five strings.
        indirect case open(ConnectionInfo)
        /// One whole WebSocket message (JSONL, HAR).
        case message(WireMessage)
        /// The next bytes of one direction's transport stream (a TCP connection from pcap or
        /// pcapng, a transcript's `stream` line), in order; framing is for the reader of the
        /// stream to find.
        case stream(Direction, [UInt8])
        /// Bytes of one direction missing from the capture. The stream goes on after them, but
        /// the checker only counts the rest of that direction: a frame boundary cannot be found again.
        case gap(Direction, Int)
        /// One direction's stream is over (its TCP FIN, after the bytes before it): its sender
        /// sends nothing more, while the other direction may go on.
        case streamEnd(Direction)
        indirect case close(CloseInfo)
    }

    public var connection: String
    /// Microseconds, relative or since the epoch, as the capture gives them.
    public var time: Int64?
    /// Line of a JSONL transcript or a HAR file the input comes from.
    public var line: Int?
    /// Packet number in a pcap/pcapng file (or a live run's recording) the input comes from.
    public var packet: Int?
    public var kind: Kind

    public init(connection: String, time: Int64?, line: Int? = nil, packet: Int? = nil, kind: Kind) {
        self.connection = connection
        self.time = time
        self.line = line
        self.packet = packet
        self.kind = kind
    }

    /// The connection bytes the input stands for: a stream's bytes, a gap's missing ones, a
    /// message's payload. A report's byte accounts add up to these (`ByteAccount`).
    package var byteCount: Int {
        switch kind {
        case .stream(_, let bytes): bytes.count
        case .gap(_, let count): count
        case .message(let message): message.payload.count
        case .open, .close, .streamEnd: 0
        }
    }
}

/// What a connection negotiated, as far as the capture knows.
public struct ConnectionInfo: Sendable, Hashable {
    public var dialect: Dialect?
    /// `Sec-WebSocket-Protocol` chosen by the server, e.g. `lc.protobuf2.3`.
    public var subprotocol: String?
    /// The WebSocket extensions the upgrade negotiated, as the response header that sets exactly
    /// them (`permessage-deflate; client_no_context_takeover`), when the capture shows the upgrade.
    public var extensions: String?
    public var url: String?
    /// Transport endpoints (`10.0.0.1:51234`), when the capture has them.
    public var client: String?
    public var server: String?

    public init(
        dialect: Dialect? = nil, subprotocol: String? = nil, url: String? = nil, client: String? = nil,
        server: String? = nil
    ) {
        self.dialect = dialect
        self.subprotocol = subprotocol
        self.url = url
        self.client = client
        self.server = server
    }
}

/// How a connection ended: the WebSocket close code and reason, and who closed first.
public struct CloseInfo: Sendable, Hashable {
    public var code: Int?
    public var reason: String?
    /// Which side closed first, when known.
    public var initiator: Direction?
    /// The capture ended while the connection was still open (a pcap without FIN or RST).
    public var captureEnded: Bool
    /// Nothing more of this connection follows in the capture (a TCP flow's end: a new flow on
    /// the same ports gets a new id), so a reader of inputs may finish it and let it go.
    public var isLast: Bool

    public init(
        code: Int? = nil, reason: String? = nil, initiator: Direction? = nil, captureEnded: Bool = false,
        isLast: Bool = false
    ) {
        self.code = code
        self.reason = reason
        self.initiator = initiator
        self.captureEnded = captureEnded
        self.isLast = isLast
    }
}
