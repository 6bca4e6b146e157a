import IMWire

// What the checker's, the reports', the merge's and the tooling's tests share: one copy, where
// each of their targets had its own.

/// The repository root, found from this file's path (Tests/IMWireTestSupport/Support.swift).
public let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// A file of the repository as text (a path from the repository root).
public func readText(_ relativePath: String) throws -> String {
    String(decoding: try FileByteSource.readAll(path: "\(repositoryRoot)/\(relativePath)"), as: UTF8.self)
}

/// Runs the checker over a capture file of any format (a path from the repository root, or absolute).
public func check(_ relativePath: String, options: CheckOptions = CheckOptions(), jobs: Int = 1) throws -> CheckReport {
    let path = relativePath.hasPrefix("/") ? relativePath : "\(repositoryRoot)/\(relativePath)"
    return try Checker.check(
        try CaptureFile.open(path, limits: options.limits), named: relativePath, options: options, jobs: jobs,
        unreadableThrows: false)
}

/// Runs the checker over transcript text given inline.
public func check(lines: [String], options: CheckOptions = CheckOptions()) -> CheckReport {
    let checker = Checker(options: options)
    for (index, line) in lines.enumerated() {
        if let item = TranscriptLine.parse(Array(line.utf8), line: index + 1, limits: options.limits) {
            checker.consume(item)
        }
    }
    return checker.finish(source: "inline")
}

extension CheckReport {
    /// `connection#frame RULE` for every finding at or above `threshold`.
    public func summary(_ threshold: Severity = .warning) -> [String] {
        connections.flatMap { connection in
            connection.findings.filter { $0.severity >= threshold }.map {
                "\(connection.id)#\($0.location.frameIndex ?? 0) \($0.ruleID)"
            }
        }
    }
}
