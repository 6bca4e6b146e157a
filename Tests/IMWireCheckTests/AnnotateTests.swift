import Foundation
import IMWire
import IMWireTestSupport
import Testing

/// `imwire check --annotate`: each finding a comment on the packet it is about.
@Suite struct AnnotateTests {
    /// The comments of each packet of a pcapng file, by packet number.
    private func comments(_ bytes: [UInt8]) throws -> [Int: [String]] {
        let path = NSTemporaryDirectory() + "imwire-annotated-\(UUID().uuidString).pcapng"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TextFile.write(bytes, to: path)
        var found: [Int: [String]] = [:]
        let packets = try PacketCaptureReader.packets(path: path)
        while let item = packets.next() {
            if case .packet(let packet) = item, !packet.comments.isEmpty { found[packet.number] = packet.comments }
        }
        return found
    }

    @Test func aPacketCaptureKeepsItsPacketsAndGetsOneCommentPerFinding() throws {
        let path = "\(repositoryRoot)/Fixtures/captures/nim-real.pcapng"
        let report = try check(path)
        let annotated = try comments(try CaptureConverter.annotated(report, capture: path))
        var expected: [Int: Int] = [:]
        for finding in report.allFindings {
            if let frame = finding.location.frameIndex { expected[frame, default: 0] += 1 }
        }
        #expect(!expected.isEmpty)
        #expect(annotated.mapValues(\.count) == expected)
        let first = try #require(report.allFindings.first { $0.location.frameIndex != nil })
        #expect(
            annotated[first.location.frameIndex!]?.contains {
                $0.hasPrefix("imwire [\(first.ruleID)] \(first.severity): ")
            } == true)
    }

    @Test func aTranscriptBecomesPacketsWithTheCommentsOnItsMessages() throws {
        let path = "\(repositoryRoot)/Fixtures/captures/leancloud-broken.jsonl"
        let report = try check(path)
        let located = report.allFindings.filter { $0.location.connection != nil && $0.location.frameIndex != nil }
        #expect(!located.isEmpty)
        let annotated = try comments(try CaptureConverter.annotated(report, capture: path))
        #expect(annotated.values.reduce(0) { $0 + $1.count } == located.count)
        let offsetFinding = try #require(located.first { $0.offset != nil })
        #expect(annotated.values.joined().contains { $0.hasSuffix("(offset \(offsetFinding.offset!))") })
    }
}
