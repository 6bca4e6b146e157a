import IMWireCapture
import IMWireCore
import IMWireDialect
import IMWireRegistry
import IMWireSocketIO

/// How the checker finds a connection's dialect and makes its `DialectConnection`, all through
/// the registration table (`Dialects`).
enum DialectSessions {
    static func make(_ dialect: Dialect, info: ConnectionInfo, options: CheckOptions) -> any DialectConnection {
        let context = DialectContext(
            limits: options.limits, subprotocol: info.subprotocol, url: info.url,
            options: options.dialectOptions, namesMessages: options.timelineLimit > 0 || options.describesMessages,
            describesMessages: options.describesMessages || options.timelineDetails, judgesAcrossConnections: true)
        return Dialects.definition(dialect).makeConnection(context)
    }

    /// The dialect an open line reveals: its `dialect`, its subprotocol, or the framing its URL names.
    static func dialect(forInfo info: ConnectionInfo) -> Dialect? {
        info.dialect ?? info.subprotocol.flatMap(Dialects.dialect(forSubprotocol:)) ?? info.url.flatMap(dialect(forURL:))
    }

    /// The dialect of the framing a connection's URL names: socket.io 0.9
    /// (`/socket.io/1/websocket/<sid>`) or engine.io (`/socket.io/?EIO=3&transport=websocket`).
    static func dialect(forURL url: String) -> Dialect? {
        switch SocketIOTransport.from(url: url).0 {
        case .v09?, .v09Handshake?: Dialects.dialect(for: .socketIO09)
        case .engineIO(let version, _, _)?: Dialects.dialect(for: .engineIO(version: version))
        default: nil
        }
    }

    /// What is wrong with a socket.io URL (`SIO.V09-URL-INVALID`, `EIO.URL-INVALID`); nothing
    /// for a URL outside `/socket.io/`.
    static func urlFindings(_ url: String) -> [Finding] { SocketIOTransport.from(url: url).1 }

    /// The dialect that speaks over a framing the transport recognised.
    static func dialect(for framing: Framing) -> Dialect? { Dialects.dialect(for: framing) }

    /// A dialect for a connection that names none, if its first message decodes cleanly as one.
    static func guess(_ message: WireMessage, limits: Limits) -> Dialect? { Dialects.recognise(message, limits: limits) }
}
