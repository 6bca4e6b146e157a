import IMWireCore
import IMWireMQTT
import IMWireNIO
import IMWireWebSocket
import NIOCore

/// One client's MQTT connection (behind an `MQTTPacketReader` and an `MQTTPacketWriter`, over
/// WebSocket or plain TCP): hands each packet to the `Yun2winCloud` and carries out what it
/// says (packets, a close frame, a dropped connection).
final class Yun2winLink: ChannelInboundHandler, ChannelLink {
    typealias InboundIn = MQTTDecodedPacket
    typealias OutboundOut = MQTTPacket

    let id: Int
    let number: Int
    /// WebSocket (a close act sends a close frame) or plain TCP (it drops the connection).
    let overWebSocket: Bool
    private let cloud: Yun2winCloud
    let channel: LinkChannel
    /// The uid its CONNECT named, once accepted.
    var user: String?
    /// Its CONNECT was read (accepted or not): MQTT takes one, first.
    var connectRead = false
    private var nextPacketID: UInt16 = 0

    init(id: Int, number: Int, overWebSocket: Bool, cloud: Yun2winCloud) {
        self.id = id
        self.number = number
        self.overWebSocket = overWebSocket
        self.cloud = cloud
        channel = LinkChannel(unsentLimit: cloud.limits.unsentBytes)
    }

    var isOpen: Bool { channel.isOpen }

    func handlerAdded(context: ChannelHandlerContext) { channel.added(context) }

    func handlerRemoved(context: ChannelHandlerContext) {
        channel.removed()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A packet that does not decode is the checker's to report (the reader closes on a violation).
        guard isOpen, let packet = unwrapInboundIn(data).packet else { return }
        cloud.receive(packet, on: self)
    }

    func channelInactive(context: ChannelHandlerContext) {
        channel.ended()
        cloud.disconnected(self)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A violation: its handler closes, after this.
        guard (error as? IMWireError)?.isViolation != true else { return }
        context.close(promise: nil)  // a reset, or another error of the socket
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !(event is LinkStarted) { context.fireUserInboundEventTriggered(event) }
    }

    func send(_ packet: MQTTPacket) {
        channel.write(wrapOutboundOut(packet))
    }

    /// A PUBLISH of `payload` as compact JSON on the user's topic `y2w/<uid>`.
    func publish(to user: String, _ payload: JSONValue, qos: MQTTQoS = .atMostOnce) {
        var packetID: UInt16?
        if qos != .atMostOnce {
            nextPacketID = nextPacketID == .max ? 1 : nextPacketID + 1
            packetID = nextPacketID
        }
        send(
            .publish(
                MQTTPublish(
                    qos: qos, topic: "y2w/" + user, packetID: packetID, payload: Array(JSONWriter.string(payload).utf8))
            ))
    }

    /// Closes the TCP connection without a close frame (MQTT 3.1.1 has no DISCONNECT from the server).
    func drop() { channel.drop() }

    /// Over WebSocket, a close frame (from the bridge's place: the WebSocket writer takes it),
    /// the connection closed when the client answers it or after five seconds; on plain TCP, a drop.
    func close(code: Int, reason: String) {
        guard overWebSocket else { return drop() }
        channel.close(code: code, reason: reason, from: MQTTWebSocketBridge.self)
    }
}
