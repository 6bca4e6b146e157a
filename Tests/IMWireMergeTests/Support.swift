import IMWire

/// The repository root, found from this file's path (Tests/IMWireMergeTests/Support.swift).
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// Runs the checker over a capture file of any format (a path from the repository root, or absolute).
func check(_ relativePath: String, options: CheckOptions = CheckOptions(), jobs: Int = 1) throws -> CheckReport {
    let path = relativePath.hasPrefix("/") ? relativePath : "\(repositoryRoot)/\(relativePath)"
    return try Checker.check(
        try CaptureFile.open(path, limits: options.limits), named: relativePath, options: options, jobs: jobs,
        unreadableThrows: false)
}
