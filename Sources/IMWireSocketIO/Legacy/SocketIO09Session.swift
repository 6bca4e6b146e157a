import IMWireCore

/// Follows the socket.io 0.9 transport of one WebSocket connection: the server opens with
/// `1::` (connect), and the client sends no message before it. Heartbeats are answered by the
/// dialect's own rules. Findings carry no location; the dialect session adds it.
public struct SocketIO09Session: Sendable {
    private var sawServerPacket = false
    public private(set) var connected = false
    private var reportedEarlyMessage = false

    public init() {}

    public mutating func observe(_ packet: SocketIO09Packet, direction: Direction) -> [Finding] {
        var findings: [Finding] = []
        switch direction {
        case .receive:
            if !sawServerPacket, packet.type != .connect {
                findings.append(
                    SocketIORules.v09ConnectNotFirst.finding("the server's first packet is \(packet.type.name)", at: 0))
            }
            sawServerPacket = true
            if packet.type == .connect, packet.endpoint.isEmpty { connected = true }
        case .send:
            if !connected, [.message, .json, .event].contains(packet.type), !reportedEarlyMessage {
                reportedEarlyMessage = true
                findings.append(
                    SocketIORules.v09MessageBeforeConnect.finding(
                        "\(packet.type.name) before the server's connect", at: 0))
            }
        }
        return findings
    }
}
