import IMWireCore
import IMWireDialect
import IMWireReconnect

/// LeanCloud on one connection: the encoding from the subprotocol (or, without one, from each
/// frame's type), the codec, the session tracker, and the session facts the reconnect judge reads.
public final class LeanCloudConnection: DialectConnection {
    public let dialect = Dialect.leancloud
    public let subprotocol: LeanCloudSubprotocol?
    public let limits: Limits
    @exclusivity(unchecked) public private(set) var tracker: LeanCloudSessionTracker
    private let namesMessages: Bool
    private let describesMessages: Bool
    @exclusivity(unchecked) public private(set) var sessionFacts = SessionFacts(keepAliveInMessages: false)
    /// The `i` of the connection's first `session/open`: an `error` with it refuses the login.
    @exclusivity(unchecked) private var openRequestID: Int32?

    public init(_ context: DialectContext) {
        subprotocol = context.subprotocol.flatMap(LeanCloudSubprotocol.init)
        limits = context.limits
        namesMessages = context.namesMessages
        describesMessages = context.describesMessages
        tracker = LeanCloudSessionTracker(
            options: context.options[LeanCloudSessionOptions.self], maxTracked: context.limits.maxPendingRequests)
    }

    public func observe(_ message: WireMessage, timeMicros time: Int64, frameIndex: Int) -> DialectObservation {
        observeCommand(message, timeMicros: time, frameIndex: frameIndex).observation
    }

    /// Decodes and checks one message: what it decoded to (its typed `command`, nil for the
    /// JSON heartbeat `{}` or bytes that hold no command), and the observation (every finding,
    /// codec and session).
    package func observeCommand(_ message: WireMessage, timeMicros time: Int64, frameIndex: Int)
        -> (decoded: LeanCloudDecodedCommand, observation: DialectObservation)
    {
        var findings: [Finding] = []
        // A message means the WebSocket is open: where the JS SDK restarts its backoff (LeanCloudPolicies.js).
        sessionFacts.linkEstablished(atMicros: time)
        // The subprotocol picks the encoding; a frame of the other type is reported and decoded
        // the way its type implies (binary as protobuf, text as JSON or base64).
        var encoding = Self.encoding(implied: message)
        if let subprotocol {
            if (message.frameType == .text) != subprotocol.encoding.isText {
                findings.append(
                    LeanCloudRules.frameTypeMismatch.finding(
                        "\(message.frameType) frame under \(subprotocol.name)", at: 0))
            } else {
                encoding = subprotocol.encoding
            }
        }
        let codec = LeanCloudCodec(encoding: encoding, limits: limits)
        let decoded = codec.decodeValue(message.payload, as: CanonicalInput(binary: message.frameType == .binary))
        // Named only when the context asks: a summary and JSON per message cost.
        var observation = DialectObservation(findings: [], summary: namesMessages ? decoded.summary : nil)
        if describesMessages {
            observation.canonicalJSON = codec.canonicalJSON(decoded)
        }
        findings += decoded.findings
        findings.place(onFrame: frameIndex, time: time, direction: message.direction) { decoded.summary }
        if decoded.kind == .command, let command = decoded.fields {
            note(command, direction: message.direction, time: time, frame: frameIndex)
        }
        let sessionFindings = tracker.observe(
            decoded, direction: message.direction, timeMicros: time, frameIndex: frameIndex)
        // Nearly always no codec finding: no array is built.
        observation.findings = findings.isEmpty ? sessionFindings : findings + sessionFindings
        return (decoded, observation)
    }

    public func finish(atMicros time: Int64?, frameIndex: Int) -> [Finding] { tracker.finish(atMicros: time) }

    /// A 4xxx close code is the server's error (leancloud.md §5.2, the error table's
    /// message-or-close rows). js-realtime-sdk `realtime.js:255-270` stops on 4100, 4103 and 4110
    /// and reconnects on any other; a close code 1000–1015 is the WebSocket's own.
    public func observeClose(code: Int, timeMicros time: Int64, frameIndex: Int) -> [Finding] {
        guard (4000...4999).contains(code) else { return [] }
        let fatal = LeanCloudPolicies.jsFatalCloseCodes.contains(Int64(code))
        var finding = LeanCloudRules.errorReply.finding(
            "WebSocket close \(LeanCloudStatusCodes.describe(Int64(code))); the JS SDK "
                + (fatal ? "stops (a fatal close code)" : "reconnects"))
        finding.location = Location(frameIndex: frameIndex, time: time)
        finding.subject = "close \(code)"
        return [finding]
    }

    public func observePing(_ direction: Direction, timeMicros time: Int64) {
        if direction == .send { sessionFacts.keepAlive.record(time) }
    }

    /// Spec/reconnect.md §6: `session/open` (its `r`, and its `ua`, which names the client's
    /// policy) and its answer, `echo`, `session/closed` with a code, `goaway`, and the client's
    /// own `session/close`.
    private func note(_ command: LeanCloudCommandFields, direction: Direction, time: Int64, frame: Int) {
        let loggingIn = sessionFacts.login != nil && sessionFacts.login?.accepted == nil
        switch (direction, command.cmdOrDefault, command.op) {
        case (.send, .session, .open?):
            if openRequestID == nil { openRequestID = command.i }
            let client = command.string(.peerID).map { peer in command.string(.appID).map { $0 + "/" + peer } ?? peer }
            sessionFacts.loginSent(atMicros: time, frame: frame, reconnectFlag: command.bool(.sessionR), client: client)
            // The client's SDK, by its `ua`, names the policy that judges its reconnects (one
            // session/open per connection: building the typed command here costs nothing).
            if sessionFacts.policyName == nil, let ua = command.typedCommand()?.sessionMessage.ua,
                let policy = LeanCloudPolicies.policy(forUserAgent: ua)
            {
                sessionFacts.policyName = policy.name
            }
        case (.send, .session, .close?):
            sessionFacts.ended(.clientLogout, atMicros: time)
        case (.send, .echo, _):
            sessionFacts.keepAlive.record(time)
            sessionFacts.keepAliveInMessages = true
        case (.receive, .session, .opened?):
            sessionFacts.loginAccepted(atMicros: time)
        case (.receive, .session, .closed?) where command.has(.sessionCode):
            let code = Int64(command.int32(.sessionCode) ?? 0)
            sessionFacts.ended(
                loggingIn ? .loginRejected(code: code, waitMicros: nil) : .kicked(code: code), atMicros: time)
        case (.receive, .error, _) where loggingIn && command.i != nil && command.i == openRequestID:
            sessionFacts.ended(
                .loginRejected(code: Int64(command.int32(.errorCode) ?? 0), waitMicros: nil), atMicros: time)
        case (.receive, .goaway, _):
            sessionFacts.ended(.goaway, atMicros: time)
        default:
            break
        }
    }

    /// The encoding a frame's type implies: binary is protobuf, text is JSON when it starts with
    /// `{`, else base64.
    public static func encoding(implied message: WireMessage) -> LeanCloudEncoding {
        if message.frameType == .binary { return .protobuf }
        return message.payload.first == UInt8(ascii: "{") ? .json : .base64
    }
}
