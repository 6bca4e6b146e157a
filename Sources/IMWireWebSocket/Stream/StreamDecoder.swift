import IMWireCore

/// Everything a one-direction decoder needs to know about the connection.
public struct WebSocketStreamConfiguration: Sendable, Hashable {
    /// `.send`: the client's bytes (frames must be masked); `.receive`: the server's (must not be).
    public var direction: Direction
    /// permessage-deflate as negotiated by the handshake; nil when it was not.
    public var permessageDeflate: PerMessageDeflateParameters?
    public var limits: Limits
    /// Emit a `.frame` event for every frame (off: only for ping and pong frames, which carry no
    /// message, besides messages, closes and findings).
    public var emitsFrames: Bool

    public init(
        direction: Direction, permessageDeflate: PerMessageDeflateParameters? = nil, limits: Limits = .default,
        emitsFrames: Bool = true
    ) {
        self.direction = direction
        self.permessageDeflate = permessageDeflate
        self.limits = limits
        self.emitsFrames = emitsFrames
    }
}

/// The first violation that fails the connection, and how a conforming peer answers it.
public struct WebSocketFailure: Sendable, Hashable {
    public var rule: RuleID
    public var closeCode: CloseCode
    public var offset: Int?
    /// The finding that failed it.
    package var finding: Finding
}

/// Decodes the bytes of ONE direction of a WebSocket connection (after the handshake), fed in
/// arbitrary chunks: frames, complete messages (joined and inflated), close frames and findings
/// with absolute stream offsets. Any chunking of the same bytes gives the same events.
///
/// ```swift
/// var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send, permessageDeflate: negotiated))
/// for chunk in chunks { decoder.feed(chunk) { event in handle(event) } }
/// decoder.finish { event in handle(event) }
/// ```
///
/// `Sendable`: a connection's decoder can be stored in its state and handed to the task (or
/// actor) that reads the connection. It is a value: its one piece of shared storage, the
/// permessage-deflate inflater, is copy-on-write (see `Inflater`), so a copy decodes on its
/// own without disturbing the original. A copy of a decoder with a deflate window copies that
/// window on its first change, so keep one decoder per direction and feed it in place (`var`,
/// `inout`, a stored property) rather than copying it out and back.
public struct WebSocketStreamDecoder: Sendable {
    public let configuration: WebSocketStreamConfiguration
    private var frames: WebSocketFrameDecoder
    private var assembler: WebSocketMessageAssembler
    /// The first violation that makes a conforming peer fail the connection, if any.
    public private(set) var failure: WebSocketFailure?
    /// Frames decoded so far.
    public private(set) var frameCount = 0

    /// - Parameters:
    ///   - configuration: the direction, the negotiated permessage-deflate, the limits, and
    ///     whether frames are emitted as well as messages.
    ///   - startOffset: absolute offset of the first byte fed (e.g. the handshake length).
    public init(_ configuration: WebSocketStreamConfiguration, startOffset: Int = 0) {
        self.configuration = configuration
        frames = WebSocketFrameDecoder(
            direction: configuration.direction, limits: configuration.limits,
            rsv1Negotiated: configuration.permessageDeflate != nil, startOffset: startOffset)
        assembler = WebSocketMessageAssembler(
            direction: configuration.direction, limits: configuration.limits, deflate: configuration.permessageDeflate)
    }

    /// Absolute offset of the next byte to be fed.
    public var offset: Int { frames.offset }

    /// Decodes `chunk`, calling `emit` for each event in stream order.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (WebSocketEvent) -> Void) {
        // Each stored property goes in as its own inout, so the frame callback can change the
        // assembler while the frame decoder runs. (Moving the assembler out of `self` and back
        // instead would copy it twice per chunk.)
        Self.feed(
            chunk, frames: &frames, assembler: &assembler, failure: &failure, frameCount: &frameCount,
            emitsFrames: configuration.emitsFrames, emit)
    }

    private static func feed(
        _ chunk: UnsafeRawBufferPointer, frames: inout WebSocketFrameDecoder,
        assembler: inout WebSocketMessageAssembler,
        failure: inout WebSocketFailure?, frameCount: inout Int, emitsFrames: Bool, _ emit: (WebSocketEvent) -> Void
    ) {
        frames.feed(chunk) { output in
            switch output {
            case .frame(let frame):
                frameCount += 1
                if emitsFrames || frame.opcode == .ping || frame.opcode == .pong { emit(.frame(frame)) }
                assembler.consume(frame) { event in
                    if case .finding(let finding) = event { note(finding, &failure) }
                    emit(event)
                }
            case .finding(let finding):
                note(finding, &failure)
                emit(.finding(finding))
            }
        }
    }

    /// Call when the direction's stream ends: reports an unfinished frame or message.
    public mutating func finish(_ emit: (WebSocketEvent) -> Void) {
        var failure = self.failure
        let unfinished = frames.unfinishedFrame
        frames.finish { output in
            if case .finding(let finding) = output {
                Self.note(finding, &failure)
                emit(.finding(finding))
            }
        }
        // A frame cut short (by the peer's close, often: a peer fails the connection as soon as it
        // sees a violation) is judged on what arrived, as the peer judged it.
        let note = { (event: WebSocketEvent) in
            if case .finding(let finding) = event { Self.note(finding, &failure) }
            emit(event)
        }
        if let unfinished { assembler.consume(unfinished: unfinished, note) }
        assembler.finish { event in emit(event) }
        self.failure = failure
    }

    private static func note(_ finding: Finding, _ failure: inout WebSocketFailure?) {
        guard failure == nil, finding.severity == .error, let code = WebSocketRules.closeCode(for: finding.ruleID)
        else { return }
        failure = WebSocketFailure(rule: finding.ruleID, closeCode: code, offset: finding.offset, finding: finding)
    }
}

extension WebSocketStreamDecoder {
    public mutating func feed(_ chunk: [UInt8], _ emit: (WebSocketEvent) -> Void) {
        chunk.withUnsafeBytes { feed($0, emit) }
    }

    /// Decodes `chunk` and returns its events.
    public mutating func feed(_ chunk: [UInt8]) -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        chunk.withUnsafeBytes { raw in feed(raw) { events.append($0) } }
        return events
    }

    /// Ends the stream and returns the last events.
    public mutating func finish() -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        finish { events.append($0) }
        return events
    }
}
