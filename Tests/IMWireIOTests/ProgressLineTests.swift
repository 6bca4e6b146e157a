import IMWireIO
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The progress line `imwire check` draws on a terminal while a large capture is read.
@Suite struct ProgressLineTests {
    /// A file of `size` bytes in a fresh scratch path.
    static func file(size: Int) throws -> String {
        let path = "/tmp/imwire-progress-\(size)-\(UInt64.random(in: 0...UInt64.max)).bin"
        try TextFile.write([UInt8](repeating: 0x2a, count: size), to: path)
        return path
    }

    @Test func eachNewPercentageIsALineThenItIsCleared() throws {
        let path = try Self.file(size: 3 << 20)
        defer { unlink(path) }
        var lines: [String] = []
        let progress = ProgressLine(path: path, showing: true, minimumSize: 1 << 20) { lines.append($0) }
        progress.update(0)
        progress.update(1)  // still 0%
        progress.update(3 << 19)
        progress.update(3 << 20)
        progress.finish()
        #expect(
            lines == [
                "\r[.........................] 0% of 3 MiB", "\r[############.............] 50% of 3 MiB",
                "\r[#########################] 100% of 3 MiB", "\r\u{1b}[K",
            ])
    }

    @Test func nothingForASmallFileOrWhenNotShowing() throws {
        let path = try Self.file(size: 1000)
        defer { unlink(path) }
        var lines: [String] = []
        let small = ProgressLine(path: path, showing: true) { lines.append($0) }
        small.update(500)
        small.finish()
        let hidden = ProgressLine(path: path, showing: false, minimumSize: 0) { lines.append($0) }
        hidden.update(500)
        hidden.finish()
        #expect(lines.isEmpty)
        let shown = ProgressLine(path: path, showing: true, minimumSize: 0) { lines.append($0) }
        shown.update(500)
        #expect(lines == ["\r[############.............] 50% of 0 MiB"])
    }
}
