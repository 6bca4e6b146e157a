import IMWireCore

/// What the frame decoder produces: frames and findings, in stream order.
public enum WebSocketFrameOutput: Sendable, Hashable {
    case frame(WebSocketFrame)
    case finding(Finding)
}

/// A frame the stream ended inside: its header as far as it arrived (FIN, RSV1 and the opcode
/// are all in the first byte; `payloadLength` and the mask only once the header is whole), and
/// the payload bytes that arrived, unmasked.
public struct WebSocketUnfinishedFrame: Sendable, Hashable {
    public var header: WebSocketFrameHeader
    /// Where the frame starts, and where its payload starts (nil: the header was cut short).
    public var offset: Int
    public var payloadOffset: Int?
    public var payload: [UInt8]
}

/// A streaming, strict RFC 6455 frame decoder for one direction of a connection.
///
/// Feed it the direction's bytes in any chunking; it produces the same frames and findings
/// (with absolute stream offsets) whether the bytes come all at once or one at a time. Every
/// header is checked before its payload is read or stored: lengths against `Limits.maxFrameSize`
/// (a 64-bit length with its top bit set is refused before any conversion), minimal length
/// encoding, masking direction, RSV bits, reserved opcodes and the control-frame rules. Only a
/// length it cannot trust stops the decoder (`isFailed`); every other violation is reported and
/// decoding goes on.
public struct WebSocketFrameDecoder: Sendable {
    /// `.send`: client-to-server frames, which must be masked; `.receive`: server-to-client,
    /// which must not be.
    public let direction: Direction
    public let limits: Limits
    /// RSV1 belongs to permessage-deflate when it was negotiated.
    public let rsv1Negotiated: Bool
    /// Absolute offset of the next byte to be fed.
    public private(set) var offset: Int
    /// True once a frame length could not be trusted; later bytes are counted, not decoded.
    public private(set) var isFailed = false

    private enum State: Sendable {
        case header
        case payload
    }

    private var state = State.header
    /// Header bytes of a header split across chunks (at most 14).
    private var pendingHeader: [UInt8] = []
    private var frameStart = 0
    private var header = WebSocketFrameHeader(opcode: .continuation)
    private var payload: [UInt8] = []
    private var filled = 0

    public init(direction: Direction, limits: Limits = .default, rsv1Negotiated: Bool = false, startOffset: Int = 0) {
        self.direction = direction
        self.limits = limits
        self.rsv1Negotiated = rsv1Negotiated
        self.offset = startOffset
    }

