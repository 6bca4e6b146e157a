import IMWireCore
import IMWireDialect
import IMWireReconnect

/// One NIM Web link connection: each message (a WebSocket text message, or an xhr-polling body)
/// through socket.io 0.9, the NIM codec and the session tracker; codec findings get their frame,
/// time and direction here, and logins, kicks and heartbeats become the session facts the
/// reconnect judge reads. A re-login after a kick or a refused login spans connections: the
/// checker finds it from the facts (`NIMDialect.relogin`).
public final class NIMConnection: DialectConnection {
    public let dialect = Dialect.nim
    public let limits: Limits
    private let codec: NIMCodec
    @exclusivity(unchecked) public private(set) var tracker: NIMSessionTracker
    @exclusivity(unchecked) public private(set) var sessionFacts = SessionFacts()
    private let namesMessages: Bool
    private let describesMessages: Bool

    public init(
        options: NIMSessionOptions = NIMSessionOptions(), limits: Limits = .default,
        endedAccounts: [String: String] = [:],
        namesMessages: Bool = false, describesMessages: Bool = false
    ) {
        self.limits = limits
        codec = NIMCodec(limits: limits)
        tracker = NIMSessionTracker(
            options: options, endedAccounts: endedAccounts, maxTracked: limits.maxPendingRequests)
        self.namesMessages = namesMessages
        self.describesMessages = describesMessages
    }

    public convenience init(_ context: DialectContext) {
        self.init(
            options: context.options[NIMSessionOptions.self], limits: context.limits,
            namesMessages: context.namesMessages, describesMessages: context.describesMessages)
    }

    /// Accounts whose session ended here, for the tracker of the client's next connection.
    public var endedAccounts: [String: String] { tracker.endedAccounts }

    /// Decodes and checks one message: what it holds, and the observation (every finding, codec
    /// and session).
    public func observe(_ bytes: [UInt8], direction: Direction, timeMicros time: Int64, frameIndex: Int)
        -> (message: NIMMessage, observation: DialectObservation)
    {
        let message = codec.decodeValue(bytes, as: CanonicalInput(binary: false, direction: direction))
        var findings =
            message.findings + tracker.observe(message, direction: direction, timeMicros: time, frameIndex: frameIndex)
        findings.place(onFrame: frameIndex, time: time, direction: direction) { message.summary }
        for item in message.items {
            // link.onConnect: the socket.io connect resets the Web SDK's backoff (NIMPolicies.web).
            if direction == .receive, item.socketIO.type == .connect { sessionFacts.linkEstablished(atMicros: time) }
            note(item.nim, direction: direction, time: time, frame: frameIndex)
        }
        let observation = DialectObservation(
            findings: findings, summary: namesMessages ? message.summary : nil,
            canonicalJSON: describesMessages ? NIMCanonicalJSON.encode(message) : nil)
        return (message, observation)
    }

    public func observe(_ message: WireMessage, timeMicros: Int64, frameIndex: Int) -> DialectObservation {
        observe(message.payload, direction: message.direction, timeMicros: timeMicros, frameIndex: frameIndex)
            .observation
    }

    public func finish(atMicros time: Int64?, frameIndex: Int) -> [Finding] {
        var findings = tracker.finish(atMicros: time)
        findings.place(onFrame: frameIndex, time: time)
        return findings
    }

    /// Spec/reconnect.md §6: login 2_3 and its answer (416 with its wait), heartbeats 1_2,
    /// kicked 2_5 and the client's logout 2_6.
    private func note(_ packet: NIMPacket?, direction: Direction, time: Int64, frame: Int) {
        switch packet {
        case .request(let request)? where direction == .send:
            if request.isHeartbeat {
                sessionFacts.keepAlive.record(time)
            } else if request.isLogin {
                sessionFacts.loginSent(
                    atMicros: time, frame: frame, reconnectFlag: nil, client: request.field("account")?.stringValue)
            } else if (request.sid, request.cid) == (2, 6) {
                sessionFacts.ended(.clientLogout, atMicros: time)
            }
        case .response(let response)? where direction == .receive:
            if (response.sid, response.cid) == (NIMCommands.login.sid, NIMCommands.login.cid) {
                if response.isSuccess {
                    sessionFacts.loginAccepted(atMicros: time)
                } else {
                    // 416: r[0] is the lockout in seconds (nim.md §1.1).
                    let wait =
                        response.code == 416
                        ? response.r?.first?.int64Value.map {
                            $0.multipliedReportingOverflow(by: 1_000_000).partialValue
                        } : nil
                    sessionFacts.ended(.loginRejected(code: response.code, waitMicros: wait), atMicros: time)
                }
            } else if (response.sid, response.cid) == (NIMCommands.kicked.sid, NIMCommands.kicked.cid) {
                sessionFacts.ended(.kicked(code: response.r?.dropFirst().first?.int64Value ?? 0), atMicros: time)
            }
        default:
            break
        }
    }
}
