import ArgumentParser
import Foundation
import IMWire

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge the JSON reports of a capture's shards into the report of checking the whole capture.",
        discussion: """
            Each report is `imwire check --format json` of one shard made by `imwire shard` (its \
            `merge` member, Spec/report-json.md). The merged report is the one `imwire check` of \
            the whole capture gives, with the same exit status (byte for byte in text, JSON, JUnit \
            and SARIF; `--format html` needs shards checked with `--merge-timelines`, and its \
            messages open to their summaries only, as shards keep no message bytes): connections in \
            the capture's order, the shards' findings and byte accounts, and each client's \
            reconnects judged across all shards. Its source is the capture's path as \
            `imwire shard` was given it.

            Exit status: 0 clean, 1 findings at or above the shards' --severity, 2 a report that \
            cannot be merged (truncated, another version, another capture, other options, a shard \
            missing or twice).
            """)

    @Argument(help: "The shards' JSON reports (every shard of one capture, in any order).")
    var reports: [String]

    @Option(help: "Report format: text, json, junit, sarif, html.")
    var format: ReportFormat = .text

    @Option(name: .shortAndLong, help: "Write the report to a file instead of standard output (`-`: standard output).")
    var output: String?

    func run() throws {
        // Refused before any is read, as when all were read first.
        if let path = reports.first(where: { !FileManager.default.isReadableFile(atPath: $0) }) {
            throw unreadable("\(path): cannot be read")
        }
        let merged: ReportMerger.Merged
        do {
            // One report in memory at a time: each is read when the merge comes to it.
            merged = try ReportMerger.merge(
                names: reports, tool: IMWireCLI.configuration.version, needsTimelines: format == .html
            ) {
                index throws(IMWireError) in
                guard let data = FileManager.default.contents(atPath: reports[index]) else {
                    throw IMWireError(.fileRead, "cannot be read", path: reports[index])
                }
                return [UInt8](data)
            }
        } catch { throw unreadable(error.description + Self.flags(error.code)) }
        let report = merged.report
        let severity = merged.threshold
        let file: OutputFile
        do { file = try OutputFile(path: output) } catch { throw unreadable(error.description) }
        var formatOptions = ReportFormat.Options(threshold: severity, toolVersion: IMWireCLI.configuration.version)
        formatOptions.packets = merged.packets
        format.write(report, options: formatOptions, to: file.write)
        do { try file.close() } catch { throw unreadable(error.description) }
        throw ExitCode(report.exitCode(threshold: severity))
    }

    /// The flags of `imwire check` a merge error is about: the library names none.
    static func flags(_ code: IMWireError.Code) -> String {
        switch code {
        case .mergeNoMergeMember: ": merge reads `imwire check --format json` reports of shards made by `imwire shard`"
        case .mergeOtherOptions: " (--severity, --lenient, --rule, --policy)"
        case .mergeNoTimelines: " (check the shards with --merge-timelines)"
        default: ""
        }
    }
}
