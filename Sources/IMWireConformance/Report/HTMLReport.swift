import IMWireCore

/// `--format html`: one self-contained page (inline CSS and SVG, no script, no network): a
/// summary table, then per connection a sequence diagram of the decoded messages between client
/// and server, with the messages that have findings marked, and the findings themselves.
public enum HTMLReport {
    /// Messages drawn per connection; the rest are counted.
    public static let timelineLimit = 400

    public static func render(_ report: CheckReport, threshold: Severity) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>imwire check \(Markup.escape(report.source))</title>
            <style>\(style)</style></head><body>
            <h1>imwire check <code>\(Markup.escape(report.source))</code></h1>

            """
        html += summary(report, threshold: threshold)
        let captureFindings = report.captureFindings.filter { $0.severity >= threshold }
        if !captureFindings.isEmpty {
            html += "<h2>Capture</h2>\n" + findingTable(captureFindings, report: report, anchorPrefix: "capture")
        }
        for (index, connection) in report.connections.enumerated() {
            html += section(connection, index: index, report: report, threshold: threshold)
        }
        html += "<footer>imwire \(Markup.escape(threshold.description)) threshold; rules: Spec/rules.md</footer>\n</body></html>\n"
        return html
    }

    private static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}code{font-size:95%}
        table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
        th{background:#f4f4f4}.error{color:#b00020}.warning{color:#a15c00}.info{color:#1d5fa8}
        tr.error td:first-child{border-left:4px solid #b00020}tr.warning td:first-child{border-left:4px solid #e09000}
        tr.info td:first-child{border-left:4px solid #1d5fa8}svg{border:1px solid #ddd;background:#fff}
        .clean{color:#1a7f37}footer{margin-top:3em;color:#777}
        """

