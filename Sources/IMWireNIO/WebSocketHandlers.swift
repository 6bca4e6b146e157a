import IMWireCompression
import IMWireCore
import IMWireWebSocket
import NIOCore

/// Which end of a WebSocket connection a pipeline is: a client reads the server's frames
/// (unmasked) and masks its own, a server the other way round.
public enum WebSocketRole: Sendable, Hashable {
    case client
    case server

    /// The direction of the frames this end reads (`.send`: the client's).
    var inbound: Direction { self == .server ? .send : .receive }
    /// The direction of the frames this end writes.
    var outbound: Direction { self == .server ? .receive : .send }
}

/// What the WebSocket handlers of one connection need: the end they are, permessage-deflate as
/// the opening handshake negotiated it, the codecs' limits.
public struct WebSocketChannelConfiguration: Sendable, Hashable {
    public var role: WebSocketRole
    /// permessage-deflate in force (RFC 7692), nil when the handshake did not negotiate it.
    public var permessageDeflate: PerMessageDeflateParameters?
    public var limits: Limits
    /// Deliver every frame as `.frame` (off: only ping and pong frames, besides messages,
    /// closes and findings).
    public var emitsFrames: Bool
    /// Answer each ping with a pong carrying its payload (RFC 6455 §5.5.2).
    public var answersPings: Bool
    /// zlib level for the messages this end compresses (-1: zlib's default).
    public var compressionLevel: Int

    public init(
        role: WebSocketRole, permessageDeflate: PerMessageDeflateParameters? = nil, limits: Limits = .default,
        emitsFrames: Bool = false, answersPings: Bool = true, compressionLevel: Int = -1
    ) {
        self.role = role
        self.permessageDeflate = permessageDeflate
        self.limits = limits
        self.emitsFrames = emitsFrames
        self.answersPings = answersPings
        self.compressionLevel = compressionLevel
    }

    /// The configuration for the server's `Sec-WebSocket-Extensions` response value (nil or a
    /// value without a valid permessage-deflate item: no compression).
    public init(role: WebSocketRole, extensionsHeader: String?, limits: Limits = .default) {
        self.init(
            role: role, permessageDeflate: extensionsHeader.flatMap(PerMessageDeflateParameters.init(responseHeader:)),
            limits: limits)
    }
}

/// Decodes the bytes of an upgraded WebSocket connection into `WebSocketEvent`s with IMWire's
/// strict decoder: frames (when asked), whole messages (joined, inflated under
/// permessage-deflate), close frames and findings, with the codecs' limits. The first violation
/// that fails the connection (RFC 6455 §7.1.7) is answered as a conforming peer does: a close
/// frame with the rule's close code (1002, 1007, 1009...), then the channel closes; nothing the
/// peer sends traps. A ping is answered with a pong and a close frame with a close frame echoing
/// its code, as RFC 6455 §5.5 asks. Put a `WebSocketFrameWriter` after it to send messages: the
/// two share the close handshake (RFC 6455 §5.5.1), so a close this end sent through the writer
/// is not sent again when the peer's close answers it, and after the reader's own close the
/// writer sends nothing more.
public final class WebSocketFrameReader: ChannelDuplexHandler {
    /// Bytes as read from the connection.
    public typealias InboundIn = ByteBuffer
    /// Messages, closes, findings (and frames when asked), in stream order.
    public typealias InboundOut = WebSocketEvent
    /// The writer's frames, passed on.
    public typealias OutboundIn = ByteBuffer
    /// Those, and the pongs and close frames it answers with.
    public typealias OutboundOut = ByteBuffer

    public let configuration: WebSocketChannelConfiguration
    private var decoder: WebSocketStreamDecoder
    /// Control frames this end sends (never compressed, masked by a client).
    private let control: WebSocketMessageEncoder
    private var events: [WebSocketEvent] = []
    /// This end sent its close frame (an answer or a failure): nothing more is written.
    private var sentClose = false
    private var closing = false

    /// The first violation that failed the connection, once one did.
    public var failure: WebSocketFailure? { decoder.failure }

