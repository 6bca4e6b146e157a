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
            JSONWriter.writePretty(json(connection, threshold: threshold), into: &bytes, indent: 2)
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

    static func json(_ connection: ConnectionReport, threshold: Severity) -> JSONValue {
        var object = JSONObject()
        object.append("id", .string(connection.id))
        object.append("dialect", connection.dialect.map { .string($0.rawValue) } ?? .null)
        object.append("subprotocol", connection.subprotocol.map { .string($0) } ?? .null)
        // Only a connection whose upgrade negotiated an extension names it.
        if let extensions = connection.extensions { object.append("extensions", .string(extensions)) }
        // Only a TLS connection has the member (Spec/tls.md#in-the-report).
        if let tls = connection.tls {
            var member = JSONObject()
            member.append("version", tls.version.map { .string($0) } ?? .null)
            member.append("suite", tls.suite.map { .string($0) } ?? .null)
            member.append("sni", tls.serverName.map { .string($0) } ?? .null)
            member.append("alpn", tls.alpn.map { .string($0) } ?? .null)
            member.append("decrypted", .bool(tls.decrypted))
            member.append("reason", tls.reason.map { .string($0) } ?? .null)
            object.append("tls", .object(member))
        }
        object.append("messages", .number(JSONNumber(connection.messages)))
        object.append("client", connection.client.map { .string($0) } ?? .null)
        object.append("server", connection.server.map { .string($0) } ?? .null)
        // A socket.io session gathered from several TCP connections lists them.
        if !connection.tcpConnections.isEmpty {
            object.append("tcp", .array(connection.tcpConnections.map(JSONValue.string)))
        }
        var account = JSONObject()
        account.append("captured", .number(JSONNumber(connection.account.captured)))
        account.append("decoded", .number(JSONNumber(connection.account.decoded)))
        account.append(
            "skipped",
            .object(
                JSONObject(
                    connection.account.skipped.sorted { $0.key < $1.key }
                        .map { JSONObject.Member(key: $0.key, value: .number(JSONNumber($0.value))) })))
        account.append("lost", .number(JSONNumber(connection.account.lost)))
        object.append("bytes", .object(account))
        object.append("findings", .array(connection.findings.filter { $0.severity >= threshold }.map(json)))
        object.append("droppedFindings", .number(JSONNumber(connection.droppedFindings)))
        return .object(object)
    }

    package static func json(_ finding: Finding) -> JSONValue {
        finding.json(closeCode: RuleCatalog.closeCode(of: finding).map { Int($0.rawValue) })
    }
}
