import IMWireCheck
import IMWireCore

/// The human report: findings grouped by connection, each with its frame, time, direction,
/// offset, the command it is about, the rule and where the rule comes from.
package enum TextReport {
    package static func render(_ report: CheckReport, threshold: Severity, color: Bool = false) -> String {
        var text: [UInt8] = []
        write(report, threshold: threshold, color: color) { text += $0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// The report in pieces, one connection at a time (a batch of them, rendered on `jobs`
    /// threads), so a long report is never held whole.
    package static func write(
        _ report: CheckReport, threshold: Severity, color: Bool = false, jobs: Int = 1,
        to emit: ([UInt8]) -> Void
    ) {
        let shown = report.captureFindings.filter { $0.severity >= threshold }
        if !shown.isEmpty {
            let lines =
                ["capture \(report.source)"]
                + shown.flatMap { findingLines($0, firstTime: report.firstTime, color: color) }
            emit(Array((lines.joined(separator: "\n") + "\n").utf8))
        }
        let firstTime = report.firstTime
        report.connections.render(jobs: jobs) { connection in
            let lines = connectionLines(connection, threshold: threshold, firstTime: firstTime, color: color)
            return Array((lines.joined(separator: "\n") + "\n").utf8)
        } to: {
            emit($0)
        }
        emit(Array((summaryLine(report, threshold: threshold) + "\n").utf8))
    }

    /// A connection's lines: its header, its findings at or above `threshold`, its bytes.
    private static func connectionLines(
        _ connection: ConnectionReport, threshold: Severity, firstTime: Int64?, color: Bool
    ) -> [String] {
        var lines: [String] = []
        func describe(_ finding: Finding) { lines += findingLines(finding, firstTime: firstTime, color: color) }
        var header = "connection \(connection.id)"
        header += "  " + (connection.dialect?.rawValue ?? "unknown dialect")
        if let subprotocol = connection.subprotocol { header += "  \(subprotocol)" }
        if let extensions = connection.extensions { header += "  [\(extensions)]" }
        if let tls = connection.tls { header += "  (\(tls.description))" }
        header += "  \(counted(connection.messages, "message")), \(counted(connection.bytes, "byte"))"
        lines.append(header)
        if !connection.tcpConnections.isEmpty {
            let count = connection.tcpConnections.count
            lines.append(
                """
                  over \(count) TCP connection\(count == 1 ? "" : "s"): \
                \(connection.tcpConnections.joined(separator: ", "))
                """)
        }
        let findings = connection.findings.filter { $0.severity >= threshold }
        if findings.isEmpty { lines.append("  clean") }
        findings.forEach(describe)
        if connection.droppedFindings > 0 {
            lines.append(
                """
                  … \(counted(connection.droppedFindings, "more finding")) \
                not kept (Limits.maxFindingsPerConnection)
                """)
        }
        lines.append("  bytes: \(connection.account.description), \(connection.account.captured) in all")
        return lines
    }

    /// The report's last line: `summary: 2 connections, 48 messages; 2 errors, 1 warning, 1 info`.
    package static func summaryLine(_ report: CheckReport, threshold: Severity) -> String {
        let hidden = Severity.allCases.filter { $0 < threshold }.reduce(0) { $0 + report.count($1) }
        var summary = "summary: \(counted(report.connections.count, "connection")), "
        summary += "\(counted(report.connections.messages, "message")); "
        summary += Severity.allCases.reversed().map {
            counted(report.count($0), "\($0)", plural: $0 == .info ? "info" : nil)
        }.joined(separator: ", ")
        if hidden > 0 { summary += " (\(hidden) below --severity \(threshold) not shown)" }
        return summary
    }

    /// The two lines the report gives `finding` under its connection (severity and rule, then
    /// where; the message and the rule's reference), times relative to `firstTime`.
    /// `imwire proxy` prints them as findings happen.
    package static func findingLines(_ finding: Finding, firstTime: Int64?, color: Bool = false) -> [String] {
        var head: [String] = []
        if let frame = finding.location.frameIndex { head.append("#\(frame)") }
        if let line = finding.location.line { head.append("line \(line)") }
        if let time = finding.location.time { head.append(relative(time, from: firstTime)) }
        if let direction = finding.location.direction { head.append(direction == .send ? "send" : "receive") }
        if let subject = finding.subject { head.append(subject) }
        var detail = "      \(finding.message)"
        if let offset = finding.offset { detail += " (offset \(offset))" }
        detail += "  [\(finding.specRef)]"
        return [
            "  " + paint("\(finding.severity) \(finding.ruleID)", finding.severity, color: color) + "  "
                + head.joined(separator: "  "), detail,
        ]
    }

    static func paint(_ text: String, _ severity: Severity, color: Bool) -> String {
        guard color else { return text }
        let code =
            switch severity {
            case .error: "31"
            case .warning: "33"
            case .info: "36"
            }
        return "\u{1b}[\(code)m\(text)\u{1b}[0m"
    }

    /// `+1.204s` from the capture's first time.
    static func relative(_ time: Int64, from origin: Int64?) -> String {
        // The difference of two Int64 times needs 65 bits: sign and magnitude apart.
        let from = origin ?? 0
        let sign = time < from ? "-" : "+"
        let magnitude = time < from ? UInt64(bitPattern: from &- time) : UInt64(bitPattern: time &- from)
        let millis = magnitude / 1000 % 1000
        let padded = String(repeating: "0", count: 3 - String(millis).count) + String(millis)
        return "\(sign)\(magnitude / 1_000_000).\(padded)s"
    }
}