    public init(_ configuration: WebSocketChannelConfiguration) {
        self.configuration = configuration
        decoder = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(
                direction: configuration.role.inbound, permessageDeflate: configuration.permessageDeflate,
                limits: configuration.limits,
                emitsFrames: configuration.emitsFrames))
        // Without deflate the encoder makes no zlib stream and cannot fail.
        control =
            (try? WebSocketMessageEncoder(
                direction: configuration.role.outbound, maskingKey: { UInt32.random(in: .min ... .max) }))!
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let buffer = unwrapInboundIn(data)
        events.removeAll(keepingCapacity: true)
        buffer.withUnsafeReadableBytes { raw in decoder.feed(raw) { events.append($0) } }
        deliver(context: context)
    }

    /// The writer sent a close frame (`WebSocketCloseSent`): the peer's close is its answer.
    public func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is WebSocketCloseSent else { return context.triggerUserOutboundEvent(event, promise: promise) }
        sentClose = true
        promise?.succeed()
    }

    /// A close this end asks for (the application's, or another handler's on a violation of its
    /// own) ends reading: what the read that led to it still holds is not delivered, and the end
    /// of the stream is not reported (the peer did not end it). Only a close of the output goes on reading.
    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode != .output { closing = true }
        context.close(mode: mode, promise: promise)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        if !closing {
            events.removeAll(keepingCapacity: true)
            decoder.finish { events.append($0) }
            deliver(context: context)
        }
        context.fireChannelInactive()
    }

    private func deliver(context: ChannelHandlerContext) {
        let batch = events
        events.removeAll(keepingCapacity: true)
        for event in batch {
            if closing { return }
            context.fireChannelRead(wrapInboundOut(event))
            switch event {
            case .frame(let frame) where frame.opcode == .ping && configuration.answersPings && !sentClose:
                write(control.control(.pong, frame.payload), context: context)
            case .close(let close):
                // Echo the peer's code (RFC 6455 §5.5.1), or none when it sent none; then close.
                sendClose(control.close(close.code.flatMap { $0.isValidOnWire ? $0 : nil }), context: context)
                shutDown(context: context)
            case .finding:
                if let failure = decoder.failure {
                    sendClose(control.close(failure.closeCode, reason: failure.rule.rawValue), context: context)
                    context.fireErrorCaught(
                        IMWireError.violation(.webSocketViolation, failure.finding, closeCode: failure.closeCode))
                    shutDown(context: context)
                }
            default: break
            }
        }
        context.flush()
    }

    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }

    /// This end's close frame, unless it sent one already; the writer is told it has gone.
    private func sendClose(_ frame: [UInt8], context: ChannelHandlerContext) {
        guard !sentClose else { return }
        sentClose = true
        write(frame, context: context)
        context.fireUserInboundEventTriggered(WebSocketCloseSent())
    }

    private func shutDown(context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        context.flush()
        context.close(promise: nil)
    }
}

extension IMWireError.Code {
    /// What a `WebSocketFrameReader` fires down the pipeline when the peer's bytes fail the
    /// connection, before it closes it: `findings` holds the finding, `closeCode` the code sent.
    public static let webSocketViolation = Self("websocket.violation")
    /// What a socket.io packet handler fires down the pipeline when a message of the peer is not
    /// a packet the protocol allows (a finding of severity error), before it closes: `findings`
    /// holds the finding, `closeCode` the code sent (the rule's when it has one, 1009 for
    /// attachments over the message limit, else 1007), the reason what the message decoded to.
    public static let socketIOViolation = Self("socketio.violation")
    /// What an `MQTTPacketReader` fires down the pipeline before it closes the connection:
    /// `findings` holds the finding, the reason the packet's summary.
    public static let mqttViolation = Self("mqtt.violation")
}

extension IMWireError {
    /// The error a handler fires down the pipeline when the peer's bytes fail the connection:
    /// `RULE at offset N: [what the message decoded to: ]the finding's message`.
    package static func violation(_ code: Code, _ finding: Finding, packet: String? = nil, closeCode: CloseCode? = nil)
        -> IMWireError
    {
        IMWireError(
            code, packet.map { "\($0): \(finding.message)" } ?? finding.message, summary: finding.ruleID.rawValue,
            offset: finding.offset, findings: [finding], number: closeCode.map { Int($0.rawValue) })
    }

