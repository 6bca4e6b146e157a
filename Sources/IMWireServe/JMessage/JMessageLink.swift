import IMWireCore
import IMWireNIO
import IMWireSocketIO
import IMWireWebSocket
import NIOCore

/// One client's engine.io 3 session after the upgrade (behind an `EngineIOPacketHandler`):
/// sends the engine.io handshake and the socket.io CONNECT, hands each socket.io event to the
/// `JMessageCloud`, answers engine.io pings (through the cloud: a scenario may withhold the
/// answer), and carries out what the cloud says (events, a close frame, a dropped connection).
final class JMessageLink: ChannelInboundHandler, ChannelLink {
    typealias InboundIn = EngineIOMessage
    typealias OutboundOut = EngineIOOutbound

    let id: Int
    let number: Int
    private let cloud: JMessageCloud
    let channel: LinkChannel
    /// The user logged in on this connection.
    var user: String?

    init(id: Int, number: Int, cloud: JMessageCloud) {
        self.id = id
        self.number = number
        self.cloud = cloud
        channel = LinkChannel(unsentLimit: cloud.limits.unsentBytes)
    }

    var isOpen: Bool { channel.isOpen }

    func handlerAdded(context: ChannelHandlerContext) { channel.added(context) }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is LinkStarted else { return context.fireUserInboundEventTriggered(event) }
        // The server speaks first: `0{sid, upgrades, pingInterval, pingTimeout}`, then `40`.
        write(.engineIO(cloud.handshake()))
        write(.socketIO(SocketIOPacket(type: .connect)))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        channel.removed()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard isOpen, let packet = unwrapInboundIn(data).engineIO else { return }
        switch packet.type {
        case .ping:
            let payload = packet.text ?? ""
            cloud.heartbeat(on: self) { [weak self] in
                self?.write(.engineIO(EngineIOPacket(type: .pong, payload: .text(payload))))
            }
        case .close: drop()
        case .message:
            // Malformed events are the checker's to report; the cloud has nothing to answer.
            guard let socketIO = unwrapInboundIn(data).socketIO, let name = socketIO.eventName else { return }
            cloud.receive(name, socketIO.args.first?.objectValue ?? JSONObject(), on: self)
        default: break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        channel.ended()
        cloud.disconnected(self)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A violation: its handler sends the close frame and closes, after this.
        guard (error as? IMWireError)?.isViolation != true else { return }
        context.close(promise: nil)  // a reset, or another error of the socket
    }

    /// Emits `name` with one object argument (`42["name",{…}]`).
    func emit(_ name: String, _ payload: JSONObject) {
        write(.socketIO(.event(name, [.object(payload)])))
    }

    private func write(_ outbound: EngineIOOutbound) {
        channel.write(wrapOutboundOut(outbound))
    }

    /// Closes the TCP connection without a close frame.
    func drop() { channel.drop() }

    /// Sends a WebSocket close frame (from the engine.io handler's place: the WebSocket writer
    /// takes it); closes the connection when the client answers it, or after five seconds.
    func close(code: Int, reason: String) {
        channel.close(code: code, reason: reason, from: EngineIOPacketHandler.self)
    }
}
