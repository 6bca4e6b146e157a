import IMWireCore
import IMWireDialect
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireRegistry
import IMWireWebSocket
import IMWireYun2win
import NIOCore

/// One WebSocket message of a connection as its dialect read it: the message, what it decoded
/// to and the findings it produced (codec and session, located at its frame index, time and
/// direction).
public struct DialectMessage: Sendable, Hashable {
    /// The message as it crossed (`.send`: client to server).
    public var message: WireMessage
    /// Its number on the connection, both directions counted from 1 (the findings' frame index).
    public var frameIndex: Int
    /// When it was observed, in microseconds of the handler's clock.
    public var timeMicros: Int64
    /// A one-line label (`get_groups_list rid=130`), when the dialect context names messages.
    public var summary: String?
    /// The canonical JSON `imwire decode` prints, when the dialect context describes messages.
    public var canonicalJSON: JSONValue?
    /// Every finding the message produced.
    public var findings: [Finding]
    /// What the dialect decoded the message to, typed; nil when it holds nothing typed (a
    /// LeanCloud heartbeat `{}`, bytes that are no command).
    public var decoded: Decoded?

    /// The direction the message travelled in.
    public var direction: Direction { message.direction }

    /// A message as each dialect's codec decodes it (the values `imwire decode` prints as JSON).
    public enum Decoded: Sendable, Hashable {
        /// A LeanCloud `GenericCommand`.
        case leancloud(LCGenericCommand)
        /// A NIM message: its socket.io 0.9 packets and the NIM request or response each carries.
        case nim(NIMMessage)
        /// A JMessage message: its engine.io and socket.io packets and the JMessage event.
        case jmessage(JMessageMessage)
        /// The yun2win MQTT packets the bytes completed (none while a packet is still partial).
        case yun2win([Yun2winDecodedPacket])
    }
}

/// What a `DialectMessageHandler` delivers: each message with its findings, then, when the
/// connection ends, what the dialect still had pending.
public enum DialectEvent: Sendable, Hashable {
    /// A message, read or written, with its findings.
    case message(DialectMessage)
    /// The connection closed: findings about what it left unfinished (requests never
    /// answered, a login never acknowledged).
    case finished([Finding])
}

/// Runs one dialect's `DialectConnection` (the same code `imwire check` and `imwire proxy` use,
/// made from the registry `Dialects`) over the messages of a WebSocket pipeline, after a
/// `WebSocketFrameReader` and a `WebSocketFrameWriter`.
///
/// Both directions are observed: each WebSocket message read goes on as a `DialectEvent.message`
/// with its decoded form and findings, and each message written through the handler
/// (`WebSocketOutbound.message`) passes on unchanged and is delivered inbound the same way, with
/// the direction this end sends in (a client's responses need the requests it wrote). Pings
/// both ways reach the dialect (LeanCloud's heartbeat). When the channel goes inactive,
/// `DialectEvent.finished` carries the findings of the connection's end. Findings never close
/// the connection: this handler reports, the transport handlers enforce.
public final class DialectMessageHandler: ChannelDuplexHandler {
    /// The WebSocket reader's events: messages and ping frames are read.
    public typealias InboundIn = WebSocketEvent
    /// Each message with its findings, and the end of the connection.
    public typealias InboundOut = DialectEvent
    /// What this end sends, observed and passed on.
    public typealias OutboundIn = WebSocketOutbound
    /// The same values.
    public typealias OutboundOut = WebSocketOutbound

    /// The dialect the connection speaks.
    public var dialect: Dialect { observer.dialect }
    /// Which end of the connection the pipeline is.
    public let role: WebSocketRole
    private var observer: DialectObserver

    /// A handler reading `dialect` (one of `Dialects.standard`: the program names it, the wire
    /// does not) as `role`. `context`: limits, options, and whether messages
    /// get their summary and canonical JSON (by default they do). `now`: the time of each
    /// message in microseconds (by default the monotonic clock; session timeouts compare these).
    public init(
        dialect: Dialect, role: WebSocketRole,
        context: DialectContext = DialectContext(namesMessages: true, describesMessages: true),
        now: @escaping @Sendable () -> Int64 = { Int64(NIODeadline.now().uptimeNanoseconds / 1000) }
    ) {
        self.role = role
        observer = DialectObserver(dialect: dialect, context: context, now: now)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .message(let message):
            let kind: WireMessage.FrameType = message.kind == .text ? .text : .binary
            deliver(
                observer.observe(WireMessage(direction: role.inbound, frameType: kind, payload: message.payload)),
                context: context)
        case .frame(let frame) where frame.opcode == .ping:
            observer.ping(role.inbound)
        default:
            break
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let outbound = unwrapOutboundIn(data)
        context.write(data, promise: promise)
        switch outbound {
        case .message(let kind, let payload, _):
            let message = WireMessage(
                direction: role.outbound, frameType: kind == .text ? .text : .binary, payload: payload)
            deliver(observer.observe(message), context: context)
            // Not inside a read: deliver it now (NIOAsyncChannel hands reads on at read-complete).
            context.fireChannelReadComplete()
        case .ping:
            observer.ping(role.outbound)
        default:
            break
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        deliver(observer.finish(), context: context)
        context.fireChannelInactive()
    }
}

/// `DialectMessageHandler` for a dialect on raw TCP (yun2win's MQTT): the bytes each way, in
/// whatever chunks TCP gives them, go to the dialect connection, which frames its own packets;
/// each chunk read or written is delivered as a `DialectEvent.message` (a binary `WireMessage`
/// of those bytes) with the findings of the packets it completed, and `.finished` at the end.
/// Bytes written pass on unchanged. Put it first in the pipeline, where the socket's bytes are.
public final class DialectStreamHandler: ChannelDuplexHandler {
    /// The socket's bytes.
    public typealias InboundIn = ByteBuffer
    /// Each chunk with its findings, and the end of the connection.
    public typealias InboundOut = DialectEvent
    /// What this end sends, observed and passed on.
    public typealias OutboundIn = ByteBuffer
    /// The same bytes.
    public typealias OutboundOut = ByteBuffer