    /// For a violation a WebSocket or socket.io handler fired: the close code it sent. Nil for
    /// other errors.
    public var closeCode: CloseCode? {
        guard code == .webSocketViolation || code == .socketIOViolation, let number else { return nil }
        return CloseCode(UInt16(truncatingIfNeeded: number))
    }

    /// Whether a handler fired it because the peer's bytes failed the connection (which the
    /// handler closes itself).
    package var isViolation: Bool {
        code == .webSocketViolation || code == .socketIOViolation || code == .mqttViolation
    }
}

/// What a WebSocket end writes: a data message (compressed under permessage-deflate unless told
/// not to, fragmented when asked), a control frame, or a raw frame exactly as given.
public enum WebSocketOutbound: Sendable, Hashable {
    case message(WebSocketMessage.Kind, [UInt8], compress: Bool = true)
    case ping([UInt8])
    case pong([UInt8])
    case close(CloseCode?, reason: String = "")
    /// One frame as given (its masking key, RSV bits and opcode as they are): for tests of peers.
    case frame(WebSocketFrameHeader, [UInt8])

    /// `.frame`: sent whatever the close handshake's state.
    var isRawFrame: Bool {
        if case .frame = self { true } else { false }
    }
}

/// Encodes `WebSocketOutbound` values as frames for the configured end: masked with a fresh
/// random key per frame by a client, compressed with permessage-deflate's negotiated window and
/// context takeover, fragmented at `fragmentSize` when set.
///
/// Once this end has sent its close frame, through the writer or by the `WebSocketFrameReader`
/// before it (its echo of the peer's close, its close on a violation), a message, a ping, a
/// pong or a second close is not sent: its write fails with `ChannelError.outputClosed` (RFC
/// 6455 §5.5.1). A `.frame` goes out as given, whatever the state.
public final class WebSocketFrameWriter: ChannelDuplexHandler {
    /// The reader's events, passed on.
    public typealias InboundIn = WebSocketEvent
    /// What to send.
    public typealias OutboundIn = WebSocketOutbound
    /// Its frames, as bytes.
    public typealias OutboundOut = ByteBuffer

    public let configuration: WebSocketChannelConfiguration
    private let encoder: WebSocketMessageEncoder
    /// This end sent its close frame: the close handshake's half the reader and the writer share.
    private var sentClose = false

    public init(_ configuration: WebSocketChannelConfiguration, fragmentSize: Int? = nil) throws(IMWireError) {
        self.configuration = configuration
        encoder = try WebSocketMessageEncoder(
            direction: configuration.role.outbound, permessageDeflate: configuration.permessageDeflate,
            compressionLevel: configuration.compressionLevel, fragmentSize: fragmentSize,
            maskingKey: { UInt32.random(in: .min ... .max) })
    }

    /// The reader sent its close frame (`WebSocketCloseSent`).
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is WebSocketCloseSent else { return context.fireUserInboundEventTriggered(event) }
        sentClose = true
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let outbound = unwrapOutboundIn(data)
        if sentClose, !outbound.isRawFrame {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        var bytes: [UInt8] = []
        switch outbound {
        case .message(let kind, let payload, let compress):
            do { try encoder.encodeMessage(kind, payload, compress: compress, into: &bytes) } catch {
                promise?.fail(error)
                return
            }
        case .ping(let payload): bytes = encoder.control(.ping, payload)
        case .pong(let payload): bytes = encoder.control(.pong, payload)
        case .close(let code, let reason):
            bytes = encoder.close(code, reason: reason)
            sentClose = true
            // Tell the reader, which answers the peer's close only when this end has not closed.
            context.triggerUserOutboundEvent(WebSocketCloseSent(), promise: nil)
        case .frame(let header, let payload): bytes = WebSocketFrameEncoder.frame(header, payload: payload)
        }
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: promise)
    }
}

/// The event a `WebSocketFrameWriter` sends down the pipeline to the `WebSocketFrameReader`
/// before it writes a close frame, and the reader up the pipeline to the writer when it writes one.
struct WebSocketCloseSent: Sendable {}
