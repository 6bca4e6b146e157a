import IMWireCheck
import IMWireCore
import IMWireIO

/// The formats a check report is written in: what `imwire check --format`, `imwire merge
/// --format` and `imwire proxy --report-format` name.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// `TextReport`: lines for people.
    case text
    /// `JSONReport` (Spec/report-json.md).
    case json
    /// `JUnitReport`: a test suite per connection.
    case junit
    /// `SARIFReport` (SARIF 2.1.0).
    case sarif
    /// `HTMLReport`: one self-contained page.
    case html

    /// What the formats need besides the report; each reads its own.
    public struct Options: Sendable {
        /// Findings below it are left out, and the exit code counts from it.
        public var threshold: Severity
        /// The version of the tool, which SARIF names.
        public var toolVersion: String
        /// Text: ANSI colours.
        public var color = false
        /// SARIF: where each packet of the capture is, for the regions of findings about packets.
        /// Nil: read from `capture` (a packet capture's file) when it is given.
        public var packets: SARIFReport.PacketRegions?
        /// The capture the report is about, for SARIF's packet regions.
        public var capture: String?
        public var limits: Limits = .default
        /// HTML: what references to `Spec/` pages are links under; by default the Spec of the
        /// package this program belongs to, when found, else none.
        public var specBase: String?
        /// Text and JSON: the threads that read and render a check's connection reports.
        package var jobs = 1

        public init(threshold: Severity, toolVersion: String) {
            self.threshold = threshold
            self.toolVersion = toolVersion
        }
    }

    /// Writes `report` in this format, a piece at a time (the whole page at once for HTML, which
    /// is built whole).
    public func write(_ report: CheckReport, options: Options, to emit: ([UInt8]) -> Void) {
        let threshold = options.threshold
        switch self {
        case .text: TextReport.write(report, threshold: threshold, color: options.color, jobs: options.jobs, to: emit)
        case .json: JSONReport.write(report, threshold: threshold, jobs: options.jobs, to: emit)
        case .junit: JUnitReport.write(report, threshold: threshold, to: emit)
        case .sarif:
            let packets =
                options.packets
                ?? options.capture.map { capture in
                    // Findings located by a transcript line have their region there, not in a packet.
                    let frames = Set(
                        report.allFindings.compactMap { $0.location.line == nil ? $0.location.frameIndex : nil })
                    return SARIFReport.packetRegions(path: capture, numbers: frames, limits: options.limits)
                } ?? [:]
            SARIFReport.write(report, threshold: threshold, version: options.toolVersion, packets: packets, to: emit)
        case .html:
            let specBase = options.specBase ?? PackageRoot.locate().map { "file://\($0)/" } ?? ""
            emit(Array(HTMLReport.render(report, threshold: threshold, specBase: specBase).utf8))
        }
    }

    /// The report in this format, whole.
    public func render(_ report: CheckReport, options: Options) -> [UInt8] {
        var bytes: [UInt8] = []
        write(report, options: options) { bytes += $0 }
        return bytes
    }
}