    /// The dialect the connection speaks.
    public var dialect: Dialect { observer.dialect }
    /// Which end of the connection the pipeline is.
    public let role: WebSocketRole
    private var observer: DialectObserver

    /// As `DialectMessageHandler.init`.
    public init(
        dialect: Dialect, role: WebSocketRole,
        context: DialectContext = DialectContext(namesMessages: true, describesMessages: true),
        now: @escaping @Sendable () -> Int64 = { Int64(NIODeadline.now().uptimeNanoseconds / 1000) }
    ) {
        self.role = role
        observer = DialectObserver(dialect: dialect, context: context, now: now)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Array(unwrapInboundIn(data).readableBytesView)
        guard !bytes.isEmpty else { return }
        deliver(
            observer.observe(WireMessage(direction: role.inbound, frameType: .binary, payload: bytes)), context: context
        )
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let bytes = Array(unwrapOutboundIn(data).readableBytesView)
        context.write(data, promise: promise)
        guard !bytes.isEmpty else { return }
        deliver(
            observer.observe(WireMessage(direction: role.outbound, frameType: .binary, payload: bytes)),
            context: context)
        context.fireChannelReadComplete()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        deliver(observer.finish(), context: context)
        context.fireChannelInactive()
    }
}

/// What both dialect handlers share: the dialect's connection (made from the registry, as
/// `imwire check` makes it), the frame count, the clock, and delivering each observation.
struct DialectObserver {
    let dialect: Dialect
    private let connection: any DialectConnection
    private let now: @Sendable () -> Int64
    private var frameIndex = 0
    private var finished = false

    init(dialect: Dialect, context: DialectContext, now: @escaping @Sendable () -> Int64) {
        self.dialect = dialect
        self.now = now
        guard let definition = Dialects.standard.definition(dialect) else {
            preconditionFailure("\(dialect) is not one of Dialects.standard")
        }
        connection = definition.makeConnection(context)
    }

    func ping(_ direction: Direction) { connection.observePing(direction, timeMicros: now()) }

    /// The event for one message, or nil after the end. It returns the event rather than
    /// firing it: a later handler that writes a reply from its `channelRead` comes back into
    /// `observe`, which must not still be running (Swift's exclusive access to the handler).
    mutating func observe(_ message: WireMessage) -> DialectEvent? {
        guard !finished else { return nil }
        frameIndex += 1
        let time = now()
        let (decoded, observation) = observeDecoded(message, timeMicros: time)
        return .message(
            DialectMessage(
                message: message, frameIndex: frameIndex, timeMicros: time, summary: observation.summary,
                canonicalJSON: observation.canonicalJSON, findings: observation.findings, decoded: decoded))
    }

    /// The connection's observation of `message`, with the typed value it decoded.
    private func observeDecoded(_ message: WireMessage, timeMicros time: Int64) -> (
        DialectMessage.Decoded?, DialectObservation
    ) {
        switch connection {
        case let leancloud as LeanCloudConnection:
            let observed = leancloud.observeCommand(message, timeMicros: time, frameIndex: frameIndex)
            return (observed.decoded.command.map { .leancloud($0) }, observed.observation)
        case let nim as NIMConnection:
            let observed = nim.observe(
                message.payload, direction: message.direction, timeMicros: time, frameIndex: frameIndex)
            return (.nim(observed.message), observed.observation)
        case let jmessage as JMessageConnection:
            let observed = jmessage.observe(
                message.payload, binaryFrame: message.frameType == .binary, direction: message.direction,
                timeMicros: time,
                frameIndex: frameIndex)
            return (.jmessage(observed.message), observed.observation)
        case let yun2win as Yun2winConnection:
            let observed = yun2win.observePackets(message, timeMicros: time, frameIndex: frameIndex)
            return (.yun2win(observed.packets), observed.observation)
        default:
            return (nil, connection.observe(message, timeMicros: time, frameIndex: frameIndex))
        }
    }

    /// The event of the connection's end, once.
    mutating func finish() -> DialectEvent? {
        guard !finished else { return nil }
        finished = true
        return .finished(connection.finish(atMicros: now(), frameIndex: frameIndex))
    }
}

/// Fires an observer's event, once the observer's mutation is over.
private func deliver(_ event: DialectEvent?, context: ChannelHandlerContext) {
    if let event { context.fireChannelRead(NIOAny(event)) }
}
