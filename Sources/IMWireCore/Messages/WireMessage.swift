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

// A message's bytes are whatever crossed the wire, a login's credentials among them. Formatted
// (`print`, interpolation, `String(reflecting:)`, `dump`), a message shows its way and its size,
// never its bytes (issue 37); what a dialect decodes of it is formatted with its credentials
// hidden, and `--show-secrets` is how a user sees them.
extension WireMessage: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `WireMessage(send, text, 42 bytes)`.
    public var description: String { "WireMessage(\(direction), \(frameType.rawValue), \(payload.count) bytes)" }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self, children: ["direction": direction, "frameType": frameType, "payload": "\(payload.count) bytes"],
            displayStyle: .struct)
    }
}
