import IMWireCapture
import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireMQTT
import IMWireNIM
import IMWireReconnect
import IMWireSocketIO
import IMWireYun2win

/// A dialect's view of one connection: decodes each message and tracks the session. Every
/// dialect module plugs into the checker through one of these. Classes, changed in place by
/// their connection's checker only (hence `@exclusivity(unchecked)` on their state): as
/// structs behind `any`, each message copied the existential out and back.
protocol DialectSession: AnyObject {
    var dialect: Dialect { get }
    /// Decodes and checks one message. Findings carry their frame, time and direction.
    func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding]
    /// The connection ended (or the capture did) at `time`.
    func finish(at time: Int64?) -> [Finding]
    /// A one-line label of the last message observed (`session/open i=1`), for the diagram of
    /// the HTML report; sessions may leave it nil unless `CheckOptions.timelineLimit` is set.
    var lastSummary: String? { get }
    /// What the connection shows about its client's reconnects, for the reconnect judge.
    var reconnectFacts: ReconnectFacts { get }
    /// A WebSocket ping frame crossed the connection (LeanCloud's heartbeat).
    func observePing(_ direction: Direction, time: Int64)
}

extension DialectSession {
    var lastSummary: String? { nil }
    func observePing(_ direction: Direction, time: Int64) {}
}

/// Chooses the session for a connection from the dialect and subprotocol the capture gives.
enum DialectSessions {
    static func make(_ dialect: Dialect, info: ConnectionInfo, options: CheckOptions) -> (any DialectSession)? {
        switch dialect {
        case .leancloud:
            LeanCloudConnectionSession(subprotocol: info.subprotocol.flatMap(LeanCloudSubprotocol.init), options: options)
        case .yun2win:
            Yun2winConnectionSession(options: options)
        case .nim:
            NIMConnectionSession(options: options)
        case .jmessage:
            JMessageConnectionSession(options: options)
        }
    }

    /// The dialect an open line reveals: its `dialect`, its subprotocol, or its URL path.
    static func dialect(for info: ConnectionInfo) -> Dialect? {
        info.dialect ?? info.subprotocol.flatMap(dialect(forSubprotocol:)) ?? info.url.flatMap(dialect(forURL:))
    }

    /// The dialect a connection's URL names: socket.io 0.9 (`/socket.io/1/websocket/<sid>`) is
    /// NIM's web link, engine.io 3 (`/socket.io/?EIO=3&transport=websocket`) JMessage's.
    static func dialect(forURL url: String) -> Dialect? {
        switch SocketIOTransport.from(url: url).0 {
        case .v09?: .nim
        case .engineIO(let version, _, _)? where version == 3: .jmessage
        default: nil
        }
    }

    /// What is wrong with a socket.io URL (`SIO.V09-URL-INVALID`, `EIO.URL-INVALID`); nothing
    /// for a URL outside `/socket.io/`.
    static func urlFindings(_ url: String) -> [Finding] { SocketIOTransport.from(url: url).1 }

    /// The dialect a subprotocol names: `lc.*` is LeanCloud, `mqtt*` (yun2win's web client uses
    /// `mqttv3.1`) is yun2win.
    static func dialect(forSubprotocol name: String) -> Dialect? {
        if LeanCloudSubprotocol(name) != nil { return .leancloud }
        if name.lowercased().hasPrefix("mqtt") { return .yun2win }
        return nil
    }

    /// A dialect for a connection that names none, if its first message decodes cleanly as one:
    /// an MQTT CONNECT is yun2win (the only MQTT dialect), a clean GenericCommand is LeanCloud.
    static func guess(_ message: CapturedMessage, limits: Limits) -> Dialect? {
        if message.frameType == .text, let dialect = guessSocketIO(message, limits: limits) { return dialect }
        if message.frameType == .binary, message.payload.first == 0x10 {
            let packets = MQTTStreamDecoder.decodeAll(message.payload, options: MQTTDecodeOptions(limits: limits))
            if let first = packets.first, first.packet?.type == .connect,
               first.findings.allSatisfy({ $0.severity < .error }) {
                return .yun2win
            }
        }
        let encoding = LeanCloudConnectionSession.encoding(implied: message)
        let decoded = LeanCloudCodec(encoding: encoding, limits: limits).decode(message.payload)
        let clean = decoded.findings.allSatisfy { $0.severity == .info } && (decoded.fields?.cmd != nil)
        return clean ? .leancloud : nil
    }
}

extension DialectSessions {
    /// A socket.io 0.9 packet carrying a NIM request/response, a `1::` connect, or an engine.io
    /// open / socket.io event read cleanly: NIM for the first two, JMessage for the others.
    static func guessSocketIO(_ message: CapturedMessage, limits: Limits) -> Dialect? {
        let bytes = message.payload
        guard let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if bytes.count > 1, bytes[1] == UInt8(ascii: ":") {
            let decoded = NIMCodec.decode(bytes, direction: message.direction, limits: limits)
            let clean = decoded.findings.allSatisfy { $0.severity < .error }
            let nimLike = decoded.items.contains { $0.nim != nil || $0.socketIO.type == .connect }
            return clean && nimLike ? .nim : nil
        }
        let decoded = JMessageCodec.decode(bytes, direction: message.direction, limits: limits)
        let clean = decoded.findings.allSatisfy { $0.severity < .error }
        let engineLike = decoded.engineIO.engineIO?.handshake != nil || decoded.event?.spec != nil
        return clean && engineLike ? .jmessage : nil
    }
}
