import IMWireCheck
import IMWireCore
import IMWireMerge
import IMWireReport

enum MergeFuzzing {
    /// The imwire version the fuzzed reports are checked against (the seeds say it: `Fuzz/seeds.py`).
    static let tool = "fuzz"

    /// The report of `Fixtures/captures/leancloud-reconnect.jsonl` with its merge data (a
    /// LeanCloud client's five connections, what the reconnect judge reads of each): what
    /// variants 2 and 3 put the fuzzed spool bytes into. Nil when the fixture cannot be checked.
    static let template: (json: JSONObject, merge: MergeData)? = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        var options = CheckOptions()
        options.keepsMergeData = true
        guard
            var report = try? Checker.check(
                path: parts.joined(separator: "/") + "/Fixtures/captures/leancloud-reconnect.jsonl", options: options),
            report.merge != nil
        else { return nil }
        report.merge?.tool = tool
        guard let merge = report.merge,
            let json = (try? JSONParser.parse(JSONReport.render(report, threshold: .warning), maxDepth: 64))?
                .objectValue
        else { return nil }
        return (json, merge)
    }()

    /// The template report with `merge` in place of its merge data.
    static func report(_ merge: MergeData) -> [UInt8] {
        guard var json = template?.json else { return [] }
        json["merge"] = merge.json
        return Array(JSONWriter.string(.object(json)).utf8)
    }

    /// The reports the payload stands for (file name, bytes). Variant 0: the payload is one
    /// report (`imwire check --format json` of a capture or a shard). Variant 1: several, the
    /// shards of one capture, separated by 0x1E (RFC 7464's record separator; 16 at most).
    /// Variant 2: one connection's spool bytes, `[16-bit big-endian length N][N bytes: its
    /// report][the rest: what the judge reads of it, none when empty]`, added before the
    /// template's connections. Variant 3: the capture findings' spool bytes, in the template.
    static func inputs(_ input: FuzzInput) -> [(name: String, bytes: [UInt8])] {
        let payload = input.payload
        switch input.variant {
        case 0: return [("0.json", payload)]
        case 1:
            return payload.split(separator: 0x1e, maxSplits: 15, omittingEmptySubsequences: false).enumerated().map {
                ("\($0).json", Array($1))
            }
        case 2:
            // A copy of the template's first connection (MergeData.Connection has no public initializer)
            // made the fuzzed one.
            guard var merge = template?.merge, var connection = merge.connections.first else { return [] }
            let count = payload.count >= 2 ? min(payload.count - 2, Int(payload[0]) << 8 | Int(payload[1])) : 0
            let judge = Array(payload.dropFirst(2 + count))
            connection.opened = 0
            connection.session = 0
            connection.report = Array(payload.dropFirst(2).prefix(count))
            connection.judge = judge.isEmpty ? nil : judge
            merge.connections.insert(connection, at: 0)
            return [("0.json", report(merge))]
        default:
            guard var merge = template?.merge else { return [] }
            merge.captureFindings = payload
            return [("0.json", report(merge))]
        }
    }

    /// What a merge gives: the merged report with its threshold and packet regions, or the error.
    enum Outcome: Equatable {
        case merged(CheckReport, Severity, [[Int]])
        case refused(String)

        init(_ inputs: [(name: String, bytes: [UInt8])]) {
            do {
                let merged = try ReportMerger.merge(inputs, tool: MergeFuzzing.tool)
                self = .merged(
                    merged.report, merged.threshold,
                    merged.packets.sorted { $0.key < $1.key }.map {
                        [$0.key, $0.value.byteOffset, $0.value.byteLength]
                    })
            } catch {
                self = .refused(error.description)
            }
        }
    }

    /// `imwire merge` (`ReportMerger.merge`) of shard reports: the JSON, its `merge` member, and
    /// the spool encoding of each connection's report, of what the reconnect judge reads of it
    /// and of the capture findings, then the judgement across connections. Extra bit 0: the merged
    /// report is rendered in every format.
    ///
    /// Invariants: never traps; the same reports merge to the same report (or the same error);
    /// a report's merge data written back out (`MergeData.json`) reads back the same, and the
    /// reports with their merge data written back out merge to the same report (or error); a
    /// merged report holds every connection and every capture finding of its shards; rendered,
    /// its JSON and SARIF parse and its JUnit XML holds only characters XML 1.0 allows.
    static func reports(_ input: FuzzInput) -> [String] {
        guard template != nil else { return ["Fixtures/captures/leancloud-reconnect.jsonl does not check"] }
        let inputs = inputs(input)
        let outcome = Outcome(inputs)
        guard outcome == Outcome(inputs) else { return ["the same reports merge differently twice"] }
        var violations: [String] = []
        var rewritten = inputs
        var connections = 0
        var captureFindings = 0
        for (index, report) in inputs.enumerated() {
            guard case .object(var json) = try? JSONParser.parse(report.bytes, maxDepth: 64),
                let member = json["merge"],
                let data = try? MergeData(json: member)
            else { continue }
            switch Result(catching: { () throws(IMWireError) in try MergeData(json: data.json) }) {
            case .success(let again) where again == data: break
            case .success: violations.append("\(report.name): its merge data written back out reads back as other data")
            case .failure(let error):
                violations.append("\(report.name): its merge data written back out does not read: \(error)")
            }
            json["merge"] = data.json
            rewritten[index].bytes = Array(JSONWriter.string(.object(json)).utf8)
            connections += data.connections.count
            var reader = ReportReader(data.captureFindings)
            captureFindings += reader.list { $0.finding() }?.count ?? 0
        }
        if Outcome(rewritten) != outcome {
            violations.append("the reports with their merge data written back out merge otherwise")
        }
        guard case .merged(let report, let threshold, _) = outcome else { return violations }
        if report.connections.count != connections {
            violations.append(
                "the merged report has \(report.connections.count) connections, its shards \(connections)")
        }
        if report.captureFindings.count != captureFindings {
            violations.append(
                "the merged report has \(report.captureFindings.count) capture findings, its shards \(captureFindings)")
        }
        if input.extra & 1 != 0 { violations += rendered(report, threshold: threshold) }
        return violations
    }

    /// Every format of a merged report renders; the JSON ones parse, the XML holds only XML characters.
    static func rendered(_ report: CheckReport, threshold: Severity) -> [String] {
        var violations: [String] = []
        _ = TextReport.render(report, threshold: .info)
        _ = HTMLReport.render(report, threshold: threshold)
        for (name, text) in [
            ("JSON", JSONReport.render(report, threshold: .info)),
            ("SARIF", SARIFReport.render(report, threshold: .info, version: tool)),
        ]
        where (try? JSONParser.parse(text, maxDepth: 64)) == nil {
            violations.append("the \(name) report does not parse")
        }
        let junit = JUnitReport.render(report, threshold: .info)
        if let bad = junit.unicodeScalars.first(where: { !TesteeFuzzing.isXMLCharacter($0) }) {
            violations.append(
                "the JUnit report holds U+\(String(bad.value, radix: 16, uppercase: true)), which XML does not allow")
        }
        return violations
    }
}
