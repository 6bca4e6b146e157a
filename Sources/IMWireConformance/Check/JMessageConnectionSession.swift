import IMWireCapture
import IMWireCore
import IMWireJMessage
import IMWireReconnect

/// JMessage's Web protocol on one connection: each WebSocket message (text packets, binary
/// attachments) through engine.io 3, socket.io 4, the JMessage codec and the session tracker.
final class JMessageConnectionSession: DialectSession {
    let dialect = Dialect.jmessage
    @exclusivity(unchecked) private var connection: JMessageConnection
    @exclusivity(unchecked) private var lastFrame = 0
    @exclusivity(unchecked) private(set) var reconnectFacts = ReconnectFacts()
    /// The rid of the connection's first `login`.
    @exclusivity(unchecked) private var loginRID: Int64?

    init(options: CheckOptions) {
        connection = JMessageConnection(options: options.jmessage, limits: options.limits)
    }

    func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        lastFrame = frameIndex
        let (decoded, findings) = connection.observe(message.payload, binaryFrame: message.frameType == .binary,
                                                     direction: message.direction, time: time, frameIndex: frameIndex)
        if let event = decoded.event { note(event, time: time, frame: frameIndex) }
        return findings
    }

    /// Spec/reconnect.md §6: `login` and its response, and `event_notification` event_type 1
    /// (extra 0 concurrent login, 1 disabled, 2 deleted) and 2 (password changed).
    private func note(_ event: JMessageEvent, time: Int64, frame: Int) {
        switch (event.kind, event.name) {
        case (.request, "login"):
            if loginRID == nil { loginRID = event.rid }
            reconnectFacts.loginSent(at: time, frame: frame, reconnectFlag: nil, client: event.payload["username"]?.stringValue)
        case (.response, "login") where event.rid == loginRID:
            if event.code == 0 {
                reconnectFacts.loginAccepted(at: time)
            } else {
                reconnectFacts.ended(.loginRejected(code: event.code ?? -1, waitMicros: nil), at: time)
            }
        case (.push, "event_notification"):
            switch (event.payload["event_type"]?.int64Value, event.payload["extra"]?.int64Value) {
            case (1, 1): reconnectFacts.ended(.kicked(code: 10002), at: time)
            case (1, 2): reconnectFacts.ended(.kicked(code: 10001), at: time)
            case (1, _): reconnectFacts.ended(.kicked(code: 1), at: time)
            case (2, _): reconnectFacts.ended(.kicked(code: 2), at: time)
            default: break
            }
        default:
            break
        }
    }

    func finish(at time: Int64?) -> [Finding] { connection.finish(at: time, frameIndex: lastFrame) }
}