    private static func counts(_ findings: [Finding]) -> String {
        Severity.allCases.reversed().map { severity in
            let count = findings.filter { $0.severity == severity }.count
            return count == 0 ? "" : "<span class=\"\(severity)\">\(counted(count, "\(severity)", plural: severity == .info ? "info" : nil))</span>"
        }.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    private static func summary(_ report: CheckReport, threshold: Severity) -> String {
        var html = "<h2>Summary</h2>\n<p>\(counted(report.connections.count, "connection")), "
        html += "\(counted(report.connections.reduce(0) { $0 + $1.messages }, "message")); "
        let all = report.allFindings.filter { $0.severity >= threshold }
        html += all.isEmpty ? "<span class=\"clean\">no findings</span>" : counts(all)
        html += ".</p>\n<table id=\"summary\"><tr><th>connection</th><th>dialect</th><th>subprotocol</th><th>messages</th>"
        html += "<th>bytes (decoded / skipped / lost)</th><th>findings</th></tr>\n"
        for (index, connection) in report.connections.enumerated() {
            let findings = connection.findings.filter { $0.severity >= threshold }
            html += "<tr><td><a href=\"#connection-\(index)\">\(Markup.escape(connection.id))</a></td>"
            html += "<td>\(connection.dialect?.rawValue ?? "unknown")</td><td>\(Markup.escape(connection.subprotocol ?? ""))</td>"
            html += "<td>\(connection.messages)</td>"
            html +=
                "<td>\(connection.account.captured) (\(connection.account.decoded) / \(connection.account.skippedTotal) / \(connection.account.lost))</td>"
            html += "<td>\(findings.isEmpty ? "<span class=\"clean\">clean</span>" : counts(findings))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func section(_ connection: ConnectionReport, index: Int, report: CheckReport, threshold: Severity) -> String {
        let findings = connection.findings.filter { $0.severity >= threshold }
        var html = "<h2 id=\"connection-\(index)\">Connection <code>\(Markup.escape(connection.id))</code></h2>\n<p>"
        html += "\(connection.dialect?.rawValue ?? "unknown dialect")"
        if let subprotocol = connection.subprotocol { html += ", <code>\(Markup.escape(subprotocol))</code>" }
        html += ", \(connection.messages) messages; bytes: \(Markup.escape(connection.account.description)).</p>\n"
        html += diagram(connection, index: index, findings: findings, origin: report.firstTime)
        html += findings.isEmpty ? "<p class=\"clean\">No findings.</p>\n" : findingTable(findings, report: report, anchorPrefix: "c\(index)")
        return html
    }

    /// The sequence diagram: client on the left, server on the right, one arrow per message.
    private static func diagram(_ connection: ConnectionReport, index: Int, findings: [Finding], origin: Int64?) -> String {
        let entries = connection.timeline
        guard !entries.isEmpty else { return "<p>(no messages recorded)</p>\n" }
        let width = 1000
        let left = 150
        let right = 700
        let rowHeight = 30
        let top = 50
        let height = top + entries.count * rowHeight + 30
        let worst = Dictionary(grouping: findings.filter { $0.location.frameIndex != nil }, by: { $0.location.frameIndex ?? 0 })
            .mapValues { group in (group.map(\.severity).max() ?? .info, group.map(\.ruleID.rawValue)) }
        var svg = "<svg class=\"sequence\" id=\"diagram-\(index)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        svg += "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"sequence diagram of \(Markup.escape(connection.id))\">\n"
        svg +=
            "<defs><marker id=\"arrow-\(index)\" markerWidth=\"10\" markerHeight=\"8\" refX=\"9\" refY=\"4\" orient=\"auto\" markerUnits=\"userSpaceOnUse\">"
        svg += "<path d=\"M0,0 L10,4 L0,8 z\" fill=\"#555\"/></marker></defs>\n"
        svg += "<text x=\"\(left)\" y=\"24\" text-anchor=\"middle\" font-weight=\"bold\">client \(Markup.escape(connection.client ?? ""))</text>\n"
        svg += "<text x=\"\(right)\" y=\"24\" text-anchor=\"middle\" font-weight=\"bold\">server \(Markup.escape(connection.server ?? ""))</text>\n"
        svg += "<line x1=\"\(left)\" y1=\"34\" x2=\"\(left)\" y2=\"\(height - 10)\" stroke=\"#999\"/>\n"
        svg += "<line x1=\"\(right)\" y1=\"34\" x2=\"\(right)\" y2=\"\(height - 10)\" stroke=\"#999\"/>\n"
        for (row, entry) in entries.enumerated() {
            let y = top + row * rowHeight
            let (from, to) = entry.direction == .send ? (left, right) : (right, left)
            let marked = worst[entry.frame]
            let stroke = marked.map { color(for: $0.0) } ?? "#555"
            svg += "<g class=\"message\(marked.map { " finding \($0.0)" } ?? "")\" data-frame=\"\(entry.frame)\">"
            svg +=
                "<text x=\"8\" y=\"\(y + 4)\" font-size=\"11\" fill=\"#777\">#\(entry.frame) \(TextReport.relative(entry.time, from: origin))</text>"
            svg += "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to)\" y2=\"\(y)\" stroke=\"\(stroke)\" stroke-width=\"\(marked == nil ? 1 : 2)\" "
            svg += "marker-end=\"url(#arrow-\(index))\"/>"
            svg += "<text x=\"\((left + right) / 2)\" y=\"\(y - 5)\" text-anchor=\"middle\" font-size=\"12\" fill=\"\(stroke)\">"
            svg += Markup.escape(String(entry.summary.prefix(90))) + "</text>"
            if let marked {
                svg += "<a href=\"#c\(index)-frame-\(entry.frame)\"><circle cx=\"\(right + 20)\" cy=\"\(y)\" r=\"6\" fill=\"\(stroke)\"/>"
                svg += "<text x=\"\(right + 32)\" y=\"\(y + 4)\" font-size=\"11\" fill=\"\(stroke)\">"
                svg += Markup.escape(marked.1.joined(separator: ", ")) + "</text></a>"
            }
            svg += "</g>\n"
        }
        svg += "</svg>\n"
        if connection.timelineDropped > 0 {
            svg += "<p>… \(connection.timelineDropped) more messages not drawn.</p>\n"
        }
        return svg
    }

    private static func color(for severity: Severity) -> String {
        switch severity {
        case .error: "#b00020"
        case .warning: "#e09000"
        case .info: "#1d5fa8"
        }
    }

    private static func findingTable(_ findings: [Finding], report: CheckReport, anchorPrefix: String) -> String {
        var html = "<table class=\"findings\"><tr><th>severity</th><th>rule</th><th>where</th><th>message</th><th>reference</th></tr>\n"
        var anchored = Set<Int>()
        for finding in findings {
            var place: [String] = []
            var anchor = ""
            if let frame = finding.location.frameIndex {
                place.append("#\(frame)")
                if anchored.insert(frame).inserted { anchor = " id=\"\(anchorPrefix)-frame-\(frame)\"" }
            }
            if let line = finding.location.line { place.append("line \(line)") }
            if let time = finding.location.time { place.append(TextReport.relative(time, from: report.firstTime)) }
            if let direction = finding.location.direction { place.append(direction.rawValue) }
            if let offset = finding.offset { place.append("offset \(offset)") }
            html += "<tr class=\"\(finding.severity)\"\(anchor)><td class=\"\(finding.severity)\">\(finding.severity)</td>"
            html += "<td><code>\(Markup.escape(finding.ruleID.rawValue))</code></td><td>\(Markup.escape(place.joined(separator: " · ")))</td>"
            html += "<td>\(Markup.escape(finding.message))\(finding.subject.map { "<br><small>\(Markup.escape($0))</small>" } ?? "")</td>"
            html += "<td>\(Markup.escape(finding.specRef))</td></tr>\n"
        }
        return html + "</table>\n"
    }
}
