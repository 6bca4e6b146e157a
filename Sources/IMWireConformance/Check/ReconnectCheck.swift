import IMWireCore
import IMWireNIM
import IMWireReconnect
import IMWireYun2win

/// The checker's use of the reconnect judge: each client's connections, in order, against its
/// policy (Spec/reconnect.md §6).
extension Checker {
    /// Dialect rules that already report what a judge finding would say about the same
    /// connection: there the judge's finding is dropped, so one problem is reported once.
    static let judgeFindingsReportedBy: [RuleID: Set<RuleID>] = [
        ReconnectRules.afterTerminal.id: [NIMRules.autoRelogin.id, Yun2winRules.reconnectAfterKick.id],
        ReconnectRules.afterTerminalSuspected.id: [NIMRules.autoRelogin.id, Yun2winRules.reconnectAfterKick.id],
        ReconnectRules.heartbeatMissing.id: [NIMRules.heartbeatLate.id, Yun2winRules.keepAliveExceeded.id],
    ]

    /// Groups the connections by client (dialect and the id its login names, else the client's
    /// address) and adds each group's judge findings to the connections they are about.
    func judgeReconnects(_ connections: [ConnectionState]) {
        var clients: [String: [(ConnectionState, ReconnectFacts)]] = [:]
        var order: [String] = []
        for conn in connections {
            guard let dialect = conn.dialect, let facts = conn.session?.reconnectFacts, conn.firstTime != nil,
                  let who = facts.client.map({ "id " + $0 }) ?? conn.info.client.map({ "host " + Self.host($0) })
            else { continue }
            let key = "\(dialect.rawValue) \(who)"
            if clients[key] == nil { order.append(key) }
            clients[key, default: []].append((conn, facts))
        }
        let captureEnd = connections.compactMap(\.lastTime).max()
        for key in order {
            guard let group = clients[key], let dialect = group.first?.0.dialect else { continue }
            let named = options.reconnectPolicy.flatMap { $0.dialect == dialect ? $0 : nil }
            let policy = named ?? group.lazy.compactMap(\.1.policy).first ?? options.reconnectPolicy(for: dialect)
            let judge = ReconnectJudge(policy: policy, options: options.reconnect)
            let findings = judge.judge(group.map { Self.observation($0.0, $0.1) }, captureEnd: captureEnd)
            for var finding in findings {
                guard let (conn, facts) = group.first(where: { $0.0.id == finding.location.connection }) else { continue }
                let reported = Self.judgeFindingsReportedBy[finding.ruleID] ?? []
                guard !conn.findings.contains(where: { reported.contains($0.ruleID) }) else { continue }
                if finding.location.time == facts.login?.sent { finding.location.frameIndex = facts.loginFrame }
                add(finding, to: conn, line: nil, frame: finding.location.frameIndex)
            }
        }
    }

    /// One connection as the judge sees it. A connection the capture leaves open has no end; one
    /// that closed ends as its messages said (a kick, a logout…) or with its WebSocket close code.
    static func observation(_ conn: ConnectionState, _ facts: ReconnectFacts) -> ConnectionObservation {
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
