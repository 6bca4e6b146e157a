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
        #expect(ReportFormat.text.render(report, options: options) == bytes { TextReport.write(report, threshold: .info, to: $0) })
        #expect(ReportFormat.json.render(report, options: options) == bytes { JSONReport.write(report, threshold: .info, to: $0) })
        #expect(ReportFormat.junit.render(report, options: options) == bytes { JUnitReport.write(report, threshold: .info, to: $0) })
        #expect(
            ReportFormat.sarif.render(report, options: options) == bytes { SARIFReport.write(report, threshold: .info, version: "9.9", to: $0) })
        var html = options
        html.specBase = "file:///spec/"
        #expect(ReportFormat.html.render(report, options: html) == Array(HTMLReport.render(report, threshold: .info, specBase: "file:///spec/").utf8))
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
}
