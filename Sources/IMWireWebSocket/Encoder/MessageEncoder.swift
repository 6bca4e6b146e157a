import IMWireCompression
import IMWireCore

/// Writes whole messages as frames for one side of a connection: masks when the client sends,
/// compresses under permessage-deflate (sync flush, trailer `00 00 ff ff` stripped, RSV1 on the
/// first frame only, window reset per message when no_context_takeover applies to the sender),
/// and fragments when asked.
///
/// Client frames get a fresh masking key each from the system's cryptographically strong
/// generator (`WebSocketMasking.randomKey()`, RFC 6455 §5.3) unless `maskingKey` is given:
/// tests and golden fixtures pass a fixed key or a seeded generator.
///
/// Single owner, not `Sendable` on purpose: it is a reference to one compressor's state (the
/// deflate window, which each message extends) and a key source, with no lock. Create it in the
/// task or actor that writes the connection, or hand it over once: Swift 6 lets a value nothing
/// else references be sent into a `Task` or an actor (region-based isolation), so
/// `Task { try socket.write(encoder.message(.text, bytes)) }` compiles as long as the caller does
/// not use `encoder` afterwards. A class rather than a value because a copied compressor would
/// silently stop sharing its window with the peer's decompressor.
public final class WebSocketMessageEncoder {
    /// `.send` encodes client frames (masked), `.receive` server frames.
    public let direction: Direction
    /// permessage-deflate as negotiated; nil: messages go uncompressed.
    public let permessageDeflate: PerMessageDeflateParameters?
    /// Split messages into frames of at most this many payload bytes (nil: one frame).
    public var fragmentSize: Int?
    private let nextMaskingKey: () -> UInt32
    private var deflater: Deflater?

    /// - Parameters:
    ///   - direction: `.send` encodes client frames (masked), `.receive` server frames.
    ///   - permessageDeflate: permessage-deflate as negotiated; nil: messages go uncompressed.
    ///   - fragmentSize: split messages into frames of at most this many payload bytes (nil: one
    ///     frame).
    ///   - maskingKey: called once per client frame. The default draws a fresh key from the
    ///     system's CSPRNG for every frame (`WebSocketMasking.randomKey`), as RFC 6455 §5.3
    ///     requires; pass a fixed key or sequence only for tests and fixtures.
    ///   - compressionLevel: zlib level -1 or 0...9.
    public init(
        direction: Direction, permessageDeflate: PerMessageDeflateParameters? = nil, compressionLevel: Int = -1,
        fragmentSize: Int? = nil, maskingKey: @escaping () -> UInt32 = WebSocketMasking.randomKey
    ) throws(IMWireError) {
        self.direction = direction
        self.permessageDeflate = permessageDeflate
        self.fragmentSize = fragmentSize.map { max(1, $0) }
        nextMaskingKey = maskingKey
        if let permessageDeflate {
            deflater = try Deflater(
                format: .raw, level: compressionLevel, windowBits: permessageDeflate.maxWindowBits(direction))
        } else {
            deflater = nil
        }
    }

    /// An encoder whose masking keys come from `generator` (e.g. a seeded generator in tests),
    /// one `next()` per client frame.
    public convenience init(
        direction: Direction, permessageDeflate: PerMessageDeflateParameters? = nil, compressionLevel: Int = -1,
        fragmentSize: Int? = nil, maskingKeysFrom generator: some RandomNumberGenerator
    ) throws(IMWireError) {
        var generator = generator
        try self.init(
            direction: direction, permessageDeflate: permessageDeflate, compressionLevel: compressionLevel,
            fragmentSize: fragmentSize,
            maskingKey: { WebSocketMasking.randomKey(using: &generator) })
    }

    /// Appends the frames of one data message. With `compress` false (or no permessage-deflate)
    /// the payload goes as it is.
    public func encodeMessage(
        _ kind: WebSocketMessage.Kind, _ payload: [UInt8], compress: Bool = true, into out: inout [UInt8]
    )
        throws(IMWireError)
    {
        var body = payload
        let compressed = compress && deflater != nil
        if compressed, let permessageDeflate {
            // In place through the optional (a bound copy would make the deflater copy its state).
            body = try Self.compress(payload, with: &deflater!)
            if permessageDeflate.noContextTakeover(direction) { deflater?.reset() }
        }
        let opcode: WebSocketOpcode = kind == .text ? .text : .binary
        let size = fragmentSize ?? max(body.count, 1)
        var start = 0
        var first = true
        repeat {
            let end = min(body.count, start + size)
            let header = WebSocketFrameHeader(
                fin: end == body.count, rsv1: first && compressed, opcode: first ? opcode : .continuation,
                maskingKey: direction == .send ? nextMaskingKey() : nil)
            body.withUnsafeBytes { raw in
                WebSocketFrameEncoder.encode(
                    header, payload: UnsafeRawBufferPointer(rebasing: raw[start..<end]), into: &out)
            }
            first = false
            start = end
        } while start < body.count
    }

    /// The frames of one data message.
    public func message(_ kind: WebSocketMessage.Kind, _ payload: [UInt8], compress: Bool = true)
        throws(IMWireError) -> [UInt8]
    {
        var out: [UInt8] = []
        try encodeMessage(kind, payload, compress: compress, into: &out)
        return out
    }

    /// A control frame (ping, pong, close) with `payload` (at most 125 bytes; longer is cut).
    public func control(_ opcode: WebSocketOpcode, _ payload: [UInt8] = []) -> [UInt8] {
        let header = WebSocketFrameHeader(opcode: opcode, maskingKey: direction == .send ? nextMaskingKey() : nil)
        return WebSocketFrameEncoder.frame(header, payload: Array(payload.prefix(125)))
    }

    /// A close frame with `code` and a UTF-8 `reason` (cut to fit 125 bytes).
    public func close(_ code: CloseCode?, reason: String = "") -> [UInt8] {
        control(.close, WebSocketClose(code: code, reason: code == nil ? [] : Array(reason.utf8.prefix(123))).payload)
    }

    /// RFC 7692 §7.2.1: deflate with a sync flush and drop the trailing `00 00 ff ff`. An empty
    /// payload compresses to the single byte `00` (§7.2.3.6).
    static func compress(_ payload: [UInt8], with deflater: inout Deflater) throws(IMWireError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count / 2 + 16)
        try deflater.deflate(payload, flush: .sync, into: &out)
        if out.count >= 4, out[(out.count - 4)...].elementsEqual([0x00, 0x00, 0xff, 0xff]) { out.removeLast(4) }
        // zlib emits nothing for a flush right after a flush (Z_BUF_ERROR, no progress), and a
        // lone empty stored block strips to nothing: both are sent as `00`.
        return out.isEmpty ? [0x00] : out
    }
}
