import IMWireCore
import IMWireDialect
import IMWireReconnect
import IMWireSocketIO

/// One JMessage connection: each message (WebSocket text packets and binary attachments, or the
/// packets of an HTTP long-poll) through engine.io 3, socket.io 4 and the JMessage codec, the
/// transport session and the JMessage session; findings get their frame, time and direction
/// here, and logins and kicks become the session facts the reconnect judge reads.
public final class JMessageConnection: DialectConnection {
    public let dialect = Dialect.jmessage
    public let limits: Limits
    @exclusivity(unchecked) private var transport = EngineIOSession()
    @exclusivity(unchecked) public private(set) var tracker: JMessageSessionTracker
    @exclusivity(unchecked) public private(set) var sessionFacts = SessionFacts()
    /// The rid of the connection's first `login`.
    @exclusivity(unchecked) private var loginRID: Int64?
    private let namesMessages: Bool
    private let describesMessages: Bool

    public init(
        options: JMessageSessionOptions = JMessageSessionOptions(), limits: Limits = .default,
        namesMessages: Bool = false, describesMessages: Bool = false, judgesAcrossConnections: Bool = false
    ) {
        self.limits = limits
        tracker = JMessageSessionTracker(
            options: options, maxTracked: limits.maxPendingRequests, defersEarlyRequests: judgesAcrossConnections)
        self.namesMessages = namesMessages
        self.describesMessages = describesMessages
    }

    public convenience init(_ context: DialectContext) {
        self.init(
            options: context.options[JMessageSessionOptions.self], limits: context.limits,
            namesMessages: context.namesMessages, describesMessages: context.describesMessages,
            judgesAcrossConnections: context.judgesAcrossConnections)
    }

    /// Decodes and checks one message: what it holds, and the observation (every finding: codec,
    /// engine.io session and JMessage session).
    public func observe(
        _ bytes: [UInt8], binaryFrame: Bool, direction: Direction, timeMicros time: Int64, frameIndex: Int
    )
        -> (message: JMessageMessage, observation: DialectObservation)
    {
        let message = JMessageCodec(limits: limits, secret: tracker.options.secret).decodeValue(
            bytes, as: CanonicalInput(binary: binaryFrame, direction: direction))
        var findings = message.findings
        let (completed, transportFindings) = transport.observe(
            message.engineIO, direction: direction, timeMicros: time, frameIndex: frameIndex)
        findings += transportFindings
        for item in completed {
            // A binary event completes with its last attachment; it is read here, not by the codec.
            if item.packet.type.isBinary {
                findings += JMessageCodec.interpret(item.packet, direction: direction, secret: tracker.options.secret).1
            } else if let event = message.event {
                findings += tracker.observe(event, timeMicros: time, frameIndex: frameIndex)
            }
        }
        findings.place(onFrame: frameIndex, time: time, direction: direction) { message.summary }
        if let event = message.event { note(event, time: time, frame: frameIndex) }
        let observation = DialectObservation(
            findings: findings, summary: namesMessages ? message.summary : nil,
            canonicalJSON: describesMessages ? JMessageCanonicalJSON.encode(message) : nil)
        return (message, observation)
    }

    public func observe(_ message: WireMessage, timeMicros: Int64, frameIndex: Int) -> DialectObservation {
        observe(
            message.payload, binaryFrame: message.frameType == .binary, direction: message.direction,
            timeMicros: timeMicros, frameIndex: frameIndex
        ).observation
    }

    public func finish(atMicros time: Int64?, frameIndex: Int) -> [Finding] {
        var findings = transport.finish(atMicros: time) + tracker.finish(atMicros: time)
        sessionFacts.earlyRequests = tracker.earlyRequests
        sessionFacts.unansweredAtEnd = tracker.unansweredAtEnd
        findings.place(onFrame: frameIndex, time: time)
        return findings
    }

    /// Spec/reconnect.md §6: `login` and its response, and `event_notification` event_type 1
    /// (extra 0 concurrent login, 1 disabled, 2 deleted) and 2 (password changed).
    private func note(_ event: JMessageEvent, time: Int64, frame: Int) {
        switch (event.kind, event.name) {
        case (.request, "login"):
            if loginRID == nil { loginRID = event.rid }
            sessionFacts.loginSent(
                atMicros: time, frame: frame, reconnectFlag: nil, client: event.payload["username"]?.stringValue)
        case (.response, "login") where event.rid == loginRID:
            if event.code == 0 {
                sessionFacts.loginAccepted(atMicros: time)
            } else {
                sessionFacts.ended(.loginRejected(code: event.code ?? -1, waitMicros: nil), atMicros: time)
            }
        case (.push, "event_notification"):
            switch (event.payload["event_type"]?.int64Value, event.payload["extra"]?.int64Value) {
            case (1, 1): sessionFacts.ended(.kicked(code: 10002), atMicros: time)
            case (1, 2): sessionFacts.ended(.kicked(code: 10001), atMicros: time)
            case (1, _): sessionFacts.ended(.kicked(code: 1), atMicros: time)
            case (2, _): sessionFacts.ended(.kicked(code: 2), atMicros: time)
            default: break
            }
        default:
            break
        }
    }
}
