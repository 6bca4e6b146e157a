import IMWireCore
import IMWireSocketIO
import IMWireWebSocket
import NIOCore

/// Fails the connection for `finding`: a close frame with its code and the rule's id as the
/// reason (through the `WebSocketFrameWriter` before the handler), the violation down the
/// pipeline, then the channel closes.
private func failSocketIO(_ finding: Finding, packet: String, context: ChannelHandlerContext) {
    let code = WebSocketRules.closeCode(for: finding.ruleID) ?? .invalidPayloadData
    context.writeAndFlush(NIOAny(WebSocketOutbound.close(code, reason: finding.ruleID.rawValue)), promise: nil)
    context.fireErrorCaught(IMWireError.violation(.socketIOViolation, finding, packet: packet, closeCode: code))
    context.close(promise: nil)
}

/// What an `EngineIOPacketHandler` sends: an engine.io packet as it is, or a socket.io packet in
/// an engine.io message packet (`42[…]`).
public enum EngineIOOutbound: Sendable, Hashable {
    /// One engine.io packet: a text message, or a binary one for binary data not sent as base64.
    case engineIO(EngineIOPacket)
    /// A socket.io packet as socket.io-parser 3.x writes it; a BINARY_EVENT or BINARY_ACK
    /// announces as many attachments as it has `buffers`, which follow as binary message packets.
    case socketIO(SocketIOPacket)
}

/// engine.io 3 / socket.io protocol 4 (JMessage's web SDK) over the messages of a WebSocket
/// pipeline (after a `WebSocketFrameReader` and a `WebSocketFrameWriter`).
///
/// Inbound, each WebSocket message is decoded with `EngineIOMessage.decode` (IMWireSocketIO,
/// the codecs' limits) and goes on as an `EngineIOMessage` with its findings; a BINARY_EVENT or
/// BINARY_ACK waits for its attachments (the binary message packets that follow it) and goes on
/// once with them in `socketIO.buffers`. The first finding of severity error (a message that is
/// no engine.io packet, a socket.io packet that does not decode, attachments missing or
/// unexpected, attachments together over `Limits.maxMessageSize`) fails the connection: a close
/// frame with code 1007 (1009 for the size), an `IMWireError` (`socketIOViolation`) down the
/// pipeline, then the channel closes; nothing the peer sends traps. Other WebSocket events (pings, closes, frame
/// findings) are left to the WebSocket reader, which answers them.
///
/// Outbound, `EngineIOOutbound` values become WebSocket messages (`WebSocketOutbound.message`).
public final class EngineIOPacketHandler: ChannelDuplexHandler {
    /// The WebSocket reader's events; only messages are read.
    public typealias InboundIn = WebSocketEvent
    /// Each engine.io packet, decoded, with its findings (a binary socket.io packet with its attachments).
    public typealias InboundOut = EngineIOMessage
    /// A packet to send.
    public typealias OutboundIn = EngineIOOutbound
    /// Its WebSocket messages, and the close frame of a violation.
    public typealias OutboundOut = WebSocketOutbound

    /// The codecs' limits (JSON depth, message size).
    public let limits: Limits
    /// A binary socket.io packet waiting for its attachments, and their bytes so far.
    private var waiting: EngineIOMessage?
    private var waitingBytes = 0
    private var closing = false

