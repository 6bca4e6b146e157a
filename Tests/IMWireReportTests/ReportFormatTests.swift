import Foundation
import IMWire
import Testing

/// `ReportFormat` is the one place `check`, `merge` and `proxy` choose a writer: each format
/// must write what its writer writes, with the regions SARIF finds from the capture.
@Suite struct ReportFormatTests {
    @Test func eachFormatWritesWhatItsWriterWrites() throws {
        let report = try ReportTests.broken()
        let options = ReportFormat.Options(threshold: .info, toolVersion: "9.9")
        func bytes(_ write: (([UInt8]) -> Void) -> Void) -> [UInt8] {
            var out: [UInt8] = []
            write { out += $0 }
            return out
        }
        #expect(
            ReportFormat.text.render(report, options: options)
                == bytes { TextReport.write(report, threshold: .info, to: $0) })
        #expect(
            ReportFormat.json.render(report, options: options)
                == bytes { JSONReport.write(report, threshold: .info, to: $0) })
        #expect(
            ReportFormat.junit.render(report, options: options)
                == bytes { JUnitReport.write(report, threshold: .info, to: $0) })
        #expect(
            ReportFormat.sarif.render(report, options: options)
                == bytes { SARIFReport.write(report, threshold: .info, version: "9.9", to: $0) })
        var html = options
        html.specBase = "file:///spec/"
        #expect(
            ReportFormat.html.render(report, options: html)
                == Array(HTMLReport.render(report, threshold: .info, specBase: "file:///spec/").utf8))
    }

    @Test func sarifReadsThePacketRegionsOfTheCapture() throws {
        let path = "\(repositoryRoot)/Fixtures/captures/nim-real.pcapng"
        let report = try check(path)
        var options = ReportFormat.Options(threshold: .info, toolVersion: "9.9")
        let without = ReportFormat.sarif.render(report, options: options)
        options.capture = path
        let frames = Set(report.allFindings.compactMap(\.location.frameIndex))
        #expect(!frames.isEmpty)
        let packets = SARIFReport.packetRegions(path: path, numbers: frames)
        #expect(!packets.isEmpty)
        let expected = Array(SARIFReport.render(report, threshold: .info, version: "9.9", packets: packets).utf8)
        #expect(ReportFormat.sarif.render(report, options: options) == expected)
        #expect(expected != without)
    }

    /// Every SARIF result of every sample capture (transcripts, pcapng, HAR; the vendor SDKs'
    /// recordings too) points into the file: a line, or a packet's bytes.
    @Test(arguments: sampleCaptures())
    func everySARIFResultOfASampleHasARegion(capture: String) throws {
        let path = "\(repositoryRoot)/Fixtures/captures/\(capture)"
        let report = try check(path)
        var options = ReportFormat.Options(threshold: .info, toolVersion: "9.9")
        options.capture = path
        let sarif = try JSONParser.parse(ReportFormat.sarif.render(report, options: options))
        let results = sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue ?? []
        #expect(results.count == report.allFindings.count)
        let withoutRegion = results.filter { $0["locations"]?.arrayValue?.first?["physicalLocation"]?["region"] == nil }
        #expect(withoutRegion.isEmpty, "\(withoutRegion.compactMap { $0["ruleId"]?.stringValue })")
    }

    /// The captures below `Fixtures/captures/` (not the defect and report folders), as paths from there.
    static func sampleCaptures() -> [String] {
        let root = "\(repositoryRoot)/Fixtures/captures"
        let enumerator = FileManager.default.enumerator(atPath: root)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            guard [".jsonl", ".pcapng", ".pcap", ".har"].contains(where: path.hasSuffix), !path.hasPrefix("reports/")
            else { continue }
            found.append(path)
        }
        return found.sorted()
    }
}