    /// Decodes `chunk`, calling `emit` for every finding and complete frame.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (WebSocketFrameOutput) -> Void) {
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
        var index = 0
        let count = chunk.count
        while index < count {
            if isFailed {
                offset += count - index
                return
            }
            switch state {
            case .header:
                if pendingHeader.isEmpty {
                    // Fast path: the whole header is in this chunk.
                    let available = count - index
                    let parsed = parseHeader(base + index, available: available, emit)
                    guard let used = parsed else {
                        // Not enough bytes for the header yet: keep what there is.
                        pendingHeader.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index..<count]))
                        offset += available
                        return
                    }
                    index += used
                    offset += used
                } else {
                    // Slow path: complete a header begun in an earlier chunk, a byte at a time.
                    pendingHeader.append(base.load(fromByteOffset: index, as: UInt8.self))
                    index += 1
                    offset += 1
                    let complete: Int? = pendingHeader.withUnsafeBytes { raw in
                        raw.baseAddress.flatMap { parseHeader($0, available: raw.count, emit) }
                    }
                    if complete != nil { pendingHeader.removeAll(keepingCapacity: true) }
                }
                if state == .header { continue }
                if isFailed { continue }
                if header.payloadLength == 0 {
                    finishFrame(emit)
                    continue
                }
                let available = count - index
                if filled == 0, available >= header.payloadLength {
                    // Fast path: the whole payload is here; copy (and unmask) it in one step.
                    let length = header.payloadLength
                    let key = header.maskingKey
                    let source = base + index
                    // (Not `init(unsafeUninitializedCapacity:)`: it looks up the array's
                    // generic metadata at run time, for every frame.)
                    if let key {
                        payload = [UInt8](repeating: 0, count: length)
                        payload.withUnsafeMutableBytes { buffer in
                            _ = WebSocketMasking.apply(
                                key: key, phase: 0, from: source, to: buffer.baseAddress!, count: length)
                        }
                    } else {
                        payload = Array(UnsafeRawBufferPointer(start: source, count: length))
                    }
                    index += length
                    offset += length
                    finishFrame(emit)
                } else {
                    // The payload arrives in pieces: grow with what arrives rather than trusting
                    // the announced length with one allocation up front.
                    payload = []
                    payload.reserveCapacity(min(header.payloadLength, max(available, 4096)))
                }
            case .payload:
                let take = min(header.payloadLength - filled, count - index)
                let source = base + index
                let start = filled
                let key = header.maskingKey
                payload.append(contentsOf: repeatElement(0, count: take))
                payload.withUnsafeMutableBytes { raw in
                    guard let destination = raw.baseAddress else { return }
                    if let key {
                        WebSocketMasking.apply(
                            key: key, phase: start, from: source, to: destination + start, count: take)
                    } else {
                        (destination + start).copyMemory(from: source, byteCount: take)
                    }
                }
                filled += take
                index += take
                offset += take
                if filled == header.payloadLength { finishFrame(emit) }
            }
        }
    }

    /// The frame the stream is inside, as far as it arrived (nil between frames, or once the
    /// decoder failed): what a peer reading it would already know, for the message layer to judge
    /// a frame the stream ends in (`finish`).
    public var unfinishedFrame: WebSocketUnfinishedFrame? {
        guard !isFailed else { return nil }
        switch state {
        case .payload:
            return WebSocketUnfinishedFrame(
                header: header, offset: frameStart, payloadOffset: frameStart + header.headerLength,
                payload: Array(payload.prefix(filled)))
        case .header:
            guard let first = pendingHeader.first else { return nil }
            let opcode = WebSocketOpcode(rawValue: first & 0x0f)
            let header = WebSocketFrameHeader(fin: first & 0x80 != 0, rsv1: first & 0x40 != 0, opcode: opcode)
            return WebSocketUnfinishedFrame(
                header: header, offset: offset - pendingHeader.count, payloadOffset: nil, payload: [])
        }
    }

    /// Call at the end of the stream: reports a frame left incomplete.
    public mutating func finish(_ emit: (WebSocketFrameOutput) -> Void) {
        guard !isFailed else { return }
        if state == .payload || !pendingHeader.isEmpty {
            let have =
                state == .payload
                ? "\(filled) of \(header.payloadLength) payload bytes" : "\(pendingHeader.count) header bytes"
            let start = state == .payload ? frameStart : offset - pendingHeader.count
            // A header cut short is still judged on what it shows (a reserved opcode the peer's
            // close cut off, Autobahn 4.2.5): the payload length only when its 7 bits give it.
            if state == .header, let first = pendingHeader.first {
                let second = pendingHeader.dropFirst().first
                let short = second.map { Int($0 & 0x7f) }
                judgeBits(
                    first, masked: second.map { $0 & 0x80 != 0 }, payloadLength: short.flatMap { $0 < 126 ? $0 : nil },
                    at: start, emit)
            }
            emit(
                .finding(
                    WebSocketRules.finding(
                        WebSocketRules.truncatedFrame, "the stream ends inside a frame (\(have))", at: start)))
            pendingHeader.removeAll()
            state = .header
            filled = 0
        }
    }

    private mutating func finishFrame(_ emit: (WebSocketFrameOutput) -> Void) {
        let frame = WebSocketFrame(header: header, payload: payload, offset: frameStart)
        payload = []
        filled = 0
        state = .header
        emit(.frame(frame))
    }

    /// Parses and checks a header from `bytes` (the frame starts there); returns the header length,
    /// or nil when more bytes are needed. On success `state` is `.payload` (or the decoder failed).
    private mutating func parseHeader(
        _ bytes: UnsafeRawPointer, available: Int, _ emit: (WebSocketFrameOutput) -> Void
    ) -> Int? {
        guard available >= 2 else { return nil }
        let first = bytes.load(as: UInt8.self)
        let second = bytes.load(fromByteOffset: 1, as: UInt8.self)
        let masked = second & 0x80 != 0
        let shortLength = second & 0x7f
        let extended = shortLength == 126 ? 2 : (shortLength == 127 ? 8 : 0)
        let headerLength = 2 + extended + (masked ? 4 : 0)
        guard available >= headerLength else { return nil }

        // Fast path: `offset` is the frame's first byte; slow path: the header bytes are all fed.
        frameStart = pendingHeader.isEmpty ? offset : offset - pendingHeader.count
        var length: UInt64 = UInt64(shortLength)
        if extended == 2 {
            length =
                UInt64(bytes.load(fromByteOffset: 2, as: UInt8.self)) << 8
                | UInt64(bytes.load(fromByteOffset: 3, as: UInt8.self))
        } else if extended == 8 {
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(bytes.load(fromByteOffset: index, as: UInt8.self)) }
        }
        var key: UInt32?
        if masked {
            var value: UInt32 = 0
            for index in (2 + extended)..<(6 + extended) {
                value = value << 8 | UInt32(bytes.load(fromByteOffset: index, as: UInt8.self))
            }
            key = value
        }
        let opcode = WebSocketOpcode(rawValue: first & 0x0f)
        let fin = first & 0x80 != 0
        let rsv1 = first & 0x40 != 0
        let rsv2 = first & 0x20 != 0
        let rsv3 = first & 0x10 != 0

        // Lengths first: a length that cannot be trusted ends decoding (no resync is possible).
        if extended == 8, length & (1 << 63) != 0 {
            fail(
                WebSocketRules.lengthHighBitSet,
                "64-bit payload length 0x\(String(length, radix: 16)) has its most significant bit set",
                at: frameStart + 2, emit)
            return headerLength
        }
        guard length <= UInt64(max(0, limits.maxFrameSize)) else {
            fail(
                WebSocketRules.frameTooLarge,
                "\(opcode) frame announces \(length) bytes, over the limit of \(limits.maxFrameSize)",
                at: frameStart + 1, emit)
            return headerLength
        }
        let payloadLength = Int(length)
        if extended == 2, payloadLength < 126 {
            report(
                WebSocketRules.lengthNotMinimal, "length \(payloadLength) written in the 16-bit form",
                at: frameStart + 1, emit)
        } else if extended == 8, payloadLength <= 0xffff {
            report(
                WebSocketRules.lengthNotMinimal, "length \(payloadLength) written in the 64-bit form",
                at: frameStart + 1, emit)
        }
        judgeBits(first, masked: masked, payloadLength: payloadLength, at: frameStart, emit)
        header = WebSocketFrameHeader(
            fin: fin, rsv1: rsv1, rsv2: rsv2, rsv3: rsv3, opcode: opcode, maskingKey: key,
            payloadLength: payloadLength, headerLength: headerLength)
        state = .payload
        filled = 0
        return headerLength
    }

    /// The verdicts of a header's first byte (FIN, RSV bits, opcode) and, when known, its mask
    /// bit and payload length (RFC 6455 §5.2-5.5), for the frame at `start`.
    private func judgeBits(
        _ first: UInt8, masked: Bool?, payloadLength: Int?, at start: Int, _ emit: (WebSocketFrameOutput) -> Void
    ) {
        let opcode = WebSocketOpcode(rawValue: first & 0x0f)
        let (fin, rsv1, rsv2, rsv3) = (first & 0x80 != 0, first & 0x40 != 0, first & 0x20 != 0, first & 0x10 != 0)
        if opcode.isReserved {
            report(
                WebSocketRules.reservedOpcode, "opcode 0x\(String(opcode.rawValue, radix: 16)) is reserved", at: start,
                emit)
        }
        if rsv1 {
            if opcode.isControl, rsv1Negotiated {
                report(WebSocketRules.rsv1OnControl, "RSV1 set on a \(opcode) frame", at: start, emit)
            } else if !rsv1Negotiated {
                report(
                    WebSocketRules.rsvWithoutExtension,
                    "RSV1 set on a \(opcode) frame; no extension was negotiated for it", at: start, emit)
            } else if opcode == .continuation {
                report(WebSocketRules.rsv1OnContinuation, "RSV1 set on a continuation frame", at: start, emit)
            }
        }
        if rsv2 || rsv3 {
            let bits = [rsv2 ? "RSV2" : nil, rsv3 ? "RSV3" : nil].compactMap { $0 }.joined(separator: " and ")
            report(
                WebSocketRules.rsvWithoutExtension, "\(bits) set on a \(opcode) frame; no extension defines it",
                at: start, emit)
        }
        if opcode.isControl {
            if !fin {
                report(WebSocketRules.controlFrameFragmented, "\(opcode) frame with FIN clear", at: start, emit)
            }
            if let payloadLength, payloadLength > 125 {
                report(
                    WebSocketRules.controlFrameTooLong, "\(opcode) frame with \(payloadLength) payload bytes",
                    at: start + 1, emit)
            }
        }
        switch (direction, masked) {
        case (.send, false?):
            report(WebSocketRules.clientFrameUnmasked, "client \(opcode) frame is not masked", at: start + 1, emit)
        case (.receive, true?):
            report(WebSocketRules.serverFrameMasked, "server \(opcode) frame is masked", at: start + 1, emit)
        default:
            break
        }
    }

    private func report(_ rule: Rule, _ message: String, at offset: Int, _ emit: (WebSocketFrameOutput) -> Void) {
        emit(.finding(WebSocketRules.finding(rule, message, at: offset)))
    }

    private mutating func fail(_ rule: Rule, _ message: String, at offset: Int, _ emit: (WebSocketFrameOutput) -> Void)
    {
        isFailed = true
        report(rule, message + "; decoding stops", at: offset, emit)
    }
}

extension WebSocketFrameDecoder {
    /// Decodes `chunk` and returns what it produced.
    public mutating func feed(_ chunk: [UInt8]) -> [WebSocketFrameOutput] {
        var out: [WebSocketFrameOutput] = []
        chunk.withUnsafeBytes { raw in feed(raw) { out.append($0) } }
        return out
    }
}
