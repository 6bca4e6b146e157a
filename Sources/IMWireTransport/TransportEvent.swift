import IMWireCore
import IMWireWebSocket

/// A socket.io session: the framing and the `sid` the server gave it. Its polling requests and
/// its WebSocket can come over several TCP connections; the checker gathers them by this key.
package struct SessionKey: Sendable, Hashable, CustomStringConvertible {
    package var framing: Framing
    package var sid: String

    package init(framing: Framing, sid: String) {
        self.framing = framing
        self.sid = sid
    }

    /// `engine.io sid=abc`, `socket.io 0.9 sid=abc`.
    package var description: String {
        switch framing {
        case .socketIO09: "socket.io 0.9 sid=\(sid)"
        case .engineIO: "engine.io sid=\(sid)"
        case .mqtt: "mqtt \(sid)"
        }
    }
}

/// The outcome of a WebSocket upgrade request: what it negotiated, and every finding of the
/// handshake (offsets in each direction's stream).
public struct WebSocketUpgrade: Sendable {
    /// The subprotocol the server chose.
    public var subprotocol: String?
    /// `//host/path?query` of the request.
    public var url: String?
    /// permessage-deflate in force, when the server accepted it.
    public var permessageDeflate: PerMessageDeflateParameters?
    /// The server answered 101 and the handshake is valid: frames follow.
    public var upgraded: Bool
    public var findings: [Finding]
}

/// One HTTP request and its response (nil when none came before the end), as the transport read
/// them; what socket.io they carried, and how many bytes each took on the wire.
package struct HTTPExchange: Sendable {
    package var request: HTTPMessage
    package var response: HTTPMessage?
    /// The socket.io session the exchange belongs to (a polling request, a 0.9 handshake).
    package var session: SessionKey?
    /// The framing the request's URL names (socket.io 0.9, engine.io), if any.
    package var framing: Framing?
    /// Wire bytes of the interim (1xx) responses that came before `response`.
    package var interimBytes = 0
    /// Wire bytes of the request, the interim responses and the response.
    package var wireBytes: Int { request.wireLength + interimBytes + (response?.wireLength ?? 0) }
}

/// What one TCP connection's bytes turn out to hold, in order.
package enum TransportEvent: Sendable {
    /// A WebSocket upgrade request was answered. Boxed, as the other rare cases are: unboxed
    /// they set the size every message is copied at.
    indirect case upgrade(WebSocketUpgrade)
    /// An HTTP exchange completed (or ended with the connection).
    indirect case exchange(HTTPExchange)
    /// A message of the connection itself: a WebSocket message, an MQTT packet, a raw chunk.
    case message(WireMessage)
    /// A message an HTTP body carried (a long-poll's packet), with its session.
    indirect case polled(WireMessage, session: SessionKey?, framing: Framing)
    /// A WebSocket close frame, with its code.
    case close(Direction, code: Int?)
    /// A WebSocket ping frame (a LeanCloud client's heartbeat).
    case ping(Direction)
    /// A finding of the transport, with the session it concerns when an HTTP exchange of one caused it.
    indirect case finding(Finding, session: SessionKey?)
}
