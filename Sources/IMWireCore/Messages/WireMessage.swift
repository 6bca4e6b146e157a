/// One message of a connection and the way it went: a WebSocket message, an MQTT packet, an
/// engine.io packet carried by an HTTP long-poll, or a chunk of a stream nobody has framed yet.
/// The transport layer produces these and the dialects read them.
public struct WireMessage: Sendable, Hashable {
    /// How the message travelled: as text (a WebSocket text frame, a text polling payload) or as bytes.
    public enum FrameType: String, Sendable, Hashable {
        case text
        case binary
    }

    public var direction: Direction
    public var frameType: FrameType
    public var payload: [UInt8]

    public init(direction: Direction, frameType: FrameType, payload: [UInt8]) {
        self.direction = direction
        self.frameType = frameType
        self.payload = payload
    }
}
