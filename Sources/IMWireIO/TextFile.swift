import IMWireCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file writes without Foundation.
package enum TextFile {
    package static func write(_ text: String, to path: String) throws(IMWireError) {
        try write(Array(text.utf8), to: path)
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it there: a process killed
    /// mid-write leaves the old file or none, never a truncated one (`Replacement`).
    package static func write(_ bytes: [UInt8], to path: String) throws(IMWireError) {
        let file = try OutputFile(path: path)
        file.write(bytes)
        try file.close()
    }
}

/// Where a file's new content is written until it is whole: a hidden temporary file in the same
/// directory (so that rename(2) is atomic), renamed over the path by `commit`. A path that
/// exists and is not a regular file itself (a symbolic link such as `/dev/stdout`, a FIFO, a
/// device) is written in place: renaming over it would replace the link, not what it names.
struct Replacement {
    let path: String
    /// The file written to: the temporary one, or `path` itself.
    let writing: String

    /// Numbers the temporary files of one process.
    private static let sequence = Atomic<Int>(0)

    init(_ path: String) {
        self.path = path
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            writing = path
            return
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        writing =
            "\(directory).\(name).imwire-\(getpid())-\(Self.sequence.wrappingAdd(1, ordering: .relaxed).newValue).tmp"
    }

    /// Moves the whole file into place.
    func commit() throws(IMWireError) {
        guard writing != path else { return }
        guard rename(writing, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(writing)
            throw IMWireError.cannotWrite(path, reason)
        }
    }

    /// Drops the unfinished file.
    func abandon() {
        if writing != path { unlink(writing) }
    }
}

/// A file, or standard output, written piece by piece (reports a connection at a time), so
/// what is written is never held whole in memory. A named file appears at its path only when
/// `close` succeeds (`Replacement`): until then the old file, or none, is there. The first
/// write error is kept and thrown by `close()`; writes after it are dropped.
package final class OutputFile {
    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool
    private let name: String
    private var failure: IMWireError?
    /// Where a named file is written until `close` renames it over its path.
    private var replacement: Replacement?
    private var closed = false

    /// `path` nil or `-`: standard output (as `-` names standard input where a capture is
    /// read). `ownerOnly`: the file holds secrets (a key log, the traffic of logins), so it is
    /// created with mode 0600 whatever the umask, as `imwire ca create` writes the CA key;
    /// otherwise with the umask's mode.
    package init(path: String?, ownerOnly: Bool = false) throws(IMWireError) {
        guard let path, path != "-" else {
            // Our own FILE for descriptor 1 (the global `stdout` is shared mutable state);
            // nothing else of the command writes to standard output.
            guard let handle = fdopen(1, "wb") else {
                throw IMWireError(.fileWrite, "standard output unavailable")
            }
            file = handle
            ownsFile = false
            name = "standard output"
            return
        }
        let replacement = Replacement(path)
        guard let handle = ownerOnly ? Self.openOwnerOnly(replacement) : fopen(replacement.writing, "wb") else {
            throw IMWireError.cannotWrite(path, String(cString: strerror(errno)))
        }
        file = handle
        ownsFile = true
        name = path
        self.replacement = replacement
    }

    /// The file `replacement` writes, mode 0600 from the start. A temporary file is made new,
    /// never through a symbolic link (one a killed process left is replaced); a path written in
    /// place is changed only when it is a regular file, not the terminal or pipe behind
    /// `/dev/stdout`. Nil with errno set.
    private static func openOwnerOnly(_ replacement: Replacement) -> UnsafeMutablePointer<FILE>? {
        let inPlace = replacement.writing == replacement.path
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (inPlace ? 0 : O_EXCL | O_NOFOLLOW)
        var descriptor = OwnerOnlyFile.openDescriptor(replacement.writing, flags: flags)
        if descriptor < 0, errno == EEXIST {
            unlink(replacement.writing)
            descriptor = OwnerOnlyFile.openDescriptor(replacement.writing, flags: flags)
        }
        guard descriptor >= 0 else { return nil }
        guard let handle = fdopen(descriptor, "wb") else {
            let error = errno
            closeDescriptor(descriptor)
            if !inPlace { unlink(replacement.writing) }
            errno = error
            return nil
        }
        return handle
    }

    deinit {
        guard ownsFile, !closed else { return }
        fclose(file)
        replacement?.abandon()  // never closed: the old file stays
    }

    package func write(_ bytes: [UInt8]) {
        guard failure == nil, !closed, !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != bytes.count { failure = IMWireError(.fileWrite, "short write to \(name)") }
    }

    /// Flushes what is buffered and, for a named file, moves it into place; throws the first
    /// error any write met (the old file then stays). Standard output closes on deinit.
    package func close() throws(IMWireError) {
        guard !closed else {
            if let failure { throw failure }
            return
        }
        if fflush(file) != 0, failure == nil {
            failure = IMWireError.cannotWrite(name, String(cString: strerror(errno)))
        }
        if ownsFile {
            closed = true
            if fclose(file) != 0, failure == nil {
                failure = IMWireError.cannotWrite(name, String(cString: strerror(errno)))
            }
            if failure == nil {
                do { try replacement?.commit() } catch { failure = error }
            } else {
                replacement?.abandon()
            }
        }
        if let failure { throw failure }
    }
}

/// close(2), which OutputFile's own `close()` hides inside the class.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// A file that holds secrets (a CA key, a key log, a recording of logins), opened so that only
/// its owner can read it: mode 0600 from the start, whatever the umask (open(2)'s mode is only
/// a new file's, less the umask, so a regular file is also fchmod-ed). The one way `OutputFile`,
/// the CA and the proxy's key log make their private files.
package enum OwnerOnlyFile {
    /// open(2) of `path` with `flags` (they say whether it must be new, or not a link); a
    /// regular file it opens is made 0600. -1 with errno set, the descriptor closed (and a file
    /// it created removed) when the mode could not be set.
    package static func openDescriptor(_ path: String, flags: Int32) -> Int32 {
        let descriptor = open(path, flags, 0o600)
        guard descriptor >= 0 else { return -1 }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG || fchmod(descriptor, 0o600) == 0
        else {
            let error = errno
            closeDescriptor(descriptor)
            if flags & O_EXCL != 0 { unlink(path) }
            errno = error
            return -1
        }
        return descriptor
    }
}
