import IMWireCore
import IMWireDialect
import IMWireReconnect
import IMWireSocketIO

/// Settings of a JMessage session check (µs).
public struct JMessageSessionOptions: Sendable {
    /// ACK_TIMEOUT: the ack must come this long after each send.
    public var ackTimeoutMicros: Int64
    /// RESP_TIMEOUT: the response must come this long after the ack.
    public var responseTimeoutMicros: Int64
    /// RETRY_TIMES: how often one rid may be re-sent after its first send (jmessage.md §3: "the
    /// same payload is re-emitted, up to RETRY_TIMES 5"), so 5 allows six sends in all.
    public var resendLimit: Int
    /// How long a pushed message, sync or event may wait for the client's reply.
    public var replyTimeoutMicros: Int64
    /// The app's master secret: c_init signatures are verified when it is given.
    public var secret: String?

    public init(
        ackTimeoutMicros: Int64 = 5_000_000, responseTimeoutMicros: Int64 = 30_000_000, resendLimit: Int = 5,
        replyTimeoutMicros: Int64 = 5_000_000, secret: String? = nil
    ) {
        self.ackTimeoutMicros = ackTimeoutMicros
        self.responseTimeoutMicros = responseTimeoutMicros
        self.resendLimit = resendLimit
        self.replyTimeoutMicros = replyTimeoutMicros
        self.secret = secret
    }
}

/// Follows one JMessage Web connection: c_init then login before anything else; each request
/// acknowledged by `ack {rid}` within 5 s (or re-sent with the same rid, at most 5 re-sends) and
/// answered by the same event with `code` within 30 s; every msg_sync message acknowledged
/// with msg_recv_v2, every sync_* with its *_ack and key, event_type 1 with the client's reply;
/// nothing after a forced logout (event_type 1 or 2). Time is an input (µs).
public struct JMessageSessionTracker: Sendable {
    /// Where the connection is in JMessage's init, login and logout sequence.
    public enum Phase: Sendable, Hashable {
        case start
        case initialized
        case loggedIn
        case loggedOut(eventType: Int64)
    }

    private struct Pending: Sendable {
        let event: String
        let role: JMessageEventRole
        let firstFrame: Int
        var lastSend: Int64
        var sends: Int
        var acked: Int64?
        var reported = false
    }

    private struct Awaited: Sendable {
        let what: String
        let key: JSONValue?
        let time: Int64
        let frame: Int
    }

    public let options: JMessageSessionOptions
    public private(set) var phase: Phase = .start
    /// At most this many requests, pushed messages and events awaiting an answer are tracked, so
    /// a peer that never answers cannot grow memory without bound (the rest go untracked).
    public let maxTracked: Int
    private var pending: [Int64: Pending] = [:]
    /// msg_sync messages by msg_id, syncs by event name, events by event_id.
    private var messages: [String: Awaited] = [:]
    private var syncs: [String: Awaited] = [:]
    private var events: [String: Awaited] = [:]
    /// The times all of these wait from (a request's last send or its ack), bounded.
    private var waiting = PendingTimes()
    /// Requests before login that the checker judges across connections (`earlyRequest`).
    public private(set) var earlyRequests: [EarlyRequest] = []
    /// The requests still unanswered when the connection ended (`finish`), as `earlyRequest` keys.
    public private(set) var unansweredAtEnd: [String] = []
    /// JM.BEFORE-INIT and JM.BEFORE-LOGIN, once each per connection.
    private var reportedPhaseRules: Set<RuleID> = []
    private var reportedAfterLogout = false

    /// Requests before login with no evidence of their own go to `earlyRequests` for the caller
    /// to judge across connections, rather than being reported at once.
    public let defersEarlyRequests: Bool

    public init(
        options: JMessageSessionOptions = JMessageSessionOptions(), maxTracked: Int = Limits.default.maxPendingRequests,
        defersEarlyRequests: Bool = false
    ) {
        self.options = options
        self.maxTracked = maxTracked
        self.defersEarlyRequests = defersEarlyRequests
    }

