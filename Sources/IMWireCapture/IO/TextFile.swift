#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file writes without Foundation.
public enum TextFile {
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        guard let file = fopen(path, "wb") else {
            throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw WriteError(description: "short write to \(path)") }
    }
}
