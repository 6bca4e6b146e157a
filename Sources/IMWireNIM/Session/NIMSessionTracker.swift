import IMWireCore
import IMWireDialect
import IMWireSocketIO

/// Settings of a NIM session check (µs).
public struct NIMSessionOptions: Sendable {
    /// `cmdTimeout`: how long a request may wait for its response.
    public var requestTimeoutMicros: Int64
    /// `hbCmdTimeout`: how long a heartbeat may wait.
    public var heartbeatTimeoutMicros: Int64
    /// `heartbeatInterval`: the next heartbeat is due this long after the previous one completed.
    public var heartbeatIntervalMicros: Int64

    public init(
        requestTimeoutMicros: Int64 = 8_000_000, heartbeatTimeoutMicros: Int64 = 5_000_000,
        heartbeatIntervalMicros: Int64 = 30_000_000
    ) {
        self.requestTimeoutMicros = requestTimeoutMicros
        self.heartbeatTimeoutMicros = heartbeatTimeoutMicros
        self.heartbeatIntervalMicros = heartbeatIntervalMicros
    }
}

/// Follows one NIM Web link connection: login 2_3 first and nothing else before it succeeds
/// (1_5/1_6 excepted; on a chat-room link, chat-room login 13_2 plays that part, nim.md §3.4
/// item 6); each request answered with its sid, cid and ser in time; SER counting
/// 1…32767; a heartbeat every 30 s; the login steps a client would show; and the ends of a
/// session (302/417/422 at login, kicked 2_5) after which the client sends nothing and does not
/// log in again by itself. Accounts that ended are remembered in `endedAccounts` for the
/// tracker of the client's next connection. Time is an input (µs).
public struct NIMSessionTracker: Sendable {
    /// Where the link is in NIM's connect, login and logout sequence.
    public enum Phase: Sendable, Hashable {
        case connecting
        case loggingIn
        case loggedIn
        case loginFailed(code: Int64)
        case kicked(reason: Int64?)
    }

    private struct Pending: Sendable {
        let sid: Int64
        let cid: Int64
        let time: Int64
        let frame: Int
        let summary: String
        let timeout: Int64
    }

    public let options: NIMSessionOptions
    public private(set) var phase: Phase = .connecting
    /// The account of this connection's login (tag 19 of the login Property).
    public private(set) var account: String?
    /// Accounts whose session ended (login failure or kick), with why, across connections.
    public private(set) var endedAccounts: [String: String]
    /// The login steps seen, in order (iOS `NIMLoginStep` numbers).
    public private(set) var steps: [Int64] = []
    /// At most this many requests awaiting a response are tracked, so a peer that never answers
    /// cannot grow memory without bound.
    public let maxTracked: Int
    private var pending: [String: Pending] = [:]
    /// The times of the pending requests, bounded.
    private var waiting = PendingTimes()
    private var lastSer: Int64?
    /// When the last request was sent, and until when a 416 lockout blocks a command: the Web
    /// SDK numbers a command (createCmd, SER + 1) before executeCmdTask drops it locally under
    /// the lockout, so its SER never reaches the wire (nim-error recording).
    private var lastRequestTime: Int64?
    private var lockoutUntil: Int64?
    private var heartbeatDueFrom: Int64?
    private var reportedAfterEnd = false
    private var reportedBeforeLogin = false
    private var transport = SocketIO09Session()

    public init(
        options: NIMSessionOptions = NIMSessionOptions(), endedAccounts: [String: String] = [:],
        maxTracked: Int = Limits.default.maxPendingRequests
    ) {
        self.maxTracked = maxTracked
        self.options = options
        self.endedAccounts = endedAccounts
    }

    private static func seconds(_ micros: Int64) -> String {
        micros % 1_000_000 == 0 ? "\(micros / 1_000_000) s" : "\(Double(micros) / 1_000_000) s"
    }

