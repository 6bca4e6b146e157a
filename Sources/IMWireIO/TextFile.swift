#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file writes without Foundation.
public enum TextFile {
    /// A file that cannot be written, with the system's reason.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
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

/// A file, or standard output, written piece by piece (reports a connection at a time), so
/// what is written is never held whole in memory. The first write error is kept and thrown by
/// `close()`; writes after it are dropped.
public final class OutputFile {
    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool
    private let name: String
    private var failure: TextFile.WriteError?

    /// `path` nil: standard output.
    public init(path: String?) throws(TextFile.WriteError) {
        guard let path else {
            // Our own FILE for descriptor 1 (the global `stdout` is shared mutable state);
            // nothing else of the command writes to standard output.
            guard let handle = fdopen(1, "wb") else { throw TextFile.WriteError(description: "standard output unavailable") }
            file = handle
            ownsFile = false
            name = "standard output"
            return
        }
        guard let handle = fopen(path, "wb") else {
            throw TextFile.WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        file = handle
        ownsFile = true
        name = path
    }

    deinit {
        if ownsFile { fclose(file) }
    }

    public func write(_ bytes: [UInt8]) {
        guard failure == nil, !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != bytes.count { failure = TextFile.WriteError(description: "short write to \(name)") }
    }

    /// Flushes what is buffered; throws the first error any write met (the file closes on deinit).
    public func close() throws(TextFile.WriteError) {
        if fflush(file) != 0, failure == nil {
            failure = TextFile.WriteError(description: "cannot write \(name): \(String(cString: strerror(errno)))")
        }
        if let failure { throw failure }
    }
}
