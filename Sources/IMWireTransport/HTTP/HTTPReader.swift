import IMWireCore
import IMWireWebSocket

/// Reads one direction of an HTTP/1.1 connection message by message, as its bytes arrive in any
/// chunking (RFC 9112 §6): heads, then bodies by Content-Length, chunked, or to the end of the
/// connection. The body framing of a head is decided by the caller (a response's depends on its
/// request). Offsets are absolute in the direction's stream. Memory: the unread bytes of one
/// message, a body up to `Limits.maxMessageSize`.
struct HTTPReader {
    enum Output {
        /// A head was read and its body framing decided (before its body arrives). Its fields'
        /// offsets count from the head's first byte, at `offset` in the stream.
        case head(HTTPHead, offset: Int, framing: HTTPBodyFraming)
        case message(HTTPMessage)
        case finding(Finding)
    }

    private enum State {
        case head
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailer
        case untilClose
        /// After a head that hands the connection on (a 101, an upgrade request): unread.
        case paused
        /// Unreadable: the rest is not read.
        case failed
        /// The connection switched protocols: bytes go elsewhere.
        case handedOver
    }

    private var state = State.head
    /// Bytes received and not yet consumed; `bufferOffset` is the stream offset of the first.
    private var buffer: [UInt8] = []
    private var bufferOffset = 0
    /// The message being read.
    private var current: HTTPMessage?
    private var keepsBody = true
    let limits: Limits
    /// Bytes given to the reader; those it did not read, by reason; those it handed on to the
    /// protocol an upgrade switched to. The rest it decoded.
    private(set) var fed = 0
    private(set) var skipped: [String: Int] = [:]
    private(set) var handedOver = 0

    static let tooLarge = "HTTP body over the size limit"
    static let unreadable = "after an unreadable HTTP message"
    static let headCutShort = "the connection ended inside an HTTP head"

    /// Bytes read (heads, bodies, chunk framing), found wrong or not.
    var decoded: Int { fed - skipped.values.reduce(0, +) - handedOver - (isPaused ? buffer.count : 0) }

    init(limits: Limits) { self.limits = limits }

    var isFailed: Bool { if case .failed = state { true } else { false } }
    var isPaused: Bool { if case .paused = state { true } else { false } }
    /// Bytes held and not consumed (paused: what follows an upgrade; else a partial head or chunk line).
    var pendingBytes: Int { buffer.count }
    /// The bytes held, when no head has been read from them yet.
    var pendingHead: [UInt8]? { if case .head = state { buffer } else { nil } }

    /// Gives up the rest without reading it: each byte held or still to come is counted under `reason`.
    mutating func abandon(because reason: String) {
        skipped[reason, default: 0] += buffer.count
        bufferOffset += buffer.count
        buffer = []
        state = .handedOver
    }
    /// The stream offset of the next byte not consumed.
    var nextOffset: Int { bufferOffset }

    /// Takes the bytes held after a paused head (the new protocol's first bytes) and stops.
    mutating func takePaused() -> (bytes: [UInt8], offset: Int) {
        let taken = (buffer, bufferOffset)
        handedOver += buffer.count
        bufferOffset += buffer.count
        buffer = []
        state = .handedOver
        return taken
    }

    /// Resumes reading HTTP after a paused head (an upgrade request the server refused).
    mutating func resume(framing: (HTTPHead) -> HTTPBodyFraming, into outputs: inout [Output]) {
        guard case .paused = state else { return }
        state = .head
        feed([], framing: framing, into: &outputs)
    }

