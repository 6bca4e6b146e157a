import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/GettingStarted.md`, run: what the article shows must
/// compile against today's API and do what the article says.
@Suite struct DocCSnippetGettingStarted {
    @Test func decodeALeanCloudFrame() throws {
        let bytes = try Hex.decode("080e2801")  // a binary frame's payload, as a capture shows it
        let decoded = LeanCloudCodec(encoding: .protobuf).decode(bytes)
        #expect(decoded.findings.isEmpty)
        let command = try #require(decoded.command)
        #expect(command.cmd == .echo && command.i == 1)
        #expect(JSONWriter.string(LeanCloudCanonicalJSON.encode(command)) == #"{"cmd":"echo","i":1}"#)
        #expect(decoded.summary == "echo i=1")
    }

    @Test func damageIsAFindingNotAThrow() throws {
        let cut = LeanCloudCodec(encoding: .protobuf).decode(try Hex.decode("080e28"))
        #expect(cut.findings.map(\.ruleID) == ["PB.TRUNCATED"])
        #expect(cut.findings.first?.severity == .error)
        #expect(cut.findings.first?.offset == 3)
    }

    @Test func checkACapture() throws {
        let path = "\(repositoryRoot)/Fixtures/captures/leancloud-broken.jsonl"
        let report = try Checker.check(path: path)
        #expect(report.exitCode(threshold: .warning) == 1)
        var lines: [String] = []
        for connection in report.connections {
            for finding in connection.findings where finding.severity >= .warning {
                let frame = finding.location.frameIndex.map { "#\($0)" } ?? ""
                lines.append("\(connection.id)\(frame) \(finding.ruleID) \(finding.severity): \(finding.message)")
            }
        }
        #expect(
            lines.first?.hasPrefix("k1#1 LC.BEFORE-SESSION-OPEN error: direct before session/opened") == true,
            "\(lines)")
        #expect(report.captureFindings.map(\.ruleID) == ["CAPTURE.JSONL-BAD-LINE"])
        let first = try #require(report.connections.first?.findings.first)
        #expect(first.specRef.hasPrefix("Spec/leancloud.md#"))
    }

    @Test func tuneTheRules() throws {
        let path = "\(repositoryRoot)/Fixtures/captures/leancloud-broken.jsonl"
        let options = CheckOptions(lenient: true, ruleActions: ["LC.BEFORE-SESSION-OPEN": .off])
        let report = try Checker.check(path: path, options: options)
        #expect(!report.allFindings.contains { $0.ruleID == "LC.BEFORE-SESSION-OPEN" })
        #expect(report.allFindings.contains { $0.ruleID == "PB.TRUNCATED" })
    }
}
