import IMWire
import Testing
@testable import IMWireFuzzTargets

/// Every input the fuzzers ever broke (Fuzz/FailCases/<target>/), and every fixture as a seed,
/// replayed through the same invariants the fuzz targets check.
@Suite struct FailCaseReplayTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    @Test(arguments: FuzzTarget.allCases)
    func failCasesStayFixed(target: FuzzTarget) throws {
        let folder = "\(Self.root)/Fuzz/FailCases/\(target.rawValue)"
        for path in Directory.files(under: folder, suffix: "") where !(path.split(separator: "/").last ?? "").hasPrefix(".") {
            let violations = target.run(try FileByteSource.readAll(path: path))
            #expect(violations.isEmpty, "\(path): \(violations)")
        }
    }

    @Test func fixtureInputsKeepTheInvariants() throws {
        var count = 0
        for path in Directory.files(under: "\(Self.root)/Fixtures/leancloud/command", suffix: ".json") {
            let fixture = try Fixture(path: path)
            let input = try fixture.input()
            let target: FuzzTarget = fixture.encoding == "protobuf" ? .leancloudBinary : .leancloudText
            let flags: UInt8 = fixture.encoding == "json" ? 0b0100 : 0
            for data in [input, [0, flags] + input] {
                #expect(target.run(data).isEmpty, "\(path)")
            }
            if fixture.encoding == "protobuf" { #expect(FuzzTarget.leancloudDifferential.run(input).isEmpty, "\(path)") }
            count += 1
        }
        #expect(count > 100)
    }

    @Test func optionsComeFromTheLeadingBytes() {
        let input = FuzzInput([0, 0b111, 0xaa])
        #expect(input.lenient && input.variant == 1 && input.payload == [0xaa])
        #expect(input.limits.maxFrameSize == 256)
        #expect(FuzzInput([0x08, 0x15]).payload == [0x08, 0x15])
        #expect(FuzzInput([0x08, 0x15]).limits == .default)
    }

    @Test func determinismCheckCanFail() {
        let rule = Rule("TEST.X", .error, layer: .encoding, summary: "x", specRef: "x")
        #expect(sameFindings([rule.finding("a", at: 1)], [rule.finding("a", at: 1)]))
        #expect(!sameFindings([rule.finding("a", at: 1)], [rule.finding("a", at: 2)]))
    }

    @Test func capturesReplayThroughTheChecker() throws {
        for name in ["leancloud-clean.jsonl", "leancloud-broken.jsonl"] {
            let bytes = try FileByteSource.readAll(path: "\(Self.root)/Fixtures/captures/\(name)")
            #expect(FuzzTarget.checker.run(bytes).isEmpty)
            for line in bytes.split(separator: 0x0a) { #expect(FuzzTarget.transcript.run(Array(line)).isEmpty) }
        }
    }
}
