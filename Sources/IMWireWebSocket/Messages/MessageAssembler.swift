import IMWireCompression
import IMWireCore

/// Joins frames into messages for one direction (RFC 6455 §5.4), checks fragmentation order,
/// UTF-8 of text messages across fragments and of close reasons, close codes, message size and
/// fragment count, and inflates permessage-deflate messages (RFC 7692 §7.2.2: the trailer
/// `00 00 ff ff` is put back; the window is kept unless no_context_takeover applies).
///
/// A `Sendable` value: its inflater is copy-on-write (see `Inflater`), so a copy is an
/// independent assembler. Keep one per direction and change it in place.
public struct WebSocketMessageAssembler: Sendable {
    public let direction: Direction
    public let limits: Limits
    public let deflate: PerMessageDeflateParameters?
    /// True once this direction sent its close frame.
    public private(set) var isClosed = false

    private struct Partial: Sendable {
        var kind: WebSocketMessage.Kind
        var compressed: Bool
        var offset: Int
        var frames: Int
        var payload: [UInt8]
        var utf8 = UTF8Validator()
        /// A violation was reported; the rest of the message is dropped quietly.
        var dropped = false
        /// UTF-8 already reported for this message.
        var utf8Reported = false
    }

    private var partial: Partial?
    private var inflater: Inflater?
    /// The inflater's window is unusable after an error; later compressed messages are skipped.
    private var inflaterBroken = false

    public init(direction: Direction, limits: Limits = .default, deflate: PerMessageDeflateParameters? = nil) {
        self.direction = direction
        self.limits = limits
        self.deflate = deflate
    }

