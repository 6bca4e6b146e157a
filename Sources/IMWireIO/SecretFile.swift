import IMWireCore

/// A secret read from a file (`imwire check --secret-file`, `--master-key-file`): given on the
/// command line, it shows in `ps` to every user of the machine.
package enum SecretFile {
    /// The largest secret file read.
    package static let maxSize = 64 << 10

    /// The text of `path` without one trailing newline (LF or CRLF), as `echo` and editors end
    /// a file. An empty file (after that), one that is not UTF-8 or one over `maxSize` bytes is
    /// an error naming the file.
    package static func read(_ path: String) throws(IMWireError) -> String {
        var bytes = try FileByteSource.readAll(path: path, limit: maxSize)
        if bytes.last == 0x0a {
            bytes.removeLast()
            if bytes.last == 0x0d { bytes.removeLast() }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw IMWireError.cannotRead(path, "not UTF-8 text")
        }
        guard !text.isEmpty else { throw IMWireError.cannotRead(path, "empty") }
        return text
    }
}
