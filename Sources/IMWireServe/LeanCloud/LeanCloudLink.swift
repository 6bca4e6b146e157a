import IMWireCore
import IMWireLeanCloud
import IMWireNIO
import IMWireWebSocket
import NIOCore

/// One client's RTM WebSocket after the upgrade: decodes its commands for the `LeanCloudCloud`
/// and carries out what the cloud answers (commands, a close frame, a dropped connection).
/// Pings are answered here rather than by the WebSocket reader, so that a scenario can withhold
/// the answer to a heartbeat.
final class LeanCloudLink: ChannelInboundHandler, ChannelLink {
    typealias InboundIn = WebSocketEvent
    typealias OutboundOut = WebSocketOutbound

    let id: Int
    let number: Int
    let codec: LeanCloudCodec
    private let cloud: LeanCloudCloud
    let channel: LinkChannel
    /// The user whose session this connection carries, once its `session/open` was read.
    var user: String?
    /// The last conversation a message of it named (where a scenario's push goes).
    var lastConversation: String?

    init(id: Int, number: Int, encoding: LeanCloudEncoding, cloud: LeanCloudCloud) {
        self.id = id
        self.number = number
        codec = LeanCloudCodec(encoding: encoding)
        self.cloud = cloud
        channel = LinkChannel(unsentLimit: cloud.limits.unsentBytes)
    }

    var isOpen: Bool { channel.isOpen }

    func handlerAdded(context: ChannelHandlerContext) { channel.added(context) }

    func handlerRemoved(context: ChannelHandlerContext) { channel.removed() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After this end's close frame, what the client still sends gets no answer.
        guard isOpen else { return }
        switch unwrapInboundIn(data) {
        case .message(let message):
            // An undecodable command is the checker's to report; the cloud has nothing to answer.
            if let command = codec.decode(message.payload).command { cloud.receive(command, on: self) }
        case .frame(let frame) where frame.opcode == .ping:
            cloud.heartbeat(on: self) { [weak self] in self?.write(.pong(frame.payload)) }
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        channel.ended()
        cloud.disconnected(self)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A violation: the WebSocket reader sends its close frame and closes, after this.
        guard (error as? IMWireError)?.isViolation != true else { return }
        context.close(promise: nil)  // a reset, or another error of the socket
    }

    /// Sends a command in the connection's encoding.
    func send(_ command: LCGenericCommand) {
        write(.message(codec.encoding.isText ? .text : .binary, codec.encode(command)))
    }

    private func write(_ outbound: WebSocketOutbound) {
        channel.write(wrapOutboundOut(outbound))
    }

    /// Closes the TCP connection without a close frame.
    func drop() { channel.drop() }

    /// Sends a close frame; the reader closes the connection when the client answers it, and
    /// this end closes it anyway after five seconds.
    func close(code: Int, reason: String) { channel.close(code: code, reason: reason) }
}