    /// Reads what `bytes` complete; `framing` decides the body of each head.
    mutating func feed(_ bytes: [UInt8], framing: (HTTPHead) -> HTTPBodyFraming, into outputs: inout [Output]) {
        fed += bytes.count
        switch state {
        case .failed:
            skipped[Self.unreadable, default: 0] += bytes.count
            return
        case .handedOver:
            handedOver += bytes.count
            return
        default:
            break
        }
        buffer += bytes
        var progress = true
        while progress {
            progress = false
            switch state {
            case .head:
                guard !buffer.isEmpty else { break }
                guard let end = HTTPHead.endOfHead(buffer) else {
                    if buffer.count > WebSocketHandshake.maxHeadLength {
                        fail(
                            HTTPRules.headTooLong.finding(
                                "no blank line within \(WebSocketHandshake.maxHeadLength) bytes", at: bufferOffset),
                            into: &outputs)
                    } else if buffer.count >= 4, !Self.startsLikeHTTP(buffer) {
                        fail(
                            HTTPRules.headMalformed.finding("not an HTTP start line", at: bufferOffset), into: &outputs)
                    }
                    break
                }
                var findings: [Finding] = []
                let head = HTTPHead.parse(
                    buffer, headLength: end, maxLength: WebSocketHandshake.maxHeadLength, findings: &findings,
                    malformed: HTTPRules.headMalformed, truncated: HTTPRules.headTooLong)
                for finding in findings { outputs.append(.finding(finding.shifted(by: bufferOffset))) }
                guard let head, head.startLine.count >= 2 else {
                    fail(nil, into: &outputs)
                    break
                }
                let offset = bufferOffset
                consume(end)
                let bodyFraming = framing(head)
                outputs.append(.head(head, offset: offset, framing: bodyFraming))
                current = HTTPMessage(
                    head: head, body: [], offset: offset, bodyOffset: bufferOffset, wireLength: end,
                    bodyIncomplete: false)
                keepsBody = true
                switch bodyFraming {
                case .none:
                    finishMessage(into: &outputs)
                case .length(let length):
                    if length > limits.maxMessageSize { refuseBody(length, into: &outputs) }
                    state = .body(remaining: length)
                    if length == 0 {
                        state = .head
                        finishMessage(into: &outputs)
                    }
                case .chunked:
                    state = .chunkSize
                case .untilClose:
                    state = .untilClose
                case .switchingProtocols, .awaitingUpgrade:
                    finishMessage(into: &outputs)
                    state = .paused
                case .invalid(let finding):
                    finishMessage(into: &outputs)
                    fail(finding.shifted(by: offset), into: &outputs)
                }
                progress = true
            case .body(let remaining):
                let count = min(remaining, buffer.count)
                guard count > 0 else { break }
                take(count)
                state = .body(remaining: remaining - count)
                if remaining - count == 0 {
                    state = .head
                    finishMessage(into: &outputs)
                }
                progress = true
            case .chunkSize:
                guard let lineEnd = Self.lineEnd(buffer) else {
                    if buffer.count > 1024 {
                        fail(
                            HTTPRules.chunkInvalid.finding("chunk size line longer than 1024 bytes", at: bufferOffset),
                            into: &outputs)
                    }
                    break
                }
                let line = buffer[..<lineEnd].prefix { $0 != UInt8(ascii: ";") }
                guard !line.isEmpty, line.count <= 15, let size = Int(String(decoding: line, as: UTF8.self), radix: 16),
                    size >= 0
                else {
                    fail(
                        HTTPRules.chunkInvalid.finding(
                            "chunk size \"\(String(decoding: line.prefix(32), as: UTF8.self))\" is not hexadecimal",
                            at: bufferOffset), into: &outputs)
                    break
                }
                consume(lineEnd + 2)
                if size == 0 {
                    state = .trailer
                } else {
                    if keepsBody, (current?.body.count ?? 0) + size > limits.maxMessageSize {
                        refuseBody((current?.body.count ?? 0) + size, into: &outputs)
                    }
                    state = .chunkData(remaining: size)
                }
                progress = true
            case .chunkData(let remaining):
                let count = min(remaining, buffer.count)
                guard count > 0 else { break }
                take(count)
                state = remaining - count == 0 ? .chunkEnd : .chunkData(remaining: remaining - count)
                progress = true
            case .chunkEnd:
                guard buffer.count >= 2 else { break }
                guard buffer[0] == 0x0d, buffer[1] == 0x0a else {
                    fail(
                        HTTPRules.chunkInvalid.finding("chunk data not followed by CRLF", at: bufferOffset),
                        into: &outputs)
                    break
                }
                consume(2)
                state = .chunkSize
                progress = true
            case .trailer:
                // Trailer fields, then the blank line.
                guard let lineEnd = Self.lineEnd(buffer) else {
                    if buffer.count > WebSocketHandshake.maxHeadLength {
                        fail(
                            HTTPRules.chunkInvalid.finding("trailer without its blank line", at: bufferOffset),
                            into: &outputs)
                    }
                    break
                }
                consume(lineEnd + 2)
                if lineEnd == 0 {
                    state = .head
                    finishMessage(into: &outputs)
                }
                progress = true
            case .untilClose:
                guard !buffer.isEmpty else { break }
                take(buffer.count)
            case .paused, .failed, .handedOver:
                break
            }
        }
    }