    /// Takes the next frame (in stream order) and emits messages, closes and findings.
    public mutating func consume(_ frame: WebSocketFrame, _ emit: (WebSocketEvent) -> Void) {
        let opcode = frame.opcode
        if isClosed {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.frameAfterClose, "\(opcode) frame after this side's close frame",
                        at: frame.offset)))
            // A data frame is still read, so its message is seen (and kept by `imwire convert`).
            guard !opcode.isControl else { return }
        }
        if opcode.isReserved { return }  // reported by the frame decoder; meaning unknown
        switch opcode {
        case .close:
            consumeClose(frame, emit)
        case .ping, .pong:
            return
        case .text, .binary:
            if let open = partial, !open.dropped {
                emit(
                    .finding(
                        WebSocketRules.finding(
                            WebSocketRules.messageInterleaved,
                            "\(opcode) frame while the \(open.kind) message begun at \(open.offset) is unfinished",
                            at: frame.offset)))
            }
            partial = nil
            start(frame, emit)
        default:  // continuation
            guard partial != nil else {
                emit(
                    .finding(
                        WebSocketRules.finding(
                            WebSocketRules.continuationWithoutStart, "continuation frame with no message in progress",
                            at: frame.offset)))
                return
            }
            append(frame, emit)
        }
    }

    /// Judges the frame the stream ended inside on what arrived of it, as a peer that fails the
    /// connection at once would have: a data frame after this side's close, a new message inside
    /// an unfinished one, a continuation with none, and text that is already not UTF-8 (an
    /// unfinished last sequence is no fault: the rest may have been on its way). It delivers nothing.
    public mutating func consume(unfinished frame: WebSocketUnfinishedFrame, _ emit: (WebSocketEvent) -> Void) {
        let opcode = frame.header.opcode
        if isClosed {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.frameAfterClose, "\(opcode) frame after this side's close frame",
                        at: frame.offset)))
            return
        }
        guard !opcode.isReserved, !opcode.isControl else { return }  // the frame decoder judged those bits
        var open: Partial
        switch opcode {
        case .text, .binary:
            if let unfinished = partial, !unfinished.dropped {
                emit(
                    .finding(
                        WebSocketRules.finding(
                            WebSocketRules.messageInterleaved,
                            """
                            \(opcode) frame while the \(unfinished.kind) \
                            message begun at \(unfinished.offset) is unfinished
                            """, at: frame.offset)))
            }
            partial = nil
            let kind: WebSocketMessage.Kind = opcode == .text ? .text : .binary
            open = Partial(
                kind: kind, compressed: frame.header.rsv1 && deflate != nil, offset: frame.offset, frames: 1,
                payload: [])
        default:  // continuation
            guard let unfinished = partial else {
                emit(
                    .finding(
                        WebSocketRules.finding(
                            WebSocketRules.continuationWithoutStart, "continuation frame with no message in progress",
                            at: frame.offset)))
                return
            }
            open = unfinished
        }
        if open.kind == .text, !open.compressed, !open.dropped, let payloadOffset = frame.payloadOffset {
            validateText(frame.payload, at: payloadOffset, &open, emit)
        }
    }

    /// Call at the end of the stream.
    public mutating func finish(_ emit: (WebSocketEvent) -> Void) {
        if let open = partial, !open.dropped {
            emit(
                .finding(
                    WebSocketRules.messageUnfinished.finding(
                        "the stream ends inside a \(open.kind) message of \(open.frames) fragments", at: open.offset)))
        }
        partial = nil
    }

    private mutating func start(_ frame: WebSocketFrame, _ emit: (WebSocketEvent) -> Void) {
        let compressed = frame.header.rsv1 && deflate != nil
        let kind: WebSocketMessage.Kind = frame.opcode == .text ? .text : .binary
        var open = Partial(kind: kind, compressed: compressed, offset: frame.offset, frames: 1, payload: [])
        if compressed {
            beginInflate()
            inflateFragment(frame, &open, emit)
        } else if frame.payload.count > limits.maxMessageSize {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.messageTooLarge,
                        "\(kind) message of \(frame.payload.count) bytes, over the limit of \(limits.maxMessageSize)",
                        at: frame.offset)))
            open.dropped = true
        } else {
            open.payload = frame.payload  // shared storage, no copy
            if kind == .text { validateText(frame.payload, at: frame.payloadOffset, &open, emit) }
        }
        if frame.fin { complete(&open, lastFrame: frame, emit) } else { partial = open }
    }

    private mutating func append(_ frame: WebSocketFrame, _ emit: (WebSocketEvent) -> Void) {
        // Taken out of `partial` so the payload buffer stays uniquely referenced while it grows.
        guard var open = partial else { return }
        partial = nil
        open.frames += 1
        if !open.dropped, open.frames > limits.maxFragments {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.tooManyFragments,
                        """
                        \(open.kind) message reaches \(open.frames) \
                        fragments, over the limit of \(limits.maxFragments)
                        """, at: frame.offset)))
            open.dropped = true
            open.payload = []
        }
        if open.dropped {
            // keep counting until FIN so later continuations are not reported as orphans
        } else if open.compressed {
            inflateFragment(frame, &open, emit)
        } else if open.payload.count + frame.payload.count > limits.maxMessageSize {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.messageTooLarge,
                        "\(open.kind) message passes \(limits.maxMessageSize) bytes at fragment \(open.frames)",
                        at: frame.offset)))
            open.dropped = true
            open.payload = []
        } else {
            open.payload.append(contentsOf: frame.payload)
            if open.kind == .text { validateText(frame.payload, at: frame.payloadOffset, &open, emit) }
        }
        if frame.fin { complete(&open, lastFrame: frame, emit) } else { partial = open }
    }

    private mutating func complete(_ open: inout Partial, lastFrame: WebSocketFrame, _ emit: (WebSocketEvent) -> Void) {
        if open.dropped { return }
        if open.compressed {
            guard finishInflate(&open, emit) else { return }
            if open.kind == .text, let bad = UTF8Validator.firstInvalidOffset(open.payload) {
                emit(
                    .finding(
                        WebSocketRules.finding(
                            WebSocketRules.invalidUTF8,
                            "inflated text message is not UTF-8 at inflated byte \(bad)", at: open.offset)))
            }
        } else if open.kind == .text, !open.utf8Reported, !open.utf8.isComplete {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.invalidUTF8,
                        "text message ends inside a UTF-8 sequence",
                        at: lastFrame.payloadOffset + lastFrame.payload.count)))
        }
        emit(
            .message(
                WebSocketMessage(
                    kind: open.kind, payload: open.payload, wasCompressed: open.compressed, offset: open.offset,
                    frameCount: open.frames)
            ))
    }

    private func validateText(_ bytes: [UInt8], at offset: Int, _ open: inout Partial, _ emit: (WebSocketEvent) -> Void)
    {
        guard !open.utf8Reported else { return }
        if let bad = open.utf8.feed(bytes) {
            open.utf8Reported = true
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.invalidUTF8, "text message is not UTF-8 at this byte", at: offset + bad)))
        }
    }

    // MARK: close

    private mutating func consumeClose(_ frame: WebSocketFrame, _ emit: (WebSocketEvent) -> Void) {
        isClosed = true
        let body = frame.payload
        let at = frame.payloadOffset
        guard body.count >= 2 else {
            if body.count == 1 {
                emit(
                    .finding(
                        WebSocketRules.finding(
                            WebSocketRules.closePayloadOneByte, "close frame with a 1-byte body", at: at)))
            }
            emit(.close(WebSocketClose(code: nil, reason: body, offset: frame.offset)))
            return
        }
        let code = CloseCode(UInt16(body[0]) << 8 | UInt16(body[1]))
        if !code.isValidOnWire {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.closeCodeInvalid, "close code \(code) may not be sent", at: at)))
        }
        let reason = Array(body[2...])
        if let bad = UTF8Validator.firstInvalidOffset(reason) {
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.closeReasonInvalidUTF8, "close reason is not UTF-8 at this byte",
                        at: at + 2 + bad)))
        }
        emit(.close(WebSocketClose(code: code, reason: reason, offset: frame.offset)))
    }

    // MARK: permessage-deflate

    private var inflateLimit: InflateLimit {
        InflateLimit(
            maxOutput: min(limits.maxMessageSize, limits.maxDecompressedSize), maxRatio: limits.maxExpansionRatio)
    }

    private mutating func beginInflate() {
        guard let deflate, !inflaterBroken else { return }
        if inflater == nil {
            do {
                inflater = try Inflater(format: .raw, windowBits: deflate.maxWindowBits(direction))
            } catch {
                inflaterBroken = true
                return
            }
        }
        inflater?.beginUnit()
    }

    private mutating func inflateFragment(
        _ frame: WebSocketFrame, _ open: inout Partial, _ emit: (WebSocketEvent) -> Void
    ) {
        guard !open.dropped else { return }
        guard inflater != nil, !inflaterBroken else {
            open.dropped = true
            return
        }
        let limit = inflateLimit
        do {
            // Changed in place through the optional: a copy bound with `if let` would share the
            // stream and make the inflater copy its window (copy-on-write).
            _ = try inflater?.inflate(frame.payload, into: &open.payload, limit: limit)
        } catch {
            inflateFailed(error, &open, emit)
        }
    }

    /// Puts the stripped sync-flush trailer back and finishes the message's output.
    private mutating func finishInflate(_ open: inout Partial, _ emit: (WebSocketEvent) -> Void) -> Bool {
        guard let finished = inflater?.isFinished, let deflate, !inflaterBroken else { return false }
        let limit = inflateLimit
        do {
            // After a final block (BFINAL) the stream has ended and there is nothing to flush.
            let trailer: [UInt8] = finished ? [] : [0x00, 0x00, 0xff, 0xff]
            _ = try inflater?.inflate(trailer, into: &open.payload, limit: limit)
        } catch {
            inflateFailed(error, &open, emit)
            return false
        }
        // A sender may end a message with BFINAL set (RFC 7692 §7.2.3.4); the next one then
        // starts a new deflate stream.
        if deflate.noContextTakeover(direction) || inflater?.isFinished == true { inflater?.reset() }
        return true
    }

    private mutating func inflateFailed(
        _ error: IMWireError, _ open: inout Partial, _ emit: (WebSocketEvent) -> Void
    ) {
        open.dropped = true
        open.payload = []
        inflaterBroken = true
        let rule =
            error.code == .compressionOutputLimit && limits.maxMessageSize < limits.maxDecompressedSize
            ? WebSocketRules.messageTooLarge : error.compressionRule
        emit(.finding(WebSocketRules.finding(rule, "permessage-deflate: \(error.reason)", at: open.offset)))
    }
}
