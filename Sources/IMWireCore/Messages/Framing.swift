/// A framing the transport layer recognised under a connection's messages, for the dialect that
/// speaks over it to claim the connection (NIM's web link is socket.io 0.9, JMessage's engine.io 3,
/// yun2win's MQTT).
public enum Framing: Sendable, Hashable {
    /// socket.io 0.9 (protocol 1): `/socket.io/1/` handshakes, WebSocket and xhr-polling.
    case socketIO09
    /// engine.io (`/socket.io/?EIO=<version>`), over WebSocket or HTTP long-polling.
    case engineIO(version: Int?)
    /// MQTT 3.1 / 3.1.1 packets, on raw TCP or in WebSocket binary messages.
    case mqtt
}
