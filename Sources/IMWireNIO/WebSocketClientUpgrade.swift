import IMWireCore
import IMWireWebSocket
import NIOCore

extension ChannelPipeline.SynchronousOperations {
    /// Makes the channel a WebSocket client: sends `handshake`'s upgrade request once the channel
    /// is active, validates the server's answer with it (status 101, `Sec-WebSocket-Accept`, the
    /// subprotocol, permessage-deflate as offered: `WebSocketClientHandshake.validate`), then puts
    /// a client-role `WebSocketFrameReader` and `WebSocketFrameWriter` in its place, configured
    /// with what was agreed, and calls `upgrade` to add the handlers that go after them.
    ///
    /// ```swift
    /// let handshake = try WebSocketClientHandshake(host: "127.0.0.1:8080", protocols: ["lc.protobuf2.3"])
    /// let upgraded = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: 8080) { channel in
    ///     channel.eventLoop.makeCompletedFuture {
    ///         try channel.pipeline.syncOperations.addWebSocketClientUpgrade(handshake) { channel, negotiation in
    ///             try NIOAsyncChannel<WebSocketEvent, WebSocketOutbound>(wrappingChannelSynchronously: channel)
    ///         }
    ///     }
    /// }
    /// let webSocket = try await upgraded.get()
    /// ```
    ///
    /// - Parameters:
    ///   - handshake: the request: host, target, subprotocols, permessage-deflate offers, headers.
    ///   - limits: the WebSocket handlers' limits.
    ///   - requiresSubprotocol: when `handshake` offers subprotocols, a server that chooses none
    ///     fails the upgrade (RFC 6455 §4.1 lets the client fail the connection then); false
    ///     accepts the answer, and `negotiation.subprotocol` is nil.
    ///   - upgrade: called on the event loop once the WebSocket handlers are in place, with the
    ///     channel and what the handshake agreed: add the handlers that read the messages (a
    ///     `DialectMessageHandler`, a socket.io handler, the application's) or wrap the channel
    ///     in a `NIOAsyncChannel`, and return what the caller gets. Bytes the server sent right
    ///     after its answer are read only after it returns.
    /// - Returns: `upgrade`'s value once the server's answer is validated. It fails with an
    ///   `IMWireError` coded `webSocketHandshakeResponse` when the answer refuses or breaks the
    ///   upgrade, when the connection closes before the answer is whole
    ///   (`WS.HANDSHAKE-TRUNCATED`) or when the answer's head exceeds 16 KiB, or with the error
    ///   `upgrade` or the channel raised; the channel is then closed.
    public func addWebSocketClientUpgrade<Upgraded: Sendable>(
        _ handshake: WebSocketClientHandshake, limits: Limits = .default, requiresSubprotocol: Bool = true,
        upgrade: @escaping (Channel, WebSocketNegotiation) throws -> Upgraded
    ) throws -> EventLoopFuture<Upgraded> {
        let handler = WebSocketClientUpgradeHandler(
            handshake: handshake, limits: limits, requiresSubprotocol: requiresSubprotocol,
            promise: eventLoop.makePromise(of: Upgraded.self),
            upgrade: upgrade)
        try addHandler(handler)
        return handler.promise.futureResult
    }
}

/// `addWebSocketClientUpgrade`'s handler: the request out, the answer's head in, then the
/// WebSocket handlers in its place.
final class WebSocketClientUpgradeHandler<Upgraded: Sendable>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let promise: EventLoopPromise<Upgraded>
    private let handshake: WebSocketClientHandshake
    private let limits: Limits
    private let requiresSubprotocol: Bool
    private let upgrade: (Channel, WebSocketNegotiation) throws -> Upgraded
    private var sent = false
    /// The promise is kept or broken: what is read after is the WebSocket handlers' (or nobody's).
    private var done = false
    private var head: [UInt8] = []

    init(
        handshake: WebSocketClientHandshake, limits: Limits, requiresSubprotocol: Bool,
        promise: EventLoopPromise<Upgraded>,
        upgrade: @escaping (Channel, WebSocketNegotiation) throws -> Upgraded
    ) {
        self.handshake = handshake
        self.limits = limits
        self.requiresSubprotocol = requiresSubprotocol
        self.promise = promise
        self.upgrade = upgrade
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendRequest(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Taken out before the answer (the channel torn down, or by hand): the promise is not left pending.
        if !done {
            done = true
            promise.fail(ChannelError.inappropriateOperationForState)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendRequest(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        head += unwrapInboundIn(data).readableBytesView
        guard let end = HTTPHead.endOfHead(head) else {
            // The handshake's own parse names the fault (a head over 16 KiB).
            if head.count > WebSocketHandshake.maxHeadLength { fail(answerError(), context: context) }
            return
        }
        let negotiation: WebSocketNegotiation
        do { negotiation = try handshake.validate(response: Array(head[..<end])) } catch {
            return fail(error, context: context)
        }
        if requiresSubprotocol, !handshake.protocols.isEmpty, negotiation.subprotocol == nil {
            let findings = negotiation.findings.filter { $0.ruleID == WebSocketRules.subprotocolNotChosen.id }
            return fail(
                IMWireError.webSocketHandshake(
                    request: false,
                    findings: findings.isEmpty
                        ? [
                            WebSocketRules.subprotocolNotChosen.finding(
                                "none of \(handshake.protocols.joined(separator: ", ")) was chosen", at: 0)
                        ]
                        : findings, status: 101), context: context)
        }
        var deflate = negotiation.permessageDeflate
        // RFC 7692 §7.1.1.1: a client that offered client_no_context_takeover keeps to it, whether
        // or not the server's answer repeats it.
        if handshake.deflateOffers.contains(where: \.clientNoContextTakeover) {
            deflate?.clientNoContextTakeover = true
        }
        let configuration = WebSocketChannelConfiguration(role: .client, permessageDeflate: deflate, limits: limits)
        let upgraded: Upgraded
        do {
            let handlers: [ChannelHandler] = [
                WebSocketFrameReader(configuration), try WebSocketFrameWriter(configuration),
            ]
            try context.pipeline.syncOperations.addHandlers(handlers, position: .after(self))
            upgraded = try upgrade(context.channel, negotiation)
        } catch {
            return fail(error, context: context)
        }
        done = true
        let rest = head[end...]
        head = []
        promise.succeed(upgraded)
        if !rest.isEmpty { context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: rest))) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done { fail(answerError(), context: context) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !done else { return context.fireErrorCaught(error) }
        fail(error, context: context)
    }

    private func sendRequest(context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: handshake.request)), promise: nil)
    }

    /// What the handshake finds in an answer with no end to its head (cut short, or too long).
    private func answerError() -> Error {
        do {
            _ = try handshake.validate(response: head)
        } catch {
            return error
        }
        return IMWireError.webSocketHandshake(
            request: false, findings: [WebSocketRules.handshakeTruncated.finding("no answer", at: nil)])
    }

    private func fail(_ error: Error, context: ChannelHandlerContext) {
        guard !done else { return }
        done = true
        head = []
        promise.fail(error)
        context.close(promise: nil)
    }
}
