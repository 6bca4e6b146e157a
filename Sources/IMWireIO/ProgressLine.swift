#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A progress line while a large file is read (`imwire check` on a terminal): each change of
/// the percentage read is handed to `emit` as a line that overwrites the one before (`\r`), and
/// `finish` clears it. Inactive (nothing emitted) unless `showing` and the file is larger than
/// `minimumSize`.
package final class ProgressLine {
    private let total: Int
    private let active: Bool
    private let emit: (String) -> Void
    private var shown = -1

    package init(path: String, showing: Bool, minimumSize: Int = 8 << 20, emit: @escaping (String) -> Void) {
        var info = stat()
        total = stat(path, &info) == 0 ? Int(info.st_size) : 0
        active = showing && total > minimumSize
        self.emit = emit
    }

    /// `read` bytes of the file have been read.
    package func update(_ read: Int) {
        guard active, total > 0 else { return }
        let percent = min(100, read * 100 / total)
        guard percent != shown else { return }
        shown = percent
        let bar = String(repeating: "#", count: percent / 4) + String(repeating: ".", count: 25 - percent / 4)
        emit("\r[\(bar)] \(percent)% of \(total >> 20) MiB")
    }

    /// Clears the line, if one was shown.
    package func finish() {
        if active, shown >= 0 { emit("\r\u{1b}[K") }
    }
}
