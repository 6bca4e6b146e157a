import IMWireCheck
import IMWireCore

/// `--format json`: the report as one JSON document (schema in `Spec/report-json.md`).
package enum JSONReport {
    package static let version = 1

    package static func render(_ report: CheckReport, threshold: Severity) -> String {
        var text: [UInt8] = []
        write(report, threshold: threshold) { text += $0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// The report in pieces, one connection at a time, so only one connection's JSON (a batch of
    /// them, rendered on `jobs` threads) is in memory however many the capture has.
    package static func write(
        _ report: CheckReport, threshold: Severity, jobs: Int = 1, to emit: ([UInt8]) -> Void
    ) {
        var root = JSONObject()
        root.append("version", .number(JSONNumber(version)))
        root.append("source", .string(report.source))
        root.append("threshold", .string(threshold.description))
        root.append("captureFindings", .array(report.captureFindings.filter { $0.severity >= threshold }.map(json)))
        var out: [UInt8] = []
        JSONWriter.writePretty(.object(root), into: &out, indent: 0)
        out.removeLast(2)  // the closing newline and brace: more members follow
        out.append(contentsOf: ",\n  \"connections\": ".utf8)
        if report.connections.isEmpty { out.append(contentsOf: "[]".utf8) } else { out.append(UInt8(ascii: "[")) }
        var first = true
        report.connections.render(jobs: jobs) { connection in
            var bytes = Array(",\n    ".utf8)
            write(connection, threshold: threshold, into: &bytes, indent: 2)
            return bytes
        } to: { bytes in
            guard first else { return emit(bytes) }
            first = false
            out += bytes.dropFirst()  // the first has no comma before it, and the head of the report
            emit(out)
            out.removeAll(keepingCapacity: true)
        }
        if !report.connections.isEmpty { out.append(contentsOf: "\n  ]".utf8) }
        var counts = JSONObject()
        for severity in Severity.allCases.reversed() {
            counts.append(severity.description, .number(JSONNumber(report.count(severity))))
        }
        out.append(contentsOf: ",\n  \"summary\": ".utf8)
        JSONWriter.writePretty(.object(counts), into: &out, indent: 1)
        out.append(contentsOf: ",\n  \"exitCode\": \(report.exitCode(threshold: threshold))".utf8)
        if let merge = report.merge {
            // What `imwire merge` needs of a shard's report (MergeData).
            out.append(contentsOf: ",\n  \"firstTime\": ".utf8)
            out.append(contentsOf: (report.firstTime.map { String($0) } ?? "null").utf8)
            out.append(contentsOf: ",\n  \"merge\": ".utf8)
            JSONWriter.writePretty(merge.json, into: &out, indent: 1)
        }
        out.append(contentsOf: "\n}\n".utf8)
        emit(out)
    }

    /// One connection's object at `indent`, written as it goes: building it as a `JSONValue`
    /// first cost a third of the report's time (callgrind, stop 61).
    static func write(_ connection: ConnectionReport, threshold: Severity, into out: inout [UInt8], indent: Int) {
        var object = JSONWriter.PrettyObject(indent: indent)
        object.member("id", connection.id, into: &out)
        object.member("dialect", connection.dialect?.rawValue, into: &out)
        object.member("subprotocol", connection.subprotocol, into: &out)
        // Only a connection whose upgrade negotiated an extension names it.
        if let extensions = connection.extensions { object.member("extensions", extensions, into: &out) }
        // Only a TLS connection has the member (Spec/tls.md#in-the-report).
        if let tls = connection.tls {
            object.member("tls", into: &out)
            var member = JSONWriter.PrettyObject(indent: object.valueIndent)
            member.member("version", tls.version, into: &out)
            member.member("suite", tls.suite, into: &out)
            member.member("sni", tls.serverName, into: &out)
            member.member("alpn", tls.alpn, into: &out)
            member.member("decrypted", .bool(tls.decrypted), into: &out)
            member.member("reason", tls.reason, into: &out)
            member.end(into: &out)
        }
        object.member("messages", connection.messages, into: &out)
        object.member("client", connection.client, into: &out)
        object.member("server", connection.server, into: &out)
        // A socket.io session gathered from several TCP connections lists them.
        if !connection.tcpConnections.isEmpty {
            object.member("tcp", .array(connection.tcpConnections.map(JSONValue.string)), into: &out)
        }
        object.member("bytes", into: &out)
        var account = JSONWriter.PrettyObject(indent: object.valueIndent)
        account.member("captured", connection.account.captured, into: &out)
        account.member("decoded", connection.account.decoded, into: &out)
        account.member("skipped", into: &out)
        var skipped = JSONWriter.PrettyObject(indent: account.valueIndent)
        for (reason, count) in connection.account.skipped.sorted(by: { $0.key < $1.key }) {
            skipped.member(named: reason, count, into: &out)
        }
        skipped.end(into: &out)
        account.member("lost", connection.account.lost, into: &out)
        account.end(into: &out)
        object.member("findings", into: &out)
        JSONWriter.writePretty(
            .array(connection.findings.filter { $0.severity >= threshold }.map(json)), into: &out,
            indent: object.valueIndent)
        object.member("droppedFindings", connection.droppedFindings, into: &out)
        object.end(into: &out)
    }

    package static func json(_ finding: Finding) -> JSONValue {
        finding.json(closeCode: RuleCatalog.closeCode(of: finding).map { Int($0.rawValue) })
    }
}
