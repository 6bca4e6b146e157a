import IMWireCheck
import IMWireCore

/// `--format html`: one self-contained page (inline CSS, SVG and one short inline script; nothing
/// from the network). A summary; filters by severity and rule; each client's consecutive
/// connections on one timeline; then per connection its header (dialect, subprotocol, negotiated
/// extensions, bytes), its sequence diagram in pages, every message expandable to its canonical
/// JSON and its bytes in hex, and its findings with identical ones grouped under a count.
///
/// Without the script every page and message is shown and every link still jumps; the script
/// adds switching pages, opening the message an arrow or a finding names, and the filters, whose
/// state the URL's fragment can carry (`report.html#severity=error&rule=LC.MISSING-ACK`).
package enum HTMLReport {
    /// Messages the report keeps per connection (`CheckOptions.timelineLimit` for this format);
    /// the rest are counted, and `imwire show` lists them all.
    package static let timelineLimit = 5_000
    /// Messages per page of a connection's sequence diagram.
    package static let pageSize = 200
    /// Places listed under a group of identical findings; the rest are counted.
    package static let groupListLimit = 50

    /// The page. `specBase` is put before every `Spec/…` link of a rule's reference: the
    /// package root as a `file://` URL ending in `/`, or "" for links relative to the report.
    package static func render(_ report: CheckReport, threshold: Severity, specBase: String = "") -> String {
        let page = Page(report: report, threshold: threshold, specBase: specBase)
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>imwire check \(Markup.escape(report.source))</title>
            <style>\(style)</style></head><body>
            <h1>imwire check <code>\(Markup.escape(report.source))</code></h1>

            """
        html += page.summary()
        html += page.filters()
        html += page.clients()
        let captureFindings = report.captureFindings.filter { $0.severity >= threshold }
        if !captureFindings.isEmpty {
            html += "<h2>Capture</h2>\n" + page.findingTable(captureFindings, anchorPrefix: "capture", rows: [:])
        }
        for (index, connection) in report.connections.enumerated() {
            html += page.section(connection, index: index)
        }
        html += "<footer>imwire, \(Markup.escape(threshold.description)) threshold; rules: "
        html += "<a href=\"\(Markup.escape(specBase))Spec/rules.md\">Spec/rules.md</a></footer>\n"
        html += "<script>\(script)</script>\n</body></html>\n"
        return html
    }

    private static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}code{font-size:95%}
        table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;\
        vertical-align:top}
        th{background:#f4f4f4}.error{color:#b00020}.warning{color:#a15c00}.info{color:#1d5fa8}
        tr.error td:first-child{border-left:4px solid #b00020}tr.warning td:first-child{border-left:4px solid #e09000}
        tr.info td:first-child{border-left:4px solid #1d5fa8}svg{border:1px solid #ddd;background:#fff}
        .clean{color:#1a7f37}footer{margin-top:3em;color:#777}.count{font-weight:bold}
        #filters{position:sticky;top:0;background:#fafafa;border:1px solid #ddd;padding:6px 10px;z-index:1}
        #filters label{margin-right:1em}g.dimmed{opacity:.25}nav.pages button.current{font-weight:bold}
        details.msg{margin:2px 0}details.msg>summary{cursor:pointer;font-family:monospace;font-size:12px}
        details.msg pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:6px;overflow:auto;max-height:30em;\
        font-size:12px}
        details.msg[open]{background:#fffbe6}svg a{cursor:pointer}
        """

    /// Page switching, opening what a link names, and the filters. ES5, no network.
    private static let script = """
        (function(){
        var form=document.getElementById('filters');
        function each(sel,f,root){Array.prototype.forEach.call((root||document).querySelectorAll(sel),f);}
        function showPage(section,n){each('.page',function(p){\
        p.hidden=p.getAttribute('data-page')!==String(n);},section);
        each('nav.pages button',function(b){\
        b.className=b.getAttribute('data-page')===String(n)?'current':'';},section);}
        function apply(){var sev=[];each('input[name=severity]',function(i){if(i.checked)sev.push(i.value);},form);
        var rule=form.querySelector('select[name=rule]').value,shown=0;
        each('tr.finding',function(r){\
        var ok=sev.indexOf(r.getAttribute('data-severity'))>=0&&(!rule||r.getAttribute('data-rule')===rule);
        r.hidden=!ok;if(ok)shown+=Number(r.getAttribute('data-count'));});
        each('g.message.finding',function(g){var ok=g.getAttribute('data-severities').split(' ').some(function(s){\
        return sev.indexOf(s)>=0;})
        &&(!rule||g.getAttribute('data-rules').split(' ').indexOf(rule)>=0);\
        g.setAttribute('class',g.getAttribute('class').replace(/ dimmed/g,'')+(ok?'':' dimmed'));});
        document.getElementById('filter-count').textContent=shown+(shown===1?' finding':' findings')+' shown';}
        function open(id){var el=document.getElementById(id);if(!el)return;var page=el.closest('.page');
        if(page)showPage(page.closest('section'),page.getAttribute('data-page'));\
        for(var p=el;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true;}
        el.scrollIntoView();}
        function route(){var h=location.hash.slice(1);\
        if(h.indexOf('=')>=0){h.split('&').forEach(function(kv){var p=kv.split('='),v=decodeURIComponent(p[1]||'');
        if(p[0]==='severity')each('input[name=severity]',function(i){i.checked=v.split(',').indexOf(i.value)>=0;},form);
        if(p[0]==='rule')form.querySelector('select[name=rule]').value=v;});}else if(h){\
        open(decodeURIComponent(h));}apply();}
        each('section.connection',function(s){if(s.querySelector('nav.pages'))showPage(s,0);});
        document.addEventListener('click',function(e){var b=e.target.closest&&e.target.closest('nav.pages button');\
        if(b)showPage(b.closest('section'),b.getAttribute('data-page'));});
        form.addEventListener('change',apply);window.addEventListener('hashchange',route);route();
        })();
        """

    private static func color(for severity: Severity) -> String {
        switch severity {
        case .error: "#b00020"
        case .warning: "#e09000"
        case .info: "#1d5fa8"
        }
    }

    /// `0000  08 0e 28 01 …  ..(.` rows of 16 bytes; `total` counts the bytes not kept.
    package static func hexDump(_ bytes: [UInt8], total: Int) -> String {
        var lines: [String] = []
        var offset = 0
        while offset < bytes.count {
            let row = bytes[offset..<min(offset + 16, bytes.count)]
            let address = String(offset, radix: 16)
            var line = String(repeating: "0", count: max(0, 4 - address.count)) + address + "  "
            line += row.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
            line += String(repeating: " ", count: (16 - row.count) * 3) + "  "
            line += String(decoding: row.map { (32..<127).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            lines.append(line)
            offset += 16
        }
        if total > bytes.count { lines.append("… \(counted(total - bytes.count, "more byte"))") }
        return lines.joined(separator: "\n")
    }

    /// What the sections share: the report, the threshold and where links go.
    private struct Page {
        let report: CheckReport
        let threshold: Severity
        let specBase: String

        func shown(_ findings: [Finding]) -> [Finding] { findings.filter { $0.severity >= threshold } }

        func counts(_ findings: [Finding]) -> String {
            Severity.allCases.reversed().map { severity in
                let count = findings.filter { $0.severity == severity }.count
                return count == 0
                    ? ""
                    : """
                    <span \
                    class="\(severity)">\
                    \(counted(count, "\(severity)", plural: severity == .info ? "info" : nil))</span>
                    """
            }.filter { !$0.isEmpty }.joined(separator: ", ")
        }

        func summary() -> String {
            var html = "<h2>Summary</h2>\n<p>\(counted(report.connections.count, "connection")), "
            html += "\(counted(report.connections.messages, "message")); "
            let all = shown(report.allFindings)
            html += all.isEmpty ? "<span class=\"clean\">no findings</span>" : counts(all)
            html += """
                .</p>\n\
                <table id="summary"><tr><th>connection</th><th>dialect</th><th>subprotocol</th><th>extensions</th>
                """
            html += "<th>messages</th><th>bytes (decoded / skipped / lost)</th><th>findings</th></tr>\n"
            for (index, connection) in report.connections.enumerated() {
                let findings = shown(connection.findings)
                html += "<tr><td><a href=\"#connection-\(index)\">\(Markup.escape(connection.id))</a></td>"
                html += """
                    <td>\(connection.dialect?.rawValue ?? "unknown")</td>\
                    <td>\(Markup.escape(connection.subprotocol ?? ""))</td>
                    """
                html += "<td>\(Markup.escape(connection.extensions ?? ""))</td><td>\(connection.messages)</td>"
                let account = connection.account
                html += "<td>\(account.captured) (\(account.decoded) / \(account.skippedTotal) / \(account.lost))</td>"
                html += "<td>\(findings.isEmpty ? "<span class=\"clean\">clean</span>" : counts(findings))</td></tr>\n"
            }
            return html + "</table>\n"
        }

        /// The severity boxes (those at or above the threshold) and the rules that occur.
        func filters() -> String {
            var html = "<form id=\"filters\" onsubmit=\"return false\"><strong>Findings:</strong> "
            for severity in Severity.allCases.reversed() where severity >= threshold {
                html += """
                    <label class="\(severity)"><input type="checkbox" \
                    name="severity" value="\(severity)" checked> \(severity)</label>
                    """
            }
            html += "<label>rule <select name=\"rule\"><option value=\"\">every rule</option>"
            for rule in Set(shown(report.allFindings).map(\.ruleID.rawValue)).sorted() {
                html += "<option>\(Markup.escape(rule))</option>"
            }
            return html + "</select></label> <span id=\"filter-count\"></span></form>\n"
        }

        /// One timeline per client with more than one connection: a bar per connection from its
        /// first to its last message, a dot per finding with a time. A client is the host of the
        /// connection's client address; a capture without addresses (a transcript) is one client
        /// per dialect.
        func clients() -> String {
            var order: [String] = []
            var groups: [String: [Int]] = [:]
            for (index, connection) in report.connections.enumerated() where connection.firstTime != nil {
                let host =
                    connection.client.map(Self.host)
                    ?? "\(connection.dialect?.rawValue ?? "unknown") (no addresses in the capture)"
                if groups[host] == nil { order.append(host) }
                groups[host, default: []].append(index)
            }
            let timelines = order.filter { (groups[$0]?.count ?? 0) > 1 }
            guard !timelines.isEmpty else { return "" }
            var html = """
                <h2>Clients</h2>\n\
                <p>Each client's consecutive connections on one timeline (what the reconnect judge reads).</p>\n
                """
            for (number, host) in timelines.enumerated() {
                html += timeline(host: host, indexes: groups[host] ?? [], number: number)
            }
            return html
        }

        static func host(_ address: String) -> String {
            if address.hasPrefix("["), let end = address.firstIndex(of: "]") { return String(address[...end]) }
            guard let colon = address.lastIndex(of: ":") else { return address }
            return String(address[..<colon])
        }

        private func timeline(host: String, indexes: [Int], number: Int) -> String {
            let connections = indexes.map { report.connections[$0] }
            let start = connections.compactMap(\.firstTime).min() ?? 0
            let end = max(connections.compactMap { $0.lastTime ?? $0.firstTime }.max() ?? start, start + 1)
            let (labelWidth, barWidth, rowHeight, top) = (280, 660, 26, 30)
            let height = top + connections.count * rowHeight + 10
            func x(_ time: Int64) -> Int {
                labelWidth + Int(Double(time - start) / Double(end - start) * Double(barWidth))
            }
            var svg =
                "<h3>Client <code>\(Markup.escape(host))</code>: \(counted(connections.count, "connection")) over "
            svg += "\(Markup.escape(String(TextReport.relative(end, from: start).dropFirst())))</h3>\n"
            svg += """
                <svg class="client-timeline" id="client-\(number)" xmlns="http://www.w3.org/2000/svg" \
                width="\(labelWidth + barWidth + 20)" height="\(height)" role="img" \
                aria-label="connections of client \(Markup.escape(host))">\n
                """
            for (row, (index, connection)) in zip(indexes, connections).enumerated() {
                let y = top + row * rowHeight
                let first = connection.firstTime ?? start
                let worst = shown(connection.findings).map(\.severity).max()
                let fill = worst.map(HTMLReport.color) ?? "#1a7f37"
                svg += "<g class=\"client-connection\" data-connection=\"\(index)\"><a href=\"#connection-\(index)\">"
                svg += """
                    <text x="6" y="\(y + 4)" \
                    font-size="11">\(Markup.escape(String(connection.id.prefix(44))))</text></a>
                    """
                let left = x(first)
                svg += """
                    <rect x="\(left)" y="\(y - 6)" width="\(max(3, x(connection.lastTime ?? first) - left))" \
                    height="12" fill="\(fill)" fill-opacity="0.35" stroke="\(fill)">\
                    <title>\(Markup.escape(connection.id)) \
                    \(Markup.escape(TextReport.relative(first, from: report.firstTime)))</title></rect>
                    """
                for finding in shown(connection.findings) {
                    guard let time = finding.location.time else { continue }
                    svg += """
                        <circle cx="\(x(time))" cy="\(y)" r="4" \
                        fill="\(HTMLReport.color(for: finding.severity))">
                        """
                    svg += """
                        <title>\(Markup.escape(finding.ruleID.rawValue)): \
                        \(Markup.escape(finding.message))</title></circle>
                        """
                }
                svg += "</g>\n"
            }
            return svg + "</svg>\n"
        }

        func section(_ connection: ConnectionReport, index: Int) -> String {
            let findings = shown(connection.findings)
            var html = "<section class=\"connection\" id=\"connection-\(index)\">\n"
            html += "<h2>Connection <code>\(Markup.escape(connection.id))</code></h2>\n<p>"
            html += "\(connection.dialect?.rawValue ?? "unknown dialect")"
            if let subprotocol = connection.subprotocol {
                html += ", subprotocol <code class=\"subprotocol\">\(Markup.escape(subprotocol))</code>"
            }
            if let extensions = connection.extensions {
                html += ", extensions <code class=\"extensions\">\(Markup.escape(extensions))</code>"
            }
            if let tls = connection.tls { html += ", <code class=\"tls\">\(Markup.escape(tls.description))</code>" }
            html += """
                , \(counted(connection.messages, "message")); bytes: \
                \(Markup.escape(connection.account.description)).</p>\n
                """
            if !connection.tcpConnections.isEmpty {
                html += "<p>Over \(counted(connection.tcpConnections.count, "TCP connection")): "
                html +=
                    connection.tcpConnections.map { "<code>\(Markup.escape($0))</code>" }.joined(separator: ", ")
                    + ".</p>\n"
            }
            var rows: [Int: Int] = [:]
            for (row, entry) in connection.timeline.enumerated() where rows[entry.frame] == nil {
                rows[entry.frame] = row
            }
            html += diagram(connection, index: index, findings: findings)
            html +=
                findings.isEmpty
                ? "<p class=\"clean\">No findings.</p>\n"
                : findingTable(findings, anchorPrefix: "c\(index)", rows: rows)
            return html + "</section>\n"
        }

        /// The sequence diagram in pages of `pageSize`, each followed by its messages.
        private func diagram(_ connection: ConnectionReport, index: Int, findings: [Finding]) -> String {
            let entries = connection.timeline
            guard !entries.isEmpty else { return "<p>(no messages recorded)</p>\n" }
            var marks: [Int: Mark] = [:]
            for finding in findings {
                guard let frame = finding.location.frameIndex else { continue }
                var mark = marks[frame] ?? Mark(worst: finding.severity)
                mark.worst = max(mark.worst, finding.severity)
                if !mark.severities.contains(finding.severity) { mark.severities.append(finding.severity) }
                if !mark.rules.contains(finding.ruleID.rawValue) { mark.rules.append(finding.ruleID.rawValue) }
                marks[frame] = mark
            }
            let pages = stride(from: 0, to: entries.count, by: HTMLReport.pageSize).map {
                $0..<min($0 + HTMLReport.pageSize, entries.count)
            }
            var html = ""
            if pages.count > 1 {
                html += "<nav class=\"pages\">Messages: "
                for (number, range) in pages.enumerated() {
                    html += "<button type=\"button\" data-page=\"\(number)\">"
                    html += "\(range.lowerBound + 1)–\(range.upperBound)</button> "
                }
                html += "</nav>\n"
            }
            for (number, range) in pages.enumerated() {
                html += "<div class=\"page\" data-page=\"\(number)\">\n"
                html += svg(connection, index: index, page: number, range: range, marks: marks)
                html += """
                    <details class="messages"><summary>the messages \
                    \(range.lowerBound + 1)–\(range.upperBound), decoded</summary>\n
                    """
                for row in range { html += message(entries[row], id: "c\(index)-m\(row)") }
                html += "</details>\n</div>\n"
            }
            if connection.timelineDropped > 0 {
                html += "<p>… \(counted(connection.timelineDropped, "more message")) not drawn (the page keeps "
                html += """
                    \(HTMLReport.timelineLimit) per connection); <code>imwire show \(Markup.escape(report.source)) \
                    --connection '\(Markup.escape(connection.id))'</code> lists them all.</p>\n
                    """
            }
            return html
        }

        /// What a message's findings add to its arrow.
        private struct Mark {
            var worst: Severity
            var severities: [Severity] = []
            var rules: [String] = []
        }

        private func svg(_ connection: ConnectionReport, index: Int, page: Int, range: Range<Int>, marks: [Int: Mark])
            -> String
        {
            let (width, left, right, rowHeight, top) = (1000, 150, 700, 30, 50)
            let height = top + range.count * rowHeight + 30
            var svg = """
                <svg class="sequence" id="diagram-\(index)\(page == 0 ? "" : "-\(page)")" \
                xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
                viewBox="0 0 \(width) \(height)" role="img" \
                aria-label="sequence diagram of \(Markup.escape(connection.id))">\n
                """
            svg += """
                <defs><marker id="arrow-\(index)-\(page)" markerWidth="10" markerHeight="8" refX="9" refY="4" \
                orient="auto" markerUnits="userSpaceOnUse"><path d="M0,0 L10,4 L0,8 z" fill="#555"/></marker></defs>\n
                """
            svg +=
                """
                <text x="\(left)" y="24" text-anchor="middle" font-weight="bold">client \
                \(Markup.escape(connection.client ?? ""))</text>\n
                """
            svg +=
                """
                <text x="\(right)" y="24" text-anchor="middle" font-weight="bold">server \
                \(Markup.escape(connection.server ?? ""))</text>\n
                """
            svg += "<line x1=\"\(left)\" y1=\"34\" x2=\"\(left)\" y2=\"\(height - 10)\" stroke=\"#999\"/>\n"
            svg += "<line x1=\"\(right)\" y1=\"34\" x2=\"\(right)\" y2=\"\(height - 10)\" stroke=\"#999\"/>\n"
            for row in range {
                let entry = connection.timeline[row]
                let y = top + (row - range.lowerBound) * rowHeight
                let (from, to) = entry.direction == .send ? (left, right) : (right, left)
                let mark = marks[entry.frame]
                let stroke = mark.map { HTMLReport.color(for: $0.worst) } ?? "#555"
                if let mark {
                    svg += "<g class=\"message finding \(mark.worst)\" data-frame=\"\(entry.frame)\" "
                    svg += "data-rules=\"\(Markup.escape(mark.rules.joined(separator: " ")))\" "
                    svg += "data-severities=\"\(mark.severities.map(\.description).joined(separator: " "))\">"
                } else {
                    svg += "<g class=\"message\" data-frame=\"\(entry.frame)\">"
                }
                svg += "<a href=\"#c\(index)-m\(row)\"><title>show message #\(entry.frame) decoded</title>"
                svg += """
                    <rect x="0" y="\(y - 15)" width="\(right + 10)" \
                    height="\(rowHeight)" fill="transparent"/>
                    """
                svg += "<text x=\"8\" y=\"\(y + 4)\" font-size=\"11\" fill=\"#777\">#\(entry.frame) "
                svg += "\(TextReport.relative(entry.time, from: report.firstTime))</text>"
                svg += """
                    <line x1="\(from)" y1="\(y)" x2="\(to)" y2="\(y)" stroke="\(stroke)" \
                    stroke-width="\(mark == nil ? 1 : 2)" marker-end="url(#arrow-\(index)-\(page))"/>
                    """
                svg += """
                    <text x="\((left + right) / 2)" y="\(y - 5)" \
                    text-anchor="middle" font-size="12" fill="\(stroke)">
                    """
                svg += Markup.escape(String(entry.summary.prefix(90))) + "</text></a>"
                if let mark {
                    svg += """
                        <a href="#c\(index)-frame-\(entry.frame)"><circle \
                        cx="\(right + 20)" cy="\(y)" r="6" fill="\(stroke)"/>
                        """
                    svg += "<text x=\"\(right + 32)\" y=\"\(y + 4)\" font-size=\"11\" fill=\"\(stroke)\">"
                    svg += Markup.escape(mark.rules.joined(separator: ", ")) + "</text></a>"
                }
                svg += "</g>\n"
            }
            return svg + "</svg>\n"
        }

        /// A message that opens to its canonical JSON and its bytes.
        private func message(_ entry: TimelineEntry, id: String) -> String {
            var html = "<details class=\"msg\" id=\"\(id)\"><summary>#\(entry.frame) "
            html += "\(TextReport.relative(entry.time, from: report.firstTime)) \(entry.direction.rawValue)"
            if let tcp = entry.tcp { html += " via \(Markup.escape(tcp))" }
            html += ": \(Markup.escape(entry.summary))</summary>\n"
            if let json = entry.json { html += "<pre class=\"json\">\(Markup.escape(json))</pre>\n" }
            if let payload = entry.payload {
                html += """
                    <pre class="hex">\
                    \(Markup.escape(HTMLReport.hexDump(payload, total: entry.payloadLength)))</pre>\n
                    """
            }
            if entry.json == nil, entry.payload == nil {
                html += "<p>(not kept: check with <code>--format html</code>)</p>\n"
            }
            return html + "</details>\n"
        }

        /// Findings, identical ones (same severity, rule, message and subject) in one row with
        /// their count and places, in the order of their first occurrence.
        func findingTable(_ findings: [Finding], anchorPrefix: String, rows: [Int: Int]) -> String {
            struct Key: Hashable {
                let severity: Severity
                let rule: String
                let message: String
                let subject: String?
            }
            var order: [Key] = []
            var groups: [Key: [Finding]] = [:]
            for finding in findings {
                let key = Key(
                    severity: finding.severity, rule: finding.ruleID.rawValue, message: finding.message,
                    subject: finding.subject)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(finding)
            }
            var html = """
                <table class="findings"><tr><th>severity</th>\
                <th>rule</th><th>count</th><th>where</th><th>message</th>
                """
            html += "<th>reference</th></tr>\n"
            var anchored = Set<Int>()
            for key in order {
                let group = groups[key] ?? []
                let places = group.prefix(HTMLReport.groupListLimit).map { finding in
                    place(finding, anchorPrefix: anchorPrefix, rows: rows, anchored: &anchored)
                }
                var whereCell = places.joined(separator: group.count > 1 ? "<br>" : "")
                if group.count > places.count { whereCell += "<br>… and \(group.count - places.count) more" }
                // The places not listed still get the anchor a diagram's mark links to.
                for finding in group.dropFirst(places.count) {
                    if let frame = finding.location.frameIndex, anchored.insert(frame).inserted {
                        whereCell += "<span id=\"\(anchorPrefix)-frame-\(frame)\"></span>"
                    }
                }
                html += """
                    <tr class="finding \(key.severity)" data-severity="\(key.severity)" \
                    data-rule="\(Markup.escape(key.rule))" data-count="\(group.count)">\
                    <td class="\(key.severity)">\(key.severity)</td>
                    """
                html += """
                    <td><code>\(Markup.escape(key.rule))</code></td><td \
                    class="count">\(group.count > 1 ? "×\(group.count)" : "1")</td>
                    """
                html += "<td>\(whereCell)</td><td>\(Markup.escape(key.message))"
                html += "\(key.subject.map { "<br><small>\(Markup.escape($0))</small>" } ?? "")</td>"
                html += "<td>\(reference(group[0].specRef))</td></tr>\n"
            }
            return html + "</table>\n"
        }

        /// `#12 · line 4 · +1.250s · send · offset 3`, the frame linked to its message.
        private func place(_ finding: Finding, anchorPrefix: String, rows: [Int: Int], anchored: inout Set<Int>)
            -> String
        {
            var parts: [String] = []
            var anchor = ""
            if let frame = finding.location.frameIndex {
                if anchored.insert(frame).inserted { anchor = "<span id=\"\(anchorPrefix)-frame-\(frame)\"></span>" }
                if let row = rows[frame] {
                    parts.append("<a href=\"#\(anchorPrefix)-m\(row)\">#\(frame)</a>")
                } else {
                    parts.append("#\(frame)")
                }
            }
            if let line = finding.location.line { parts.append("line \(line)") }
            if let time = finding.location.time {
                parts.append(Markup.escape(TextReport.relative(time, from: report.firstTime)))
            }
            if let direction = finding.location.direction { parts.append(direction.rawValue) }
            if let offset = finding.offset { parts.append("offset \(offset)") }
            return anchor + parts.joined(separator: " · ")
        }

        /// The reference with each `Spec/…` link made a link (paths and anchors need no escaping).
        private func reference(_ specRef: String) -> String {
            SpecReferences.rewrite(Markup.escape(specRef)) { link in
                "<a href=\"\(Markup.escape(specBase))\(link)\">\(link)</a>"
            }
        }
    }
}
