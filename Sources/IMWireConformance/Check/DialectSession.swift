import IMWireCapture
import IMWireCore
import IMWireLeanCloud
import IMWireMQTT
import IMWireYun2win

/// A dialect's view of one connection: decodes each message and tracks the session. Every
/// dialect module plugs into the checker through one of these.
public protocol DialectSession {
    var dialect: Dialect { get }
    /// Decodes and checks one message. Findings carry their frame, time and direction.
    mutating func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding]
    /// The connection ended (or the capture did) at `time`.
    mutating func finish(at time: Int64?) -> [Finding]
    /// A one-line label of the last message observed (`session/open i=1`), for reports.
    var lastSummary: String? { get }
}

extension DialectSession {
    public var lastSummary: String? { nil }
}

/// What the sessions of one capture share across connections: a client's later connections
/// are judged by what happened on its earlier ones (a kick forbids an automatic reconnect).
final class CaptureContext {
    /// yun2win uids kicked (PUBLISH returnCode 10) so far.
    var kickedYun2winUIDs: Set<String> = []
}

/// Chooses the session for a connection from the dialect and subprotocol the capture gives.
enum DialectSessions {
    static func make(_ dialect: Dialect, info: ConnectionInfo, options: CheckOptions, context: CaptureContext) -> (any DialectSession)? {
        switch dialect {
        case .leancloud:
            LeanCloudConnectionSession(subprotocol: info.subprotocol.flatMap(LeanCloudSubprotocol.init), options: options)
        case .yun2win:
            Yun2winConnectionSession(options: options, context: context)
        case .nim, .jmessage:
            nil
        }
    }

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
        if message.frameType == .binary, message.payload.first == 0x10 {
            let packets = MQTTStreamDecoder.decodeAll(message.payload, options: MQTTDecodeOptions(limits: limits))
            if let first = packets.first, first.packet?.type == .connect,
               first.findings.allSatisfy({ $0.severity < .error }) {
                return .yun2win
            }
        }
        let encoding = LeanCloudConnectionSession.encoding(implied: message)
        let decoded = LeanCloudCodec(encoding: encoding, limits: limits).decode(message.payload)
        let clean = decoded.findings.allSatisfy { $0.severity == .info } && (decoded.command?.hasCmd ?? false)
        return clean ? .leancloud : nil
    }
}

