import IMWireCore
import IMWireNIO
import IMWireSocketIO
import IMWireWebSocket
import NIOCore

/// One client's socket.io 0.9 WebSocket transport (behind a `SocketIO09PacketHandler`): sends
/// the socket.io connect `1::` and a heartbeat `2::` every 25 s, hands the packets of each
/// message to the `NIMCloud`, and carries out what it says (replies, pushes, a close frame, a
/// dropped connection).
final class NIMWebSocketLink: ChannelInboundHandler, ChannelLink, NIMLink {
    typealias InboundIn = SocketIO09Decoded
    typealias OutboundOut = SocketIO09Packet

    let id: Int
    let number: Int
    private let cloud: NIMCloud
    let channel: LinkChannel
    private var heartbeat: Scheduled<Void>?
    /// The account logged in on this link.
    var account: String?

    init(id: Int, number: Int, cloud: NIMCloud) {
        self.id = id
        self.number = number
        self.cloud = cloud
        channel = LinkChannel(unsentLimit: cloud.limits.unsentBytes)
    }

    var isOpen: Bool { channel.isOpen }

    func handlerAdded(context: ChannelHandlerContext) { channel.added(context) }

    func handlerRemoved(context: ChannelHandlerContext) {
        heartbeat?.cancel()
        channel.removed()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is LinkStarted else { return context.fireUserInboundEventTriggered(event) }
        write(SocketIO09Packet(type: .connect))
        scheduleHeartbeat()
    }

    /// socket.io 0.9's server heartbeat `2::`, which the client echoes.
    private func scheduleHeartbeat() {
        guard isOpen, let context = channel.context else { return }
        heartbeat = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(NIMCloud.heartbeatIntervalSeconds)) {
            [weak self] in
            self?.write(SocketIO09Packet(type: .heartbeat))
            self?.scheduleHeartbeat()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard isOpen else { return }
        cloud.receive(unwrapInboundIn(data).packets, on: self)
    }

    func channelInactive(context: ChannelHandlerContext) {
        channel.ended()
        heartbeat?.cancel()
        cloud.disconnected(self)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A violation: its handler sends the close frame and closes, after this.
        guard (error as? IMWireError)?.isViolation != true else { return }
        context.close(promise: nil)  // a reset, or another error of the socket
    }

    func write(_ packet: SocketIO09Packet) {
        channel.write(wrapOutboundOut(packet))
    }

    /// Closes the TCP connection without a close frame or a socket.io disconnect.
    func drop() { channel.drop() }

    /// Sends a WebSocket close frame (from the socket.io handler's place: the WebSocket writer
    /// takes it); closes the connection when the client answers it, or after five seconds.
    func close(code: Int, reason: String) {
        channel.close(code: code, reason: reason, from: SocketIO09PacketHandler.self)
    }
}
