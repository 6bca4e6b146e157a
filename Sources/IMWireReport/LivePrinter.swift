import IMWireCheck
import IMWireCore

/// How `imwire proxy` and `imwire serve` print findings as they happen: text (check's lines under
/// a `connection` line) or jsonl (one JSON object per line, Spec/proxy.md).
package enum LiveFormat: String, CaseIterable, Sendable {
    case text, jsonl
}

/// What a live check reports, a line or a few at a time, each handed to `emit` (without its
/// newline) as it happens.
package final class LivePrinter: Sendable {
    package let format: LiveFormat
    package let threshold: Severity
    package let messages: Bool
    private let emit: @Sendable (String) -> Void
    /// The connection the last text lines were under (touched on the check's queue only).
    nonisolated(unsafe) private var lastConnection: String??

    package init(
        format: LiveFormat, threshold: Severity, messages: Bool, emit: @escaping @Sendable (String) -> Void
    ) {
        self.format = format
        self.threshold = threshold
        self.messages = messages
        self.emit = emit
    }

    package func finding(_ finding: Finding, firstTime: Int64?) {
        guard finding.severity >= threshold else { return }
        switch format {
        case .text:
            var lines: [String] = []
            let connection = finding.location.connection
            if lastConnection != .some(connection) {
                lines.append(connection.map { "connection \($0)" } ?? "proxy")
                lastConnection = .some(connection)
            }
            lines += TextReport.findingLines(finding, firstTime: firstTime)
            emit(lines.joined(separator: "\n"))
        case .jsonl:
            var object = JSONObject()
            object.append("type", "finding")
            object.append(
                "finding", finding.json(closeCode: RuleCatalog.closeCode(of: finding).map { Int($0.rawValue) }))
            emit(JSONWriter.string(.object(object)))
        }
    }

    package func message(_ message: CheckedMessage) {
        switch format {
        case .text:
            lastConnection = nil
            emit(message.text())
        case .jsonl:
            var object = JSONObject()
            object.append("type", "message")
            object.append("message", message.json)
            emit(JSONWriter.string(.object(object)))
        }
    }

    package func summary(_ report: CheckReport) {
        let messages = report.connections.messages
        switch format {
        case .text:
            emit(TextReport.summaryLine(report, threshold: threshold))
        case .jsonl:
            var object = JSONObject()
            object.append("type", "summary")
            object.append("connections", .number(JSONNumber(report.connections.count)))
            object.append("messages", .number(JSONNumber(messages)))
            for severity in Severity.allCases {
                object.append("\(severity)", .number(JSONNumber(report.count(severity))))
            }
            object.append("exitCode", .number(JSONNumber(Int(report.exitCode(threshold: threshold)))))
            emit(JSONWriter.string(.object(object)))
        }
    }
}
