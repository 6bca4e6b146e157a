import IMWireCore
import IMWireDialect

/// Settings of a LeanCloud session check.
public struct LeanCloudSessionOptions: Sendable {
    /// How long a request may wait for its reply (µs). SDK defaults: Java 10 s, JS 20 s, Swift/ObjC 30 s.
    public var requestTimeoutMicros: Int64
    /// How long a received message may stay unacknowledged (µs); JS batches acks within 1 s.
    public var ackTimeoutMicros: Int64
    /// Largest client command the server accepts (bytes); larger ones get 4109.
    public var maxCommandSize: Int
    /// App id and master key, to verify signatures when given.
    public var credentials: Credentials?

    /// The app's keys, to verify the signatures of signed commands (`session open` and others).
    public struct Credentials: Sendable {
        public var appID: String?
        public var masterKey: String
        public init(appID: String? = nil, masterKey: String) {
            self.appID = appID
            self.masterKey = masterKey
        }
    }

    public init(
        requestTimeoutMicros: Int64 = 30_000_000, ackTimeoutMicros: Int64 = 5_000_000, maxCommandSize: Int = 5 * 1024,
        credentials: Credentials? = nil
    ) {
        self.requestTimeoutMicros = requestTimeoutMicros
        self.ackTimeoutMicros = ackTimeoutMicros
        self.maxCommandSize = maxCommandSize
        self.credentials = credentials
    }
}

/// Follows one LeanCloud connection, frame by frame, and reports what breaks the session rules:
/// replies matched to requests by `i`, the session gate (nothing before `session/opened`), kicks,
/// `goaway`, acknowledgements of received messages, size limits, signatures and typed messages.
/// Time is an input (µs from the capture); the tracker never reads a clock.
public struct LeanCloudSessionTracker: Sendable {
    /// Requests and pushes keep their command's fields and name it only when a finding needs the
    /// name: most never do, and naming every frame was a visible share of a check.
    private struct Pending: Sendable {
        let key: LeanCloudCommandKey
        let command: LeanCloudCommandFields
        var summary: String { LeanCloudNames.summary(of: command) }
        let time: Int64
        let frameIndex: Int
        let peer: String
    }

    private struct Unacked: Sendable {
        let messageID: String
        let conversationID: String
        let timestamp: Int64
        let time: Int64
        let frameIndex: Int
        let command: LeanCloudCommandFields
        var summary: String { LeanCloudNames.summary(of: command) }
    }

    public let options: LeanCloudSessionOptions
    private var pending: [Int32: Pending] = [:]
    private var opened: Set<String> = []
    /// The first client opened on this connection: commands without `peerId` are for it.
    private var defaultPeer: String?
    private var closedByClient: Set<String> = []
    private var kicked: [String: Int32] = [:]
    private var unacked: [Unacked] = []
    /// The times of the pending requests and unacknowledged messages, bounded.
    private var waiting = PendingTimes()
    private var goawayFrame: Int?
    private var reportedGoaway = false
    private var appID: String?
    /// Time and index of the frame being observed.
    private var now: (time: Int64, frame: Int) = (0, 0)

    public init(
        options: LeanCloudSessionOptions = LeanCloudSessionOptions(),
        maxTracked: Int = Limits.default.maxPendingRequests
    ) {
        self.maxTracked = maxTracked
        self.options = options
        appID = options.credentials?.appID
    }

    /// Peer id a command is for; commands without one go to the connection's first client.
    private func peer(of command: LeanCloudCommandFields) -> String {
        command.string(.peerID) ?? defaultPeer ?? ""
    }

    private mutating func markOpened(_ peer: String) {
        opened.insert(peer)
        defaultPeer = defaultPeer ?? peer
        closedByClient.remove(peer)
    }

    /// At most this many requests awaiting a reply, and as many pushes awaiting an ack, are
    /// tracked: a peer that never answers must not grow memory without bound (the rest go untracked).
    public let maxTracked: Int

