import Foundation
import IMWireCore
import IMWireIO
import Testing

/// `imwire check --secret-file`: the secret kept out of the command line, and so out of `ps`.
@Suite struct SecretFileTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "imwire-secret-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// One trailing newline goes (LF or CRLF, as `echo` or an editor ends the file); anything
    /// else is the secret's.
    @Test(arguments: [
        ("master-secret-1\n", "master-secret-1"), ("master-secret-1", "master-secret-1"),
        ("master-secret-1\r\n", "master-secret-1"),
        ("master-secret-1\n\n", "master-secret-1\n"), (" spaced \n", " spaced "), ("sécret\n", "sécret"),
    ])
    func aTrailingNewlineIsNotPartOfTheSecret(_ content: String, _ secret: String) throws {
        let path = try Self.file(Array(content.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SecretFile.read(path) == secret)
    }

    /// A file that cannot be read, is empty, is not text or is too large is refused, named.
    @Test func anUnusableFileIsNamed() throws {
        let missing = NSTemporaryDirectory() + "imwire-no-such-secret-\(UUID().uuidString)"
        let empty = try Self.file(Array("\n".utf8))
        let binary = try Self.file([0xff, 0xfe, 0x0a])
        let large = try Self.file([UInt8](repeating: 0x61, count: SecretFile.maxSize + 1))
        defer { for path in [empty, binary, large] { try? FileManager.default.removeItem(atPath: path) } }
        for path in [missing, empty, binary, large, NSTemporaryDirectory()] {
            let error = #expect(throws: IMWireError.self) { try SecretFile.read(path) }
            #expect(error?.code == .fileRead && error?.path == path, "\(String(describing: error))")
            #expect(error?.description.contains(path) == true, "\(String(describing: error))")
        }
    }
}
