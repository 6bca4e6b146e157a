import IMWireCore
import IMWireNIO
import IMWireWebSocket
import NIOCore

/// The start of every connection but a refused one: hands a connection whose first byte is not
/// HTTP's to the cloud's raw link when it has one (yun2win's MQTT on plain TCP); else reads the
/// client's HTTP request (its head, and the body its `Content-Length` announces) and answers it
/// as the dialect's cloud (`ServedCloud`) says: a long-polling request when the cloud likes (NIM's
/// xhr-polling: the answer may come later); a plain request (LeanCloud's router) with the cloud's
/// answer, or 404; a WebSocket upgrade the cloud takes with 101, after which the WebSocket
/// handlers and the cloud's link handlers take the connection over; a head or body that is bad
/// or over the limit, or an upgrade the cloud refuses, with 400; then a close.
final class HTTPOpening: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let id: Int
    private let number: Int
    private let cloud: any ServedCloud
    private let limits: ServeLimits
    private let tap: ServeTap
    private let control: (_ method: String, _ path: String) -> (answer: HTTPAnswer, then: (@Sendable () -> Void)?)?
    private var buffered: [UInt8] = []
    /// How much of `buffered` was searched for the head's end (a head sent a byte at a time is
    /// searched once, not once per byte).
    private var searched = 0
    /// Where the head ends in `buffered`, once read.
    private var headEnd: Int?
    private var done = false
    /// A long poll's answer, while the cloud holds it.
    private var held: HeldAnswer?
    private var timeout: Scheduled<Void>?

    /// `control`: the answer to a request of the case-switching protocol, and what to do once it is written.
    init(
        id: Int, number: Int, cloud: any ServedCloud, limits: ServeLimits, tap: ServeTap,
        control: @escaping (_ method: String, _ path: String) -> (answer: HTTPAnswer, then: (@Sendable () -> Void)?)?
    ) {
        self.id = id
        self.number = number
        self.cloud = cloud
        self.limits = limits
        self.tap = tap
        self.control = control
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // A head sent a byte at a time (slowloris), or nothing at all, holds a connection of the
        // server's bounded number: it gets `headSeconds` to arrive whole.
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timeout = context.eventLoop.scheduleTask(in: .seconds(Int64(limits.headSeconds))) {
            let (opening, context) = bound.value
            guard !opening.done else { return }
            opening.answer(408, "no whole request within \(opening.limits.headSeconds) s", context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timeout?.cancel()
        held = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A held poll whose client went away: the cloud keeps what it would have sent.
        held?.closed()
        held = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        buffered += unwrapInboundIn(data).readableBytesView
        // No HTTP at all: a protocol on plain TCP the cloud serves (yun2win's MQTT), told by its first byte.
        if searched == 0, let first = buffered.first,
            let raw = cloud.rawLinkHandlers(id: id, number: number, firstByte: first)
        {
            return handOver(to: raw, rest: buffered, context: context)
        }
        // An HTTP request starts with its method, in capitals: anything else is answered at once,
        // not after the head's end (which garbage may never send).
        if searched == 0, let first = buffered.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
            return answer(
                400, "not an HTTP request: it starts with the byte 0x\(String(first, radix: 16))", context: context)
        }
        if headEnd == nil {
            let from = max(0, searched - 3)
            searched = buffered.count
            headEnd = buffered[from...].withUnsafeBytes({ HTTPHead.endOfHead($0) }).map({ $0 + from })
        }
        guard let end = headEnd else {
            if buffered.count > limits.headBytes {
                answer(400, "request head over \(limits.headBytes) bytes", context: context)
            }
            return
        }
        let head = Array(buffered[..<end])
        var headFindings: [Finding] = []
        guard let parsed = HTTPHead.parse(head, baseOffset: 0, maxLength: limits.headBytes, findings: &headFindings),
            headFindings.isEmpty,
            parsed.startLine.count == 3, parsed.startLine[2].hasPrefix("HTTP/1.")
        else {
            return answer(400, headFindings.first?.message ?? "not an HTTP/1.1 request line", context: context)
        }
        let method = parsed.startLine[0]
        let target = parsed.startLine[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(target.first ?? "")
        let query = target.count > 1 ? String(target[1]) : ""
        if parsed.value("Upgrade")?.lowercased() != "websocket" {
            // The body, whole: a request is answered once it has arrived.
            guard parsed.value("Transfer-Encoding") == nil else {
                return answer(400, "a chunked request body is not read: send Content-Length", context: context)
            }
            let announced = parsed.value("Content-Length") ?? "0"
            guard let length = Int(announced), length >= 0, length <= limits.messageBytes else {
                return answer(
                    400, "Content-Length \(announced) is not a length of at most \(limits.messageBytes) bytes",
                    context: context)
            }
            guard buffered.count - end >= length else { return }
            let body = Array(buffered[end..<(end + length)])
            // This server as the client reached it.
            if let (answer, then) = control(method, path) {
                cloud.scenario.release(number)
                tap.discard()
                return self.answer(
                    answer.status, answer.body, contentType: answer.contentType, context: context, then: then)
            }
            let held = HeldAnswer(
                write: { [weak self] answer in
                    self?.answer(answer.status, answer.body, contentType: answer.contentType, context: context)
                },
                close: { context.close(promise: nil) })
            let request = PolledRequest(
                method: method, path: path, query: query, body: body, connection: id, number: number,
                client: context.channel.remoteAddress?.ipAddress ?? "", eventLoop: context.eventLoop)
            if cloud.poll(request, answer: held) {
                done = true
                tap.commit()
                if !held.isDone { self.held = held }
                return
            }
            cloud.scenario.release(number)
            let server =
                "\(context.channel.localAddress?.ipAddress ?? "127.0.0.1"):\(context.channel.localAddress?.port ?? 0)"
            guard let answer = cloud.answer(method: method, path: path, query: query, server: server, connection: id)
            else {
                return self.answer(404, "not found: \(method) \(path)", context: context)
            }
            return self.answer(answer.status, answer.body, contentType: answer.contentType, context: context)
        }
        let rest = Array(buffered[end...])
        var findings: [Finding] = []
        guard let request = WebSocketHandshake.parseRequest(head, findings: &findings) else {
            return answer(400, findings.first?.message ?? "bad upgrade request", context: context)
        }
        let errors = findings.filter { $0.severity == .error }
        guard errors.isEmpty, let key = request.key else {
            return answer(400, errors.first?.message ?? "no Sec-WebSocket-Key", context: context)
        }
        let subprotocol: String?
        switch cloud.upgrade(path: path, query: query, protocols: request.protocols, connection: id) {
        case .success(let chosen): subprotocol = chosen
        case .failure(let refusal): return answer(400, refusal.reason, context: context)
        }
        done = true
        let response =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n"
            + (subprotocol.map { "Sec-WebSocket-Protocol: \($0)\r\n" } ?? "") + "\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)), promise: nil)
        var socketLimits = Limits.default
        socketLimits.maxMessageSize = limits.messageBytes
        let configuration = WebSocketChannelConfiguration(
            role: .server, limits: socketLimits, answersPings: cloud.answersWebSocketPings)
        let handlers: [ChannelHandler]
        do {
            let writer = try WebSocketFrameWriter(configuration)
            handlers =
                [WebSocketFrameReader(configuration), writer]
                + cloud.linkHandlers(id: id, number: number, subprotocol: subprotocol)
        } catch {
            context.close(promise: nil)
            return
        }
        handOver(to: handlers, rest: rest, context: context)
    }

    /// Puts `handlers` after this one, gives them the bytes read past the opening, and leaves.
    private func handOver(to handlers: [ChannelHandler], rest: [UInt8], context: ChannelHandlerContext) {
        done = true
        tap.commit()
        do { try context.pipeline.syncOperations.addHandlers(handlers, position: .after(self)) } catch {
            context.close(promise: nil)
            return
        }
        // The link may speak first (engine.io's handshake), now that every handler is in place.
        context.fireUserInboundEventTriggered(LinkStarted())
        // Bytes that came with the head go to the new handlers first (a removed handler's
        // context passes nothing on).
        if !rest.isEmpty { context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: rest))) }
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }

    private func answer(
        _ status: Int, _ body: String, contentType: String = "text/plain; charset=utf-8",
        context: ChannelHandlerContext,
        then: (@Sendable () -> Void)? = nil
    ) {
        done = true
        tap.commit()
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found", 408: "Request Timeout"][status] ?? "Error"
        let text =
            """
            HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\n\
            Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)
            """
        // Half-close and read what the client still sends until its end closes the channel (or
        // 2 s pass): a close with its bytes unread would reset the connection before it read this.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            then?()
            channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

/// Fired through a link's handlers once they are all in place after the upgrade.
struct LinkStarted {}