    /// Reports requests and acknowledgements whose time ran out before `time`.
    private mutating func expire(before time: Int64, into findings: inout [Finding]) {
        // Runs for every frame: look before sorting or copying anything (nearly always, nothing is due).
        guard !waiting.nothingDue(at: time, timeout: min(options.requestTimeoutMicros, options.ackTimeoutMicros)) else {
            return
        }
        defer { waiting.reset(pending.values.map(\.time) + unacked.map(\.time)) }
        let requestDue = pending.values.contains { Self.gap($0.time, time) > options.requestTimeoutMicros }
        let ackDue = unacked.contains { Self.gap($0.time, time) > options.ackTimeoutMicros }
        guard requestDue || ackDue else { return }
        for (i, request) in pending.sorted(by: { $0.value.frameIndex < $1.value.frameIndex })
        where Self.gap(request.time, time) > options.requestTimeoutMicros {
            pending[i] = nil
            findings.append(
                Self.finding(
                    LeanCloudRules.requestUnanswered,
                    "\(request.summary) got no reply within \(Self.seconds(options.requestTimeoutMicros))",
                    frame: request.frameIndex, time: request.time, direction: .send, subject: request.summary))
        }
        let overdue = unacked.filter { Self.gap($0.time, time) > options.ackTimeoutMicros }
        unacked.removeAll { Self.gap($0.time, time) > options.ackTimeoutMicros }
        for message in overdue {
            findings.append(
                Self.finding(
                    LeanCloudRules.missingAck,
                    """
                    message \(message.messageID) in \(message.conversationID) not \
                    acknowledged within \(Self.seconds(options.ackTimeoutMicros))
                    """,
                    frame: message.frameIndex, time: message.time, direction: .receive, subject: message.summary))
        }
    }

