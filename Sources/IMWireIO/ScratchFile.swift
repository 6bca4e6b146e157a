import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file for what a capture of any size must not keep in memory, written and read
/// at offsets (`pwrite`, `pread`). It is unlinked as soon as it is open: nothing is left behind,
/// however the process ends. Written from one thread at a time; read from any once written.
/// With a read-ahead, a read smaller than it fetches that much from the disk at once and serves
/// the reads that follow from it: one `pread` for many small records read in about the order they
/// were written.
package final class ScratchFile: @unchecked Sendable {
    private let descriptor: Int32
    private let readAhead: Int
    /// The bytes last read ahead, from `offset`; dropped when a write overlaps them.
    private let window = Mutex<(offset: Int, bytes: [UInt8])>((0, []))

    /// A file in `$TMPDIR` (else `/tmp`) named after `name`; nil when none can be made there.
    /// `readAhead` bytes are read at once for smaller reads (0: each read reads what it asks for).
    package init?(name: String, readAhead: Int = 0) {
        self.readAhead = readAhead
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/imwire-\(name)-XXXXXX".utf8CString)
        descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return nil }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    deinit { close(descriptor) }

    /// Writes `bytes` at `offset` (past the end too: the file grows); false when the file
    /// cannot take them (a full disk).
    package func write(_ bytes: [UInt8], at offset: Int) -> Bool {
        if readAhead > 0 {
            window.withLock { window in
                if offset < window.offset + window.bytes.count, window.offset < offset + bytes.count {
                    window = (0, [])
                }
            }
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset + written))
            }
            if count <= 0 { return false }
            written += count
        }
        return true
    }

    /// `count` bytes from `offset`; zeros past the end of what was written.
    package func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard count < readAhead else { return read(at: offset, count: count) }
        return window.withLock { window in
            if offset < window.offset || offset + count > window.offset + window.bytes.count {
                window = (offset, read(at: offset, count: readAhead))
            }
            let start = offset - window.offset
            return Array(window.bytes[start..<start + count])
        }
    }

    private func read(at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes[done...].withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, $0.count, off_t(offset + done))
            }
            if read == 0 { break }
            // The file is this process's own and unlinked: only an I/O error of the disk gets here.
            guard read > 0 else { fatalError("imwire: a scratch file cannot be read back (errno \(errno))") }
            done += read
        }
        return bytes
    }
}