    /// The connection ended: a message cut short is reported, and a body read to the close ends.
    mutating func finish(into outputs: inout [Output]) {
        switch state {
        case .untilClose:
            state = .head
            finishMessage(into: &outputs)
        case .body, .chunkSize, .chunkData, .chunkEnd, .trailer:
            outputs.append(
                .finding(
                    HTTPRules.messageTruncated.finding(
                        "the connection ended inside a body", at: bufferOffset + buffer.count)))
            current?.bodyIncomplete = true
            finishMessage(into: &outputs)
        case .head where !buffer.isEmpty:
            outputs.append(
                .finding(
                    HTTPRules.messageTruncated.finding(
                        "the connection ended inside a head (\(buffer.count) bytes, no blank line)",
                        at: bufferOffset + buffer.count)))
            skipped[Self.headCutShort, default: 0] += buffer.count
        default:
            break
        }
        if case .handedOver = state { return }
        state = .failed
    }

    /// Whether `bytes` start as an HTTP request or response line could: a token then a space, or `HTTP/`.
    static func startsLikeHTTP(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: Array("HTTP/".utf8)) { return true }
        guard let space = bytes.prefix(24).firstIndex(of: 0x20), space > 0 else {
            return bytes.count < 24 && bytes.allSatisfy(isTokenChar)
        }
        return bytes[..<space].allSatisfy(isTokenChar)
    }

    private static func isTokenChar(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7f && byte != UInt8(ascii: ":") }

    private static func lineEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 0x0d && bytes[index + 1] == 0x0a { return index }
        return nil
    }

    /// Consumes `count` framing bytes.
    private mutating func consume(_ count: Int) {
        buffer.removeFirst(count)
        bufferOffset += count
    }

    /// Consumes `count` body bytes, keeping them unless the body was refused.
    private mutating func take(_ count: Int) {
        if keepsBody {
            current?.body += buffer[..<count]
        } else {
            skipped[Self.tooLarge, default: 0] += count
        }
        buffer.removeFirst(count)
        bufferOffset += count
    }

    private mutating func refuseBody(_ length: Int, into outputs: inout [Output]) {
        outputs.append(
            .finding(
                HTTPRules.bodyTooLarge.finding(
                    "a body of \(length) bytes, over \(limits.maxMessageSize)", at: bufferOffset)))
        keepsBody = false
        if let body = current?.body { skipped[Self.tooLarge, default: 0] += body.count }
        current?.body = []
        current?.bodyIncomplete = true
    }

    private mutating func finishMessage(into outputs: inout [Output]) {
        guard var message = current else { return }
        current = nil
        message.wireLength = bufferOffset - message.offset
        outputs.append(.message(message))
    }

    private mutating func fail(_ finding: Finding?, into outputs: inout [Output]) {
        if let finding { outputs.append(.finding(finding)) }
        skipped[Self.unreadable, default: 0] += buffer.count
        bufferOffset += buffer.count
        buffer = []
        state = .failed
    }
}