    /// How much earlier than its timeout a timer-driven re-send may appear in a capture: the
    /// first send's arrival may be late (the genuine 2.5.0 SDK's 5 s re-send was seen 4.999 s
    /// after it), as NIM's tracker allows.
    static let timerSlackMicros: Int64 = 500_000

    private static func gap(_ from: Int64, _ to: Int64) -> Int64 {
        let (value, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? Int64.max : value
    }

    private static func seconds(_ micros: Int64) -> String {
        micros % 1_000_000 == 0 ? "\(micros / 1_000_000) s" : "\(Double(micros) / 1_000_000) s"
    }

    private func located(_ finding: Finding, frame: Int, time: Int64, direction: Direction, subject: String) -> Finding
    {
        var copy = finding
        copy.location = Location(frameIndex: frame, time: time, direction: direction)
        copy.subject = subject
        return copy
    }

    private mutating func expire(before time: Int64, into findings: inout [Finding]) {
        let timeout = min(options.ackTimeoutMicros, options.responseTimeoutMicros, options.replyTimeoutMicros)
        guard !waiting.nothingDue(at: time, timeout: timeout) else { return }
        defer {
            let requests = pending.values.lazy.filter { !$0.reported }.map { $0.acked ?? $0.lastSend }
            waiting.reset(Array(requests) + [messages, syncs, events].flatMap { $0.values.map(\.time) })
        }
        for rid in pending.keys.sorted() {
            guard var request = pending[rid], !request.reported else { continue }
            if let acked = request.acked {
                guard request.role == .request, Self.gap(acked, time) > options.responseTimeoutMicros else { continue }
                request.reported = true
                findings.append(
                    located(
                        JMessageRules.responseMissing.finding(
                            """
                            \(request.event) rid=\(rid) got no response within \
                            \(Self.seconds(options.responseTimeoutMicros)) of its ack
                            """),
                        frame: request.firstFrame, time: request.lastSend, direction: .send,
                        subject: "\(request.event) rid=\(rid)"))
            } else {
                guard Self.gap(request.lastSend, time) > options.ackTimeoutMicros else { continue }
                request.reported = true
                findings.append(
                    located(
                        JMessageRules.ackMissing.finding(
                            "\(request.event) rid=\(rid) got no ack within \(Self.seconds(options.ackTimeoutMicros))"),
                        frame: request.firstFrame, time: request.lastSend, direction: .send,
                        subject: "\(request.event) rid=\(rid)"))
            }
            pending[rid] = request
        }
        expireAwaited(&messages, JMessageRules.messageNotAcknowledged, before: time, into: &findings)
        expireAwaited(&syncs, JMessageRules.syncNotAcknowledged, before: time, into: &findings)
        expireAwaited(&events, JMessageRules.eventNotAcknowledged, before: time, into: &findings)
    }

    private func expireAwaited(
        _ table: inout [String: Awaited], _ rule: Rule, before time: Int64, into findings: inout [Finding]
    ) {
        let overdue = table.filter { Self.gap($0.value.time, time) > options.replyTimeoutMicros }.sorted {
            ($0.value.frame, $0.key) < ($1.value.frame, $1.key)
        }
        for (key, awaited) in overdue {
            table[key] = nil
            findings.append(
                located(
                    rule.finding("\(awaited.what) not acknowledged within \(Self.seconds(options.replyTimeoutMicros))"),
                    frame: awaited.frame, time: awaited.time, direction: .receive, subject: awaited.what))
        }
    }

    /// Observes one event; returns the session findings it causes (no location: the caller's).
    public mutating func observe(_ event: JMessageEvent, timeMicros time: Int64, frameIndex: Int) -> [Finding] {
        var findings: [Finding] = []
        // A re-send answers its own ack timeout: book it before the timeouts run.
        if event.kind == .request || event.kind == .reply, let rid = event.rid, pending[rid]?.event == event.name {
            observeClient(event, time: time, frameIndex: frameIndex, into: &findings)
            expire(before: time, into: &findings)
            return findings
        }
        expire(before: time, into: &findings)
        switch event.kind {
        case .request, .reply: observeClient(event, time: time, frameIndex: frameIndex, into: &findings)
        case .ack: observeAck(event, time: time, into: &findings)
        case .response: observeResponse(event, into: &findings)
        case .push: observePush(event, time: time, frameIndex: frameIndex, into: &findings)
        }
        return findings
    }

    /// Whether a client event before this connection logged in was carried over from an earlier
    /// connection: the Web SDK re-sends a pending request or reply with the same rid every 5 s
    /// until acknowledged (its timers survive onDisconnect) through its socket.io client, which
    /// reconnects the transport by itself after a drop, while no API call can make a new one before init and login (it
    /// throws 'must init first' / 'must login first'). Shown by a reply to a push this
    /// connection never had (no push comes before login), or a message whose content was
    /// created over half the ack timeout before this send (a fresh send carries the time of the
    /// send, a re-send goes out 5 s or more after it; jmessage-sdk-web 2.5.0:
    /// `ackTimeoutTask`: `this.channel.send(this.event, this._data), this.times++`).
    private func carriedOver(_ event: JMessageEvent, time: Int64) -> Bool {
        switch phase {
        case .start, .initialized: break
        default: return false
        }
        guard !["c_init", "login", "register"].contains(event.name) else { return false }
        if event.kind == .reply { return true }
        guard let created = event.payload["content"]?["create_time"]?.int64Value, created > 0 else { return false }
        let (createdMicros, overflow) = created.multipliedReportingOverflow(by: 1000)
        return !overflow && Self.gap(createdMicros, time) > options.ackTimeoutMicros / 2
    }

    private mutating func observeClient(
        _ event: JMessageEvent, time: Int64, frameIndex: Int, into findings: inout [Finding]
    ) {
        let name = event.name
        if carriedOver(event, time: time) {
            if pending[event.rid ?? -1] == nil {
                findings.append(
                    JMessageRules.resendBeforeLogin.finding(
                        """
                        \(name)\(event.rid.map { " rid=\($0)" } ?? "") before this \
                        connection logged in: re-sent from an earlier connection
                        """))
            }
        } else if defersEarlyRequests, let early = earlyRequest(event, time: time, frameIndex: frameIndex) {
            if pending[event.rid ?? -1] == nil { earlyRequests.append(early) }
        } else {
            checkPhase(event, into: &findings)
        }
        clearAwaited(event, into: &findings)
        trackRequest(event, time: time, frameIndex: frameIndex, into: &findings)
    }

    /// A request with a rid before this connection's c_init or login, with no evidence in the
    /// connection of where it came from: the checker decides across connections whether an
    /// earlier one left it unanswered (a re-send: the SDK's ack timer fired after the drop,
    /// e.g. a sync_check pending at the drop) or not (`JM.BEFORE-INIT` / `JM.BEFORE-LOGIN`).
    private func earlyRequest(_ event: JMessageEvent, time: Int64, frameIndex: Int) -> EarlyRequest? {
        guard event.kind == .request, let rid = event.rid, earlyRequests.count < SessionFacts.maxCarried else {
            return nil
        }
        let name = event.name
        guard let ifNew = phaseFinding(name) else { return nil }
        let key = "\(name) rid=\(rid)"
        let carried = JMessageRules.resendBeforeLogin.finding(
            """
            \(key) before this connection logged in: re-sent from \
            an earlier connection, which ended with it unanswered
            """)
        return EarlyRequest(
            key: key, ifNew: located(ifNew, frame: frameIndex, time: time, direction: .send, subject: key),
            ifCarried: located(carried, frame: frameIndex, time: time, direction: .send, subject: key))
    }

    /// JM.BEFORE-INIT or JM.BEFORE-LOGIN for client event `name` in the current phase, if any.
    private func phaseFinding(_ name: String) -> Finding? {
        switch phase {
        case .start where name != "c_init":
            JMessageRules.beforeInit.finding("\(name) before c_init succeeded")
        case .initialized where !["c_init", "login", "register"].contains(name):
            JMessageRules.beforeLogin.finding("\(name) before login succeeded")
        default:
            nil
        }
    }

    private mutating func checkPhase(_ event: JMessageEvent, into findings: inout [Finding]) {
        if let finding = phaseFinding(event.name) {
            if reportedPhaseRules.insert(finding.ruleID).inserted { findings.append(finding) }
        } else if case .loggedOut(let type) = phase, event.kind == .request, !reportedAfterLogout {
            reportedAfterLogout = true
            findings.append(
                JMessageRules.afterForcedLogout.finding("\(event.name) after event_type \(type) logged the user out"))
        }
    }

    private mutating func trackRequest(
        _ event: JMessageEvent, time: Int64, frameIndex: Int, into findings: inout [Finding]
    ) {
        let name = event.name
        guard let rid = event.rid else { return }
        if var earlier = pending[rid] {
            guard earlier.event == name else {
                findings.append(
                    JMessageRules.ridReused.finding(
                        "rid \(rid) of \(earlier.event) (frame \(earlier.firstFrame)) reused by \(name)"))
                return
            }
            earlier.sends += 1
            // The first send is not a re-send: RETRY_TIMES 5 allows 1 + 5 sends.
            if earlier.sends - 1 > options.resendLimit {
                findings.append(
                    JMessageRules.retryLimit.finding(
                        """
                        \(name) rid=\(rid) sent \(earlier.sends) times, \(earlier.sends - 1) \
                        re-sends (RETRY_TIMES allows \(options.resendLimit))
                        """))
            }
            let since = earlier.acked ?? earlier.lastSend
            let wait = earlier.acked == nil ? options.ackTimeoutMicros : options.responseTimeoutMicros
            if Self.gap(since, time) < wait - Self.timerSlackMicros {
                findings.append(
                    JMessageRules.retryEarly.finding(
                        """
                        \(name) rid=\(rid) re-sent after \(Self.seconds(Self.gap(since, time))), \
                        before the \(Self.seconds(wait)) timeout
                        """))
            }
            earlier.lastSend = time
            earlier.acked = nil
            earlier.reported = false
            pending[rid] = earlier
            waiting.insert(time)
            return
        }
        guard pending.count < maxTracked else { return }
        pending[rid] = Pending(
            event: name, role: event.spec?.role ?? .request, firstFrame: frameIndex, lastSend: time, sends: 1)
        waiting.insert(time)
    }

    /// A reply clears what it answers.
    private mutating func clearAwaited(_ event: JMessageEvent, into findings: inout [Finding]) {
        let payload = event.payload
        switch event.name {
        case "msg_recv_v2", "msg_recv":
            if let id = payload["msg_id"].map(key) { messages[id] = nil }
        case "event_notification":
            if let id = payload["event_id"].map(key) { events[id] = nil }
        default:
            guard let sync = JMessageEvents.syncAcks.first(where: { $0.value == event.name })?.key,
                let awaited = syncs[sync]
            else { return }
            syncs[sync] = nil
            if let key = awaited.key, payload["sync_key"] != key {
                findings.append(
                    JMessageRules.syncAckKeyMismatch.finding(
                        """
                        \(event.name) sync_key \
                        \(payload["sync_key"].map(\.description) ?? "missing"), \(sync) had \(key)
                        """))
            }
        }
    }

    private func key(_ value: JSONValue) -> String { value.stringValue ?? JSONWriter.string(value) }

    private mutating func observeAck(_ event: JMessageEvent, time: Int64, into findings: inout [Finding]) {
        guard let rid = event.rid else { return }
        guard var request = pending[rid] else {
            findings.append(JMessageRules.ackWithoutRequest.finding("ack rid=\(rid) matches no pending request"))
            return
        }
        request.acked = time
        request.reported = false
        waiting.insert(time)
        // A reply is done once acknowledged.
        if request.role != .request { pending[rid] = nil } else { pending[rid] = request }
    }

    private mutating func observeResponse(_ event: JMessageEvent, into findings: inout [Finding]) {
        guard let rid = event.rid else { return }
        guard let request = pending.removeValue(forKey: rid) else {
            findings.append(
                JMessageRules.responseWithoutRequest.finding("\(event.name) rid=\(rid) matches no pending request"))
            return
        }
        if request.event != event.name, JMessageEvents.responseAliases[event.name] != request.event {
            findings.append(
                JMessageRules.responseEventMismatch.finding("\(event.name) answers \(request.event) rid=\(rid)"))
        }
        guard event.code == 0 else { return }
        if request.event == "c_init", phase == .start { phase = .initialized }
        if request.event == "login", phase == .initialized || phase == .start { phase = .loggedIn }
    }

    private mutating func observePush(
        _ event: JMessageEvent, time: Int64, frameIndex: Int, into findings: inout [Finding]
    ) {
        let payload = event.payload
        switch event.name {
        case "msg_sync":
            for message in payload["messages"]?.arrayValue ?? [] {
                guard let id = message["msg_id"].map(key), messages.count < maxTracked || messages[id] != nil else {
                    continue
                }
                messages[id] = Awaited(what: "msg_sync msg_id=\(id)", key: nil, time: time, frame: frameIndex)
                waiting.insert(time)
            }
        case "event_notification":
            let type = payload["event_type"]?.int64Value
            if type == 1, let id = payload["event_id"].map(key), events.count < maxTracked || events[id] != nil {
                events[id] = Awaited(
                    what: "event_notification event_type 1 event_id=\(id)", key: nil, time: time, frame: frameIndex)
                waiting.insert(time)
            }
            if let type, type == 1 || type == 2 {
                phase = .loggedOut(eventType: type)
                let why: String
                switch (type, payload["extra"]?.int64Value) {
                case (2, _): why = "password changed"
                case (_, 1): why = "user disabled"
                case (_, 2): why = "user deleted"
                default: why = "logged in elsewhere"
                }
                findings.append(
                    JMessageRules.kicked.finding(
                        "event_notification event_type \(type) (\(why)): the server ended the login; the SDK logs out"))
            }
        default:
            if JMessageEvents.syncAcks[event.name] != nil {
                syncs[event.name] = Awaited(
                    what: "\(event.name) sync_key=\(payload["sync_key"].map(\.description) ?? "?")",
                    key: payload["sync_key"], time: time, frame: frameIndex)
                waiting.insert(time)
            }
        }
    }

    /// The connection ended at `time`.
    public mutating func finish(atMicros time: Int64?) -> [Finding] {
        var findings: [Finding] = []
        if let time { expire(before: time == Int64.max ? time : time + 1, into: &findings) }
        unansweredAtEnd = pending.keys.sorted().prefix(SessionFacts.maxCarried).compactMap { rid in
            pending[rid].map { "\($0.event) rid=\(rid)" }
        }
        for rid in pending.keys.sorted() {
            guard let request = pending[rid], !request.reported else { continue }
            findings.append(
                located(
                    JMessageRules.pendingAtEnd.finding("\(request.event) rid=\(rid) still waiting"),
                    frame: request.firstFrame, time: request.lastSend, direction: .send,
                    subject: "\(request.event) rid=\(rid)"))
        }
        pending.removeAll()
        return findings
    }
}
