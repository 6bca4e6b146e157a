import IMWireCore

/// One WebSocket message of an engine.io 3 connection: the engine.io packet and, inside a text
/// message packet, the socket.io packet. Offsets of every finding are from the message's first
/// byte.
public struct EngineIOMessage: WireDecoded, Hashable {
    public var engineIO: EngineIOPacket?
    public var socketIO: SocketIOPacket?
    public var findings: [Finding]

    public init(engineIO: EngineIOPacket?, socketIO: SocketIOPacket? = nil, findings: [Finding] = []) {
        self.engineIO = engineIO
        self.socketIO = socketIO
        self.findings = findings
    }

    public static func decode(_ bytes: [UInt8], binaryFrame: Bool, limits: Limits = .default) -> EngineIOMessage {
        let (packet, findings) = EngineIOPacket.decode(bytes, binaryFrame: binaryFrame, limits: limits)
        var message = EngineIOMessage(engineIO: packet, findings: findings)
        if let packet, packet.type == .message, case .text = packet.payload {
            let (socketIO, inner) = SocketIOPacket.decode(Array(bytes[packet.dataOffset...]), limits: limits)
            message.socketIO = socketIO
            message.findings += inner.map { $0.shifted(by: packet.dataOffset) }
        }
        return message
    }

    /// The socket.io packet `packet` as one engine.io text message (`42[…]`).
    public static func encode(_ packet: SocketIOPacket) -> [UInt8] {
        EngineIOPacket(type: .message, payload: .text(packet.encoded)).encoded.bytes
    }

    /// `message EVENT login id=3`, `ping probe`, `open sid=…`. Other text is not quoted, only
    /// measured (`message <52 bytes of text>`): it may be a login socket.io could not read, and
    /// the summary is every report's name for the message, which secrets stay out of.
    public var summary: String {
        guard let engineIO else { return "undecodable" }
        var text = engineIO.type.name
        if let socketIO { return text + " " + socketIO.summary }
        if let handshake = engineIO.handshake { text += " sid=\(handshake.sid)" }
        if let value = engineIO.text, !value.isEmpty, engineIO.type != .open {
            text += value == "probe" ? " probe" : " <\(value.utf8.count) bytes of text>"
        }
        if let data = engineIO.binary { text += " <\(data.count) bytes>" }
        return text
    }
}
