import Foundation
import IMWireIO
import Testing

/// Outputs appear whole or not at all (issue 37): an `OutputFile` writes beside its path and
/// renames on `close`; Tests/CrossCheck/kill_mid_write.py kills the CLI mid-write for the rest.
@Suite struct OutputFileTests {
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "imwire-output-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theOldFileStaysUntilClose() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.json"
        try TextFile.write("old", to: path)
        let file = try OutputFile(path: path)
        file.write(Array("new, first half".utf8))
        #expect(Self.contents(path) == "old")
        file.write(Array(" and second".utf8))
        try file.close()
        #expect(Self.contents(path) == "new, first half and second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.json"])
    }

    @Test func aFileNeverClosedLeavesTheOldOneAndNoTemporaryFile() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/capture.pcapng"
        try TextFile.write("old", to: path)
        do {
            let file = try OutputFile(path: path)
            file.write(Array("half a capture".utf8))
        }
        #expect(Self.contents(path) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["capture.pcapng"])
    }

    /// Renaming over a symbolic link would replace the link (as root, `/dev/stdout` itself):
    /// a link is written through, in place.
    @Test func aSymbolicLinkIsWrittenThroughNotReplaced() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/target.txt"
        let link = directory + "/link.txt"
        try TextFile.write("old", to: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try TextFile.write("new", to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(Self.contents(target) == "new")
    }
}
