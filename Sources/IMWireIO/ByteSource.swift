import IMWireCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file (or standard input for `-`) in fixed-size chunks, so captures of any size are
/// read in constant memory.
package final class FileByteSource {
    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool
    // @exclusivity(unchecked): one reader at a time, so the run-time check, made on every
    // `BufferedInput.fill` (once per capture block), would buy nothing.
    @exclusivity(unchecked) private var buffer: [UInt8]
    package let path: String
    /// Bytes read from the file so far.
    @exclusivity(unchecked) package private(set) var bytesRead = 0

    package init(path: String, chunkSize: Int = 1 << 16) throws(IMWireError) {
        self.path = path
        if path == "-" {
            buffer = [UInt8](repeating: 0, count: chunkSize)
            // fdopen gives our own FILE for descriptor 0 without touching the global `stdin`.
            guard let handle = fdopen(0, "rb") else {
                throw IMWireError.cannotRead(path, "standard input unavailable")
            }
            file = handle
            ownsFile = false
            return
        }
        guard let handle = fopen(path, "rb") else {
            throw IMWireError.cannotRead(path, String(cString: strerror(errno)))
        }
        var info = stat()
        let known = fstat(fileno(handle), &info) == 0
        if known, (info.st_mode & S_IFMT) == S_IFDIR {
            fclose(handle)
            throw IMWireError.cannotRead(path, "is a directory")
        }
        // A small regular file gets a buffer its size (a fixture, a fuzz input), not a whole chunk;
        // a file that grows while read is still read, in those smaller pieces.
        let size = known && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : chunkSize
        buffer = [UInt8](repeating: 0, count: min(chunkSize, max(size, 4096)))
        file = handle
        ownsFile = true
    }

    deinit {
        if ownsFile { fclose(file) }
    }

    /// The next chunk, or nil at end of file.
    package func read() -> ArraySlice<UInt8>? {
        let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytesRead += count
        return count > 0 ? buffer[0..<count] : nil
    }

    /// The whole file (for small inputs such as fixtures), bounded by `limit` bytes.
    package static func readAll(path: String, limit: Int = 256 << 20) throws(IMWireError) -> [UInt8] {
        let source = try FileByteSource(path: path)
        var bytes: [UInt8] = []
        while let chunk = source.read() {
            bytes.append(contentsOf: chunk)
            if bytes.count > limit { throw IMWireError.cannotRead(path, "larger than \(limit) bytes") }
        }
        return bytes
    }
}

extension IMWireError.Code {
    /// A file that cannot be opened or read (`path`: the file).
    public static let fileRead = Self("file.read")
    /// A file or a directory that cannot be written or made.
    public static let fileWrite = Self("file.write")
}

extension IMWireError {
    /// `cannot read PATH: reason` (`fileRead`).
    package static func cannotRead(_ path: String, _ reason: String) -> IMWireError {
        IMWireError(.fileRead, reason, summary: "cannot read", path: path)
    }

    /// `cannot write PATH: reason` (`fileWrite`).
    package static func cannotWrite(_ path: String, _ reason: String) -> IMWireError {
        IMWireError(.fileWrite, reason, summary: "cannot write", path: path)
    }
}
