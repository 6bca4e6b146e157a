import IMWire
import Testing

/// README.md's "As a library" block, run: the code between the markers is the block without its
/// `import`, and `blockIsTheREADMEs` fails when the two differ.
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleRuns() throws {
        // BEGIN README
        let bytes: [UInt8] = [0x08, 0x02, 0x28, 0x01]  // what `imwire encode '{"cmd":"direct","i":1}'` wrote
        let decoded = LeanCloudCodec(encoding: .protobuf).decode(bytes)  // never throws, never traps
        for finding in decoded.findings { print(finding) }  // none; bytes cut short: [PB.TRUNCATED] error: …
        if let command = decoded.command { print(LeanCloudCanonicalJSON.encode(command)) }  // {"cmd":"direct","i":1}

        var tracker = LeanCloudSessionTracker()
        let findings = tracker.observe(decoded, direction: .send, timeMicros: 1_000, frameIndex: 1)
        print(findings.map(\.ruleID))  // [LC.BEFORE-SESSION-OPEN]: direct before session/opened

        // The whole checker in one call, as `imwire check` runs it:
        let report = try Checker.check(path: "Fixtures/captures/nim-real.pcapng")
        print(report.exitCode(threshold: .warning))  // 0
        // END README
        #expect(decoded.findings.isEmpty)
        // what print shows
        #expect(decoded.command.map { "\(LeanCloudCanonicalJSON.encode($0))" } == #"{"cmd":"direct","i":1}"#)
        #expect(findings.map(\.ruleID.rawValue) == ["LC.BEFORE-SESSION-OPEN"])
        #expect(LeanCloudCodec(encoding: .protobuf).decode([0x08]).findings.map(\.ruleID.rawValue) == ["PB.TRUNCATED"])
        #expect(report.exitCode(threshold: .warning) == 0)
    }

    /// The README's block and the test's copy say the same, comments' alignment aside.
    @Test func blockIsTheREADMEs() throws {
        func normalized(_ lines: some Sequence<Substring>) -> [String] {
            lines.map { line in
                let trimmed = line.trimmingPrefix(while: \.isWhitespace)
                guard let comment = trimmed.firstRange(of: "  //") else { return String(trimmed) }
                return String(trimmed[..<comment.lowerBound]).trimmingSuffix() + "  //"
                    + String(trimmed[comment.upperBound...])
            }
        }
        let readme = try readText("README.md")
        let start = try #require(readme.firstRange(of: "## As a library\n\n```swift\nimport IMWire\n\n"))
        let end = try #require(readme[start.upperBound...].firstRange(of: "```\n"))
        let block = readme[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        let source = try readText("Tests/IMWireConformanceTests/ReadmeExampleTests.swift")
        let from = try #require(source.firstRange(of: "// BEGIN README\n"))
        let to = try #require(source[from.upperBound...].firstRange(of: "        // END README"))
        let copy = source[from.upperBound..<to.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        #expect(normalized(block) == normalized(copy))
        #expect(block.count == 12)
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
