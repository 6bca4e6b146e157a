import IMWireCapture
import IMWireCore
import IMWireDialect
import IMWireRegistry
import IMWireSocketIO

/// How the checker finds a connection's dialect and makes its `DialectConnection`, all through
/// the registration table it was given (`CheckOptions.dialects`).
enum DialectSessions {
    /// The connection that reads `dialect`, nil when the table does not have it.
    static func make(_ dialect: Dialect, info: ConnectionInfo, options: CheckOptions) -> (any DialectConnection)? {
        let context = DialectContext(
            limits: options.limits, subprotocol: info.subprotocol, url: info.url,
            options: options.dialectOptions, namesMessages: options.timelineLimit > 0 || options.describesMessages,
            describesMessages: options.describesMessages || options.timelineDetails, judgesAcrossConnections: true)
        return options.dialects.definition(dialect)?.makeConnection(context)
    }

    /// The dialect an open line reveals: its `dialect` (when the table has it), its subprotocol,
    /// or the framing its URL names.
    static func dialect(forInfo info: ConnectionInfo, in dialects: Dialects) -> Dialect? {
        info.dialect.flatMap(dialects.definition)?.dialect ?? info.subprotocol.flatMap(
            dialects.dialect(forSubprotocol:))
            ?? info.url.flatMap { dialect(forURL: $0, in: dialects) }
    }

    /// The dialect of the framing a connection's URL names: socket.io 0.9
    /// (`/socket.io/1/websocket/<sid>`) or engine.io (`/socket.io/?EIO=3&transport=websocket`).
    static func dialect(forURL url: String, in dialects: Dialects) -> Dialect? {
        switch SocketIOTransport.from(url: url).0 {
        case .v09?, .v09Handshake?: dialects.dialect(for: .socketIO09)
        case .engineIO(let version, _, _)?: dialects.dialect(for: .engineIO(version: version))
        default: nil
        }
    }

    /// What is wrong with a socket.io URL (`SIO.V09-URL-INVALID`, `EIO.URL-INVALID`); nothing
    /// for a URL outside `/socket.io/`.
    static func urlFindings(_ url: String) -> [Finding] { SocketIOTransport.from(url: url).1 }
}