    /// `to - from`, saturating: capture timestamps can be anywhere in Int64.
    private static func gap(_ from: Int64, _ to: Int64) -> Int64 {
        let (value, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? (to > from ? Int64.max : Int64.min) : value
    }

    private static func seconds(_ micros: Int64) -> String {
        micros % 1_000_000 == 0 ? "\(micros / 1_000_000) s" : "\(Double(micros) / 1_000_000) s"
    }

    private static func finding(
        _ rule: Rule, _ message: String, frame: Int, time: Int64?, direction: Direction, subject: String
    ) -> Finding {
        Finding(
            rule: rule, message: message, location: Location(frameIndex: frame, time: time, direction: direction),
            subject: subject)
    }

    /// Observes one decoded frame; returns the session findings it causes (codec findings are the caller's).
    public mutating func observe(
        _ decoded: LeanCloudDecodedCommand, direction: Direction, timeMicros time: Int64, frameIndex: Int
    ) -> [Finding] {
        var findings: [Finding] = []
        now = (time, frameIndex)
        expire(before: time, into: &findings)
        guard decoded.kind == .command, let command = decoded.fields else { return findings }
        // Names the command from its fields, not from `decoded`: capturing `decoded` copied the
        // whole decoded command for every frame.
        func report(_ rule: Rule, _ message: String) {
            findings.append(
                Self.finding(
                    rule, message, frame: frameIndex, time: time, direction: direction,
                    subject: LeanCloudNames.summary(of: command)))
        }
        let key = LeanCloudCommandKey(command.cmdOrDefault, command.op)
        let spec = LeanCloudCommandCatalog.spec(for: key)
        let peer = peer(of: command)

        switch direction {
        case .send:
            if let spec, spec.clientRole == nil {
                report(LeanCloudRules.wrongDirection, "\(key) is sent by servers only")
            }
            if decoded.wireSize > options.maxCommandSize {
                report(LeanCloudRules.commandTooLarge, "\(decoded.wireSize) bytes, limit \(options.maxCommandSize)")
            }
            if let goawayFrame, !reportedGoaway {
                reportedGoaway = true
                report(LeanCloudRules.goawayIgnored, "client still sends after goaway (frame \(goawayFrame))")
            }
            checkGate(command, key: key, peer: peer, report: report)
            trackRequest(command, key: key, spec: spec, time: time, frameIndex: frameIndex, peer: peer, report: report)
            if key.cmd == .ack { acknowledge(command) }
            if key == LeanCloudCommandKey(.session, .open), let app = command.string(.appID) { appID = appID ?? app }
            if options.credentials != nil, let typed = decoded.command {
                verifySignature(typed, peer: peer, report: report)
            }
        case .receive:
            if let spec, spec.serverRoles.isEmpty {
                report(LeanCloudRules.wrongDirection, "\(key) is sent by clients only")
            }
            trackReply(command, key: key, peer: peer, report: report)
        }
        if command.has(.directMsg) {
            for problem in command.withUTF8(.directMsg, LeanCloudRichMessage.findings(utf8:)) {
                report(problem.rule, "directMessage.msg: \(problem.message)")
            }
        }
        return findings
    }

    /// The session gate: before `session/opened`, after a kick, after the client's own close.
    private mutating func checkGate(
        _ command: LeanCloudCommandFields, key: LeanCloudCommandKey, peer: String, report: (Rule, String) -> Void
    ) {
        if !kicked.isEmpty, let code = kicked[peer] {  // the check is for the rare kicked client: skip the hashing
            if key == LeanCloudCommandKey(.session, .open) {
                if command.bool(.sessionR) {
                    report(LeanCloudRules.reopenAfterKick, "session/open with r=true after session/closed \(code)")
                }
                kicked[peer] = nil
            } else {
                report(
                    LeanCloudRules.commandAfterKick,
                    "\(key) after session/closed \(LeanCloudStatusCodes.describe(Int64(code)))")
            }
            return
        }
        let ungated =
            switch key.cmd {
            case .echo, .login, .logout: true
            default: false
            }
        guard key != LeanCloudCommandKey(.session, .open), !ungated, command.int32(.service) != 1,
            !opened.contains(peer)
        else { return }
        if closedByClient.contains(peer) {
            report(LeanCloudRules.commandAfterClose, "\(key) after the client closed the session")
        } else {
            report(LeanCloudRules.beforeSessionOpen, "\(key) before session/opened")
        }
    }

    private mutating func trackRequest(
        _ command: LeanCloudCommandFields, key: LeanCloudCommandKey, spec: LeanCloudCommandSpec?,
        time: Int64, frameIndex: Int, peer: String, report: (Rule, String) -> Void
    ) {
        guard let i = command.i else {
            if spec?.clientRole == .request, key.cmd != .echo {
                report(LeanCloudRules.requestWithoutI, "\(key) expects a reply but has no i")
            }
            return
        }
        if let earlier = pending[i] {
            report(
                LeanCloudRules.duplicateI, "i=\(i) is still in flight (frame \(earlier.frameIndex), \(earlier.summary))"
            )
            return
        }
        guard pending.count < maxTracked else { return }
        pending[i] = Pending(key: key, command: command, time: time, frameIndex: frameIndex, peer: peer)
        waiting.insert(time)
    }

    private mutating func trackReply(
        _ command: LeanCloudCommandFields, key: LeanCloudCommandKey, peer: String, report: (Rule, String) -> Void
    ) {
        var replyPeer = peer
        if let i = command.i {
            if let request = pending.removeValue(forKey: i) {
                replyPeer = request.peer
                if let answers = LeanCloudCommandCatalog.spec(for: request.key)?.answers, !answers.isEmpty,
                    command.cmd != .error, !answers.contains(key)
                {
                    let usual = answers.map(\.description).joined(separator: " or ")
                    report(LeanCloudRules.responseOpUnexpected, "\(key) answers \(request.key); usually \(usual)")
                }
                if request.key == LeanCloudCommandKey(.session, .open), key == LeanCloudCommandKey(.session, .opened) {
                    markOpened(request.peer)
                }
                if request.key == LeanCloudCommandKey(.session, .close), key == LeanCloudCommandKey(.session, .closed) {
                    opened.remove(request.peer)
                    closedByClient.insert(request.peer)
                }
            } else {
                report(LeanCloudRules.responseWithoutRequest, "\(key) i=\(i) matches no pending request")
            }
        } else if key == LeanCloudCommandKey(.session, .opened) {
            markOpened(peer)
        }

        switch key.cmd {
        case .error:
            let code = Int64(command.int32(.errorCode) ?? 0)
            let name = LeanCloudStatusCodes.imError(code)?.name
            let reason = command.string(.errorReason).map { $0 != name ? ": \($0)" : "" } ?? ""
            report(LeanCloudRules.errorReply, "error \(LeanCloudStatusCodes.describe(code))\(reason)")
        case .ack where command.has(.ackCode):
            report(
                LeanCloudRules.errorReply,
                "ack with code \(LeanCloudStatusCodes.describe(Int64(command.int32(.ackCode) ?? 0)))")
        case .session where key.op == .closed:
            opened.remove(replyPeer)
            if let code = command.int32(.sessionCode) {
                report(LeanCloudRules.errorReply, "session/closed \(LeanCloudStatusCodes.describe(Int64(code)))")
                if code == 4111 || code == 4115 { kicked[replyPeer] = code }
            }
        case .goaway:
            if goawayFrame == nil { report(LeanCloudRules.goaway, "goaway: the client is to reconnect") }
            goawayFrame = goawayFrame ?? now.frame
        case .direct where command.i == nil:
            expectAck(command)
        default:
            break
        }
    }

    /// A pushed message needs an `ack` unless it is transient, in a chat room, or the client's own.
    private mutating func expectAck(_ command: LeanCloudCommandFields) {
        guard let id = command.string(.directID), !command.bool(.directTransient), command.int32(.directConvType) != 2,
            !(command.string(.directFromPeerID).map(opened.contains) ?? false)
        else { return }
        guard unacked.count < maxTracked else { return }
        unacked.append(
            Unacked(
                messageID: id, conversationID: command.string(.directCID) ?? "",
                timestamp: command.integer(.directTimestamp) ?? 0, time: now.time, frameIndex: now.frame,
                command: command))
        waiting.insert(now.time)
    }

    /// Clears the messages an `ack` covers: by `mid` (Swift, Java), or by `cid` and the
    /// `fromts`…`tots` range (JS batches).
    private mutating func acknowledge(_ ack: LeanCloudCommandFields) {
        guard !unacked.isEmpty else { return }
        if let mid = ack.string(.ackMid) {
            unacked.removeAll { $0.messageID == mid }
            return
        }
        guard let cid = ack.string(.ackCID) else { return }
        let fromts = ack.integer(.ackFromts) ?? Int64.min
        let tots = ack.integer(.ackTots)
        unacked.removeAll { message in
            guard cid == message.conversationID else { return false }
            guard let tots else { return true }
            return fromts <= message.timestamp && message.timestamp <= tots
        }
    }

    private func verifySignature(_ command: LCGenericCommand, peer: String, report: (Rule, String) -> Void) {
        guard let credentials = options.credentials else { return }
        let client = command.hasPeerID ? command.peerID : peer
        guard let signed = LeanCloudSignature.signedAction(of: command, clientID: client) else { return }
        let app = credentials.appID ?? appID ?? ""
        for problem in LeanCloudSignature.verify(
            signature: signed.s, appID: app, action: signed.action, timestamp: signed.t,
            nonce: signed.n, masterKey: credentials.masterKey)
        {
            report(problem.rule, problem.message)
        }
    }

    /// Ends the session: requests still open and messages never acknowledged. A pushed message
    /// still within its ack time is named too (info): the JS SDK sends acks through a 1 s
    /// throttle (im.js `_doSendAck`, decorated `throttle(1000)`) and drops the ones it holds when
    /// the connection is gone (`if (!this._connection.is('connected')) return;`), so a client
    /// that closes right after a push leaves it unacknowledged, as a request in the same spot is
    /// left unanswered.
    public mutating func finish(atMicros time: Int64?) -> [Finding] {
        var findings: [Finding] = []
        if let time { expire(before: time == Int64.max ? time : time + 1, into: &findings) }
        for (_, request) in pending.sorted(by: { $0.value.frameIndex < $1.value.frameIndex }) {
            findings.append(
                Self.finding(
                    LeanCloudRules.requestPendingAtEnd,
                    "\(request.summary) still waiting for a reply when the capture ends",
                    frame: request.frameIndex, time: request.time, direction: .send, subject: request.summary))
        }
        pending.removeAll()
        for message in unacked {
            let after =
                time.flatMap {
                    $0 == Int64.max ? nil : " \(Self.milliseconds(Self.gap(message.time, $0))) after it arrived"
                } ?? ""
            findings.append(
                Self.finding(
                    LeanCloudRules.ackPendingAtEnd,
                    """
                    message \(message.messageID) in \(message.conversationID) not yet acknowledged when the \
                    connection or capture ends\(after) (ack time \(Self.seconds(options.ackTimeoutMicros)))
                    """,
                    frame: message.frameIndex, time: message.time, direction: .receive, subject: message.summary))
        }
        unacked.removeAll()
        return findings
    }

    private static func milliseconds(_ micros: Int64) -> String {
        micros >= 1_000_000 ? "\(Double(micros / 1000) / 1000) s" : "\(max(0, micros) / 1000) ms"
    }
}