    private static func gap(_ from: Int64, _ to: Int64) -> Int64 {
        let (value, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? Int64.max : value
    }

    private static func key(_ sid: Int64, _ cid: Int64, _ ser: Int64) -> String { "\(sid)_\(cid)#\(ser)" }

    /// How much earlier than its timeout a timer-driven resend may appear in a capture.
    static let timerSlackMicros: Int64 = 500_000

    /// Chat-room login 13_2: the first command on a chat-room link.
    static func isChatroomLogin(_ sid: Int64, _ cid: Int64) -> Bool { sid == 13 && cid == 2 }

    private mutating func step(_ number: Int64, _ detail: String, into findings: inout [Finding]) {
        steps.append(number)
        let name = NIMStatusCodes.loginStep.rows(number).first?.name ?? "step \(number)"
        findings.append(NIMRules.loginStep.finding("\(name)\(detail.isEmpty ? "" : ": \(detail)")"))
    }

    /// Requests overdue at `time`, and a heartbeat that did not come.
    private mutating func expire(before time: Int64, into findings: inout [Finding]) {
        let mayBeDue = !waiting.nothingDue(
            at: time, timeout: min(options.heartbeatTimeoutMicros, options.requestTimeoutMicros))
        let overdue =
            mayBeDue
            ? pending.filter { Self.gap($0.value.time, time) > $0.value.timeout }.sorted {
                $0.value.frame < $1.value.frame
            } : []
        for (key, request) in overdue {
            pending[key] = nil
            var finding = NIMRules.requestUnanswered.finding(
                "\(request.summary) got no response within \(Self.seconds(request.timeout))")
            finding.location = Location(frameIndex: request.frame, time: request.time, direction: .send)
            finding.subject = request.summary
            findings.append(finding)
        }
        if mayBeDue { waiting.reset(pending.values.map(\.time)) }
        if phase == .loggedIn, let due = heartbeatDueFrom,
            Self.gap(due, time) > options.heartbeatIntervalMicros + options.heartbeatTimeoutMicros
        {
            findings.append(
                NIMRules.heartbeatLate.finding(
                    """
                    no heartbeat 1_2 for \(Self.seconds(Self.gap(due, time))) \
                    (interval \(Self.seconds(options.heartbeatIntervalMicros)))
                    """))
            heartbeatDueFrom = time
        }
    }

    /// Observes one decoded message; returns the session findings it causes.
    public mutating func observe(_ message: NIMMessage, direction: Direction, timeMicros time: Int64, frameIndex: Int)
        -> [Finding]
    {
        var findings: [Finding] = []
        expire(before: time, into: &findings)
        for item in message.items {
            findings += transport.observe(item.socketIO, direction: direction)
            if direction == .receive, item.socketIO.type == .connect, steps.isEmpty {
                step(2, "socket.io connect", into: &findings)
            }
            switch item.nim {
            case .request(let request)? where direction == .send:
                observe(request, time: time, frameIndex: frameIndex, summary: item.nim?.summary ?? "", into: &findings)
            case .response(let response)? where direction == .receive:
                observe(response, time: time, into: &findings)
            default:
                break
            }
        }
        return findings
    }

    private mutating func observe(
        _ request: NIMRequest, time: Int64, frameIndex: Int, summary: String, into findings: inout [Finding]
    ) {
        switch phase {
        case .loginFailed(let code):
            if !reportedAfterEnd {
                reportedAfterEnd = true
                findings.append(NIMRules.afterLoginFailure.finding("\(summary) after login failed with \(code)"))
            }
        case .kicked(let reason):
            if !reportedAfterEnd {
                reportedAfterEnd = true
                findings.append(
                    NIMRules.commandAfterKick.finding(
                        "\(summary) after kicked (reason \(reason.map(String.init) ?? "?"))"))
            }
        case .connecting, .loggingIn:
            let link = request.sid == 1 && (request.cid == 5 || request.cid == 6)
            if !request.isLogin, !Self.isChatroomLogin(request.sid, request.cid), !link, !reportedBeforeLogin {
                reportedBeforeLogin = true
                findings.append(NIMRules.beforeLogin.finding("\(summary) before the login succeeded"))
            }
        case .loggedIn:
            if request.isLogin {
                findings.append(NIMRules.secondLogin.finding("login again on a logged-in connection"))
            }
        }
        if request.isLogin {
            let account = request.field("account")?.stringValue
            if let account, let why = endedAccounts[account] {
                findings.append(NIMRules.autoRelogin.finding("account \(account) logs in again after \(why)"))
            }
            self.account = account ?? self.account
            if phase == .connecting { phase = .loggingIn }
            step(4, "login 2_3", into: &findings)
        }
        if Self.isChatroomLogin(request.sid, request.cid), phase == .connecting {
            phase = .loggingIn
            step(4, "chat-room login 13_2", into: &findings)
        }
        if request.sid == NIMCommands.sync.sid, request.cid == NIMCommands.sync.cid {
            step(7, "sync 5_1", into: &findings)
        }
        if request.isHeartbeat {
            heartbeatDueFrom = nil
        } else if let last = lastSer, request.ser != (last >= 32767 ? 1 : last + 1) {
            // A lockout (416) in force since the previous request may have swallowed SERs.
            let lockedOut = lockoutUntil.map { until in lastRequestTime.map { until > $0 } ?? true } ?? false
            if !lockedOut { findings.append(NIMRules.serNotSequential.finding("SER \(request.ser) after \(last)")) }
        }
        if !request.isHeartbeat {
            lastSer = request.ser
            lastRequestTime = time
        }
        let key = Self.key(request.sid, request.cid, request.ser)
        if let earlier = pending[key] {
            // Web SDK onHeartbeat: on Error_Timeout it sends the next heartbeat (SER 0 again) at
            // once, from the timer that started just before the first one was sent, so the
            // capture may date the resend a hair under 5 s after it (nim-hb-unanswered: 5.007 s).
            let resend =
                request.isHeartbeat
                && Self.gap(earlier.time, time) >= options.heartbeatTimeoutMicros - Self.timerSlackMicros
            guard resend else {
                findings.append(
                    NIMRules.serReused.finding("SER \(request.ser) is still pending (frame \(earlier.frame))"))
                return
            }
            pending[key] = nil
            var finding = NIMRules.requestUnanswered.finding(
                "\(earlier.summary) got no response within \(Self.seconds(earlier.timeout))")
            finding.location = Location(frameIndex: earlier.frame, time: earlier.time, direction: .send)
            finding.subject = earlier.summary
            findings.append(finding)
        }
        guard pending.count < maxTracked else { return }
        pending[key] = Pending(
            sid: request.sid, cid: request.cid, time: time, frame: frameIndex, summary: summary,
            timeout: request.isHeartbeat ? options.heartbeatTimeoutMicros : options.requestTimeoutMicros)
        waiting.insert(time)
    }

    private mutating func observe(_ response: NIMResponse, time: Int64, into findings: inout [Finding]) {
        let matched = pending.removeValue(forKey: Self.key(response.sid, response.cid, response.ser))
        if matched == nil, response.command?.origin == .request, response.ser != 0 {
            findings.append(
                NIMRules.responseWithoutRequest.finding(
                    "\(response.sid)_\(response.cid) ser=\(response.ser) matches no pending request"))
        }
        if response.sid == NIMCommands.login.sid, response.cid == NIMCommands.login.cid, matched != nil {
            if response.isSuccess {
                phase = .loggedIn
                heartbeatDueFrom = time
                step(5, "code \(response.code)", into: &findings)
            } else {
                step(6, "code \(response.code)", into: &findings)
                if NIMWebCodes.endsLogin(response.code) {
                    phase = .loginFailed(code: response.code)
                    if let account { endedAccounts[account] = "login failure \(response.code)" }
                }
            }
        }
        // A chat-room link (nim.md §3.4 item 6) logs in with 13_2; whether it sends heartbeats
        // is not in the reference, so none is required there.
        if Self.isChatroomLogin(response.sid, response.cid), matched != nil, phase == .loggingIn {
            if response.isSuccess {
                phase = .loggedIn
                step(5, "chat-room code \(response.code)", into: &findings)
            } else {
                step(6, "chat-room code \(response.code)", into: &findings)
                if NIMWebCodes.endsLogin(response.code) { phase = .loginFailed(code: response.code) }
            }
        }
        if response.sid == NIMCommands.sync.sid, response.cid == NIMCommands.sync.cid, matched != nil {
            step(8, "syncDone", into: &findings)
        }
        if response.sid == 1, response.cid == 2, matched != nil { heartbeatDueFrom = time }
        // 416 frequency control: parseResponse reads r[0] as seconds and executeCmdTask refuses
        // the command locally until then (`isFrequencyControlled`), after createCmd numbered it.
        if response.code == 416, let seconds = response.r?.first?.int64Value, seconds > 0 {
            let until = time.addingReportingOverflow(seconds.multipliedReportingOverflow(by: 1_000_000).partialValue)
            lockoutUntil = until.overflow ? Int64.max : until.partialValue
        }
        if response.sid == NIMCommands.kicked.sid, response.cid == NIMCommands.kicked.cid {
            let reason = response.r?[safe: 1]?.int64Value
            phase = .kicked(reason: reason)
            let name = reason.flatMap { NIMStatusCodes.webKickReason.rows($0).first?.name } ?? "unknown reason"
            let from = response.r?[safe: 0]?.int64Value.flatMap { NIMStatusCodes.loginClientType.rows($0).first?.name }
            let reaction =
                reason.map(NIMWebCodes.kickReconnects) == true
                ? "the Web SDK drops the link and reconnects" : "the Web SDK ends the session and does not reconnect"
            findings.append(
                NIMRules.kicked.finding(
                    """
                    kicked 2_5 reason \(reason.map(String.init) ?? "?") \
                    (\(name))\(from.map { " from \($0)" } ?? ""): \(reaction)
                    """))
            // Web SDK 8.5.0 onKicked: silentlyKick (4) is `forceDisconnect(); onDisconnect(1, …)`, a
            // reconnect; the other reasons go to onAuthError (shouldReconnect = false).
            if let account, reason.map(NIMWebCodes.kickReconnects) != true {
                endedAccounts[account] = "kicked (2_5 reason \(reason.map(String.init) ?? "?"))"
            }
        }
    }

    /// The connection ended at `time`: requests overdue or still pending.
    public mutating func finish(atMicros time: Int64?) -> [Finding] {
        var findings: [Finding] = []
        if let time { expire(before: time == Int64.max ? time : time + 1, into: &findings) }
        for (_, request) in pending.sorted(by: { $0.value.frame < $1.value.frame }) {
            var finding = NIMRules.pendingAtEnd.finding("\(request.summary) still waiting for its response")
            finding.location = Location(frameIndex: request.frame, time: request.time, direction: .send)
            finding.subject = request.summary
            findings.append(finding)
        }
        pending.removeAll()
        return findings
    }
}
