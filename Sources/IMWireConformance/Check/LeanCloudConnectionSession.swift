import IMWireCapture
import IMWireCore
import IMWireLeanCloud
import IMWireReconnect

/// LeanCloud on one connection: the encoding from the subprotocol (or, without one, from each
/// frame's type), the codec, and the session tracker.
final class LeanCloudConnectionSession: DialectSession {
    let dialect = Dialect.leancloud
    let subprotocol: LeanCloudSubprotocol?
    let limits: Limits
    @exclusivity(unchecked) var tracker: LeanCloudSessionTracker
    /// Named only when a diagram will show it (`CheckOptions.timelineLimit`). Keeping the
    /// decoded command to name it later held every open connection's last message in memory.
    @exclusivity(unchecked) private(set) var lastSummary: String?
    private let namesMessages: Bool
    @exclusivity(unchecked) private(set) var reconnectFacts = ReconnectFacts(keepAliveInMessages: false)
    /// The `i` of the connection's first `session/open`: an `error` with it refuses the login.
    @exclusivity(unchecked) private var openRequestID: Int32?

    init(subprotocol: LeanCloudSubprotocol?, options: CheckOptions) {
        self.subprotocol = subprotocol
        limits = options.limits
        namesMessages = options.timelineLimit > 0
        tracker = LeanCloudSessionTracker(options: options.leancloud)
    }

    func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        var findings: [Finding] = []
        // The subprotocol picks the encoding; a frame of the other type is reported and decoded
        // the way its type implies (binary as protobuf, text as JSON or base64).
        var encoding = LeanCloudConnectionSession.encoding(implied: message)
        if let subprotocol {
            if (message.frameType == .text) != subprotocol.encoding.isText {
                findings.append(LeanCloudRules.frameTypeMismatch.finding(
                    "\(message.frameType) frame under \(subprotocol.name)", at: 0))
            } else {
                encoding = subprotocol.encoding
            }
        }
        let decoded = LeanCloudCodec(encoding: encoding, limits: limits).decode(message.payload)
        lastSummary = namesMessages ? decoded.summary : nil
        findings += decoded.findings
        let location = Location(frameIndex: frameIndex, time: time, direction: message.direction)
        let subject = findings.isEmpty ? "" : decoded.summary
        for index in findings.indices {
            findings[index].location = location
            findings[index].subject = subject
        }
        if decoded.kind == .command, let command = decoded.fields { note(command, direction: message.direction, time: time, frame: frameIndex) }
        let sessionFindings = tracker.observe(decoded, direction: message.direction, time: time, frameIndex: frameIndex)
        if findings.isEmpty { return sessionFindings }  // nearly always: no array is built
        return findings + sessionFindings
    }

    func finish(at time: Int64?) -> [Finding] { tracker.finish(at: time) }

    func observePing(_ direction: Direction, time: Int64) {
        if direction == .send { reconnectFacts.keepAlive.record(time) }
    }

    /// Spec/reconnect.md §6: `session/open` (its `r`) and its answer, `echo`, `session/closed`
    /// with a code, `goaway`, and the client's own `session/close`.
    private func note(_ command: CommandFields, direction: Direction, time: Int64, frame: Int) {
        let loggingIn = reconnectFacts.login != nil && reconnectFacts.login?.accepted == nil
        switch (direction, command.cmdOrDefault, command.op) {
        case (.send, .session, .open?):
            if openRequestID == nil { openRequestID = command.i }
            let client = command.string(.peerID).map { peer in command.string(.appID).map { $0 + "/" + peer } ?? peer }
            reconnectFacts.loginSent(at: time, frame: frame, reconnectFlag: command.bool(.sessionR), client: client)
        case (.send, .session, .close?):
            reconnectFacts.ended(.clientLogout, at: time)
        case (.send, .echo, _):
            reconnectFacts.keepAlive.record(time)
            reconnectFacts.keepAliveInMessages = true
        case (.receive, .session, .opened?):
            reconnectFacts.loginAccepted(at: time)
        case (.receive, .session, .closed?) where command.has(.sessionCode):
            let code = Int64(command.int32(.sessionCode) ?? 0)
            reconnectFacts.ended(loggingIn ? .loginRejected(code: code, waitMicros: nil) : .kicked(code: code), at: time)
        case (.receive, .error, _) where loggingIn && command.i != nil && command.i == openRequestID:
            reconnectFacts.ended(.loginRejected(code: Int64(command.int32(.errorCode) ?? 0), waitMicros: nil), at: time)
        case (.receive, .goaway, _):
            reconnectFacts.ended(.goaway, at: time)
        default:
            break
        }
    }

    static func encoding(implied message: CapturedMessage) -> LeanCloudEncoding {
        if message.frameType == .binary { return .protobuf }
        return message.payload.first == UInt8(ascii: "{") ? .json : .base64
    }
}