    /// A handler that reads with `limits`.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing, case .message(let message) = unwrapInboundIn(data) else { return }
        let decoded = EngineIOMessage.decode(message.payload, binaryFrame: message.kind == .binary, limits: limits)
        if let violation = decoded.findings.first(where: { $0.severity == .error }) {
            return fail(violation, packet: decoded.summary, context: context)
        }
        guard let packet = decoded.engineIO else { return }
        // Attachments of a binary packet arrive as binary message packets.
        if packet.type == .message, let data = packet.binary {
            guard var pending = waiting, var socketIO = pending.socketIO else {
                let finding = SocketIORules.sioBinaryUnexpected.finding(
                    "a binary message with no binary packet waiting", at: 0)
                return fail(finding, packet: decoded.summary, context: context)
            }
            waitingBytes += data.count
            guard waitingBytes <= limits.maxMessageSize else {
                let finding = WebSocketRules.messageTooLarge.finding(
                    "\(socketIO.summary): attachments of over \(limits.maxMessageSize) bytes", at: 0)
                return fail(finding, packet: pending.summary, context: context)
            }
            socketIO.buffers.append(data)
            pending.socketIO = socketIO
            if socketIO.buffers.count >= socketIO.attachments ?? 0 {
                waiting = nil
                context.fireChannelRead(wrapInboundOut(pending))
            } else {
                waiting = pending
            }
            return
        }
        if let pending = waiting, let socketIO = pending.socketIO {
            let finding = SocketIORules.sioAttachmentMissing.finding(
                """
                \(socketIO.summary) got \(socketIO.buffers.count) of \
                \(socketIO.attachments ?? 0) attachments before \(decoded.summary)
                """, at: 0)
            return fail(finding, packet: pending.summary, context: context)
        }
        if let socketIO = decoded.socketIO, socketIO.type.isBinary, (socketIO.attachments ?? 0) > 0 {
            waiting = decoded
            waitingBytes = 0
            return
        }
        context.fireChannelRead(wrapInboundOut(decoded))
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .engineIO(let packet):
            let (bytes, binaryFrame) = packet.encoded
            context.write(wrapOutboundOut(.message(binaryFrame ? .binary : .text, bytes)), promise: promise)
        case .socketIO(var packet):
            let buffers = packet.type.isBinary ? packet.buffers : []
            if packet.type.isBinary { packet.attachments = buffers.count }
            context.write(
                wrapOutboundOut(.message(.text, EngineIOMessage.encode(packet))),
                promise: buffers.isEmpty ? promise : nil)
            for (index, buffer) in buffers.enumerated() {
                let bytes = EngineIOPacket(type: .message, payload: .binary(buffer)).encoded.bytes
                context.write(
                    wrapOutboundOut(.message(.binary, bytes)), promise: index == buffers.count - 1 ? promise : nil)
            }
        }
    }

    private func fail(_ finding: Finding, packet: String, context: ChannelHandlerContext) {
        closing = true
        waiting = nil
        failSocketIO(finding, packet: packet, context: context)
    }
}

/// socket.io 0.9 / protocol 1 (NIM's web SDK) over the messages of a WebSocket pipeline (after
/// a `WebSocketFrameReader` and a `WebSocketFrameWriter`).
///
/// Inbound, each WebSocket message is decoded with `SocketIO09Decoder` (IMWireSocketIO, the
/// codecs' limits): one packet, or several in the `\u{fffd}<length>\u{fffd}` framing, go on
/// together as one `SocketIO09Decoded` with the message's findings. Messages are read as text
/// whatever their opcode (the codec reports text that is not UTF-8). The first finding of
/// severity error (no `type:` prefix, an unknown type, JSON that does not parse, a framing
/// length that overruns) fails the connection: a close frame with code 1007, an `IMWireError`
/// (`socketIOViolation`) down the pipeline, then the channel closes; nothing the peer sends
/// traps. Other WebSocket events are left to the WebSocket reader.
///
/// Outbound, each `SocketIO09Packet` becomes one text message as the 0.9.11 client encodes it.
public final class SocketIO09PacketHandler: ChannelDuplexHandler {
    /// The WebSocket reader's events; only messages are read.
    public typealias InboundIn = WebSocketEvent
    /// The packets of each message, decoded, with their findings.
    public typealias InboundOut = SocketIO09Decoded
    /// A packet to send.
    public typealias OutboundIn = SocketIO09Packet
    /// Its WebSocket message, and the close frame of a violation.
    public typealias OutboundOut = WebSocketOutbound

    /// The codecs' limits (JSON depth, framing lengths).
    public let limits: Limits
    private var closing = false

    /// A handler that reads with `limits`.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing, case .message(let message) = unwrapInboundIn(data) else { return }
        let decoded = SocketIO09Decoder.decode(message.payload, limits: limits)
        if let violation = decoded.findings.first(where: { $0.severity == .error }) {
            closing = true
            let summary =
                decoded.packets.isEmpty ? "undecodable" : decoded.packets.map(\.summary).joined(separator: "; ")
            return failSocketIO(violation, packet: summary, context: context)
        }
        context.fireChannelRead(wrapInboundOut(decoded))
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let text = unwrapOutboundIn(data).encoded
        context.write(wrapOutboundOut(.message(.text, Array(text.utf8))), promise: promise)
    }
}
