import IMWireCore
import IMWireNIM
import IMWireReconnect
import IMWireYun2win

/// What spans connections, judged once every connection has been read, so that connections can
/// be checked independently (in any order, on several threads): the dialect rules about a
/// client that logs in again after its session was ended, and the reconnect judge
/// (Spec/reconnect.md §6).
extension Checker {
    /// Dialect rules that already report what a judge finding would say about the same
    /// connection: there the judge's finding is dropped, so one problem is reported once.
    static let judgeFindingsReportedBy: [RuleID: Set<RuleID>] = [
        ReconnectRules.afterTerminal.id: [NIMRules.autoRelogin.id, Yun2winRules.reconnectAfterKick.id],
        ReconnectRules.afterTerminalSuspected.id: [NIMRules.autoRelogin.id, Yun2winRules.reconnectAfterKick.id],
        ReconnectRules.heartbeatMissing.id: [NIMRules.heartbeatLate.id, Yun2winRules.keepAliveExceeded.id],
    ]
    /// Every rule some judge finding defers to.
    static let judgeDeferredRules = judgeFindingsReportedBy.values.reduce(into: Set<RuleID>()) { $0.formUnion($1) }

    /// One client's connections, each with reconnect facts (the judge's facts are read from the
    /// connection, not copied: they are a few hundred bytes for each of a large capture's connections).
    typealias Client = [EndedConnection]

    /// Groups the connections by client (dialect and the id its login names, else the client's
    /// address), then checks each client's connections in order.
    func judgeAcrossConnections(_ connections: [EndedConnection]) {
        var clients: [String: Client] = [:]
        var order: [String] = []
        for conn in connections {
            guard let dialect = conn.dialect, let facts = conn.facts, conn.firstTime != nil,
                  let who = facts.client.map({ "id " + $0 }) ?? conn.client.map({ "host " + Self.host($0) })
            else { continue }
            let key = "\(dialect.rawValue) \(who)"
            if clients[key] == nil { order.append(key) }
            clients[key, default: []].append(conn)
        }
        let captureEnd = connections.compactMap(\.lastTime).max()
        for key in order {
            guard let client = clients[key], let dialect = client.first?.dialect else { continue }
            reloginAfterEnd(client, dialect: dialect)
            judgeReconnects(client, dialect: dialect, captureEnd: captureEnd)
        }
    }

    /// NIM.AUTO-RELOGIN: a login for an account whose earlier connection was kicked (2_5) or
    /// refused at login (302/417/422). Y2W.RECONNECT-AFTER-KICK: a CONNECT with client id prefix 1
    /// for a uid kicked (10) earlier. One finding per ending; a fresh yun2win login (prefix 0)
    /// shows the user logged in again.
    private func reloginAfterEnd(_ client: Client, dialect: Dialect) {
        var ending: (connection: String, why: String, time: Int64)?
        for conn in client.sorted(by: { ($0.facts?.login?.sent ?? .max) < ($1.facts?.login?.sent ?? .max) }) {
            guard let facts = conn.facts, let login = facts.login else { continue }
            if let ended = ending, login.sent >= ended.time {
                ending = nil
                let who = facts.client ?? "?"
                var finding: Finding?
                switch dialect {
                case .nim:
                    finding = NIMRules.autoRelogin.finding("account \(who) logs in again after \(ended.why) on \(ended.connection)")
                case .yun2win where login.reconnectFlag == true:
                    finding = Yun2winRules.reconnectAfterKick.finding(
                        "uid \(who) was kicked (10) on \(ended.connection) and reconnects automatically (client id prefix 1)")
                default:
                    break
                }
                if var finding {
                    finding.location = Location(connection: conn.id, frameIndex: facts.loginFrame, time: login.sent, direction: .send)
                    conn.add(finding, options: options, line: nil, frame: facts.loginFrame)
                }
            }
            if let why = Self.sessionEnding(facts.end, dialect: dialect), let time = facts.endTime {
                ending = (conn.id, why, time)
            }
        }
    }

    /// Why a connection's end forbids an automatic re-login, for the dialects whose rules say so.
    private static func sessionEnding(_ end: ConnectionEnd?, dialect: Dialect) -> String? {
        switch (dialect, end) {
        case (.nim, .kicked(let reason)?): "kicked (2_5 reason \(reason))"
        case (.nim, .loginRejected(let code, _)?) where NIMWebCodes.endsLogin(code): "login failure \(code)"
        case (.yun2win, .kicked(10)?): "kick"
        default: nil
        }
    }

    /// The reconnect judge on one client's connections, with the client's policy: `--policy`
    /// when it names one of the dialect's, else the one the connection names (yun2win's client
    /// id), else the dialect's default.
    private func judgeReconnects(_ client: Client, dialect: Dialect, captureEnd: Int64?) {
        let named = options.reconnectPolicies.policy(for: dialect)
        let policy = named ?? client.lazy.compactMap(\.facts?.policy).first ?? options.reconnectPolicy(for: dialect)
        let judge = ReconnectJudge(policy: policy, options: options.reconnect)
        for var finding in judge.judge(client.compactMap(Self.observation), captureEnd: captureEnd) {
            guard let conn = client.first(where: { $0.id == finding.location.connection }), let facts = conn.facts else { continue }
            let reported = Self.judgeFindingsReportedBy[finding.ruleID] ?? []
            guard !conn.hasFinding(of: reported) else { continue }
            if finding.location.time == facts.login?.sent { finding.location.frameIndex = facts.loginFrame }
            conn.add(finding, options: options, line: nil, frame: finding.location.frameIndex)
        }
    }

    /// One connection as the judge sees it. A connection the capture leaves open has no end; one
    /// that closed ends as its messages said (a kick, a logout…) or with its WebSocket close code.
    static func observation(_ conn: EndedConnection) -> ConnectionObservation? {
        guard let facts = conn.facts else { return nil }
        let closedAt = conn.closed && !conn.openAtCaptureEnd ? conn.lastTime : nil
        let end = facts.end ?? (closedAt == nil ? .open : .closed(code: conn.closeCode.map(Int64.init)))
        return ConnectionObservation(
            connection: conn.id, opened: conn.firstTime ?? 0, login: facts.login, keepAlive: facts.keepAlive,
            keepAliveVisible: facts.keepAliveInMessages || conn.hasTransportBytes,
            ended: closedAt ?? (facts.end == nil ? nil : facts.endTime), end: end)
    }

    /// `10.0.0.1` of `10.0.0.1:51234`, `::1` of `[::1]:443`.
    static func host(_ endpoint: String) -> String {
        if endpoint.hasPrefix("["), let close = endpoint.firstIndex(of: "]") {
            return String(endpoint[endpoint.index(after: endpoint.startIndex)..<close])
        }
        guard let colon = endpoint.lastIndex(of: ":"), endpoint.firstIndex(of: ":") == colon else { return endpoint }
        return String(endpoint[..<colon])
    }
}
