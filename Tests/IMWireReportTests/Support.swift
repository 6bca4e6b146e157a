import IMWire

/// The repository root, found from this file's path (Tests/IMWireReportTests/Support.swift).
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

func readText(_ relativePath: String) throws -> String {
    String(decoding: try FileByteSource.readAll(path: "\(repositoryRoot)/\(relativePath)"), as: UTF8.self)
}

/// Runs the checker over a capture file of any format (a path from the repository root, or absolute).
func check(_ relativePath: String, options: CheckOptions = CheckOptions(), jobs: Int = 1) throws -> CheckReport {
    let path = relativePath.hasPrefix("/") ? relativePath : "\(repositoryRoot)/\(relativePath)"
    return try Checker.check(
        try CaptureFile.open(path, limits: options.limits), named: relativePath, options: options, jobs: jobs,
        unreadableThrows: false)
}

/// Runs the checker over transcript text given inline.
func check(lines: [String], options: CheckOptions = CheckOptions()) -> CheckReport {
    let checker = Checker(options: options)
    for (index, line) in lines.enumerated() {
        if let item = TranscriptLine.parse(Array(line.utf8), line: index + 1, limits: options.limits) { checker.consume(item) }
    }
    return checker.finish(source: "inline")
}
