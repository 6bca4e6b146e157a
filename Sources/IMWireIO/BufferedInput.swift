import IMWireCore

/// Sequential reads of exact byte counts from a `FileByteSource`, holding at most one chunk
/// plus the bytes asked for, so a capture of any size is read in bounded memory.
package final class BufferedInput {
    private let source: FileByteSource
    // @exclusivity(unchecked): one thread at a time reads and changes this object, so the
    // runtime's access checks on these properties, read for every packet, would buy nothing.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var consumed = 0

    /// Bytes consumed so far: the file offset of the next byte.
    package var offset: Int { consumed }

    package init(_ source: FileByteSource) {
        self.source = source
    }

    private var available: Int { buffer.count - start }

    /// Makes `count` bytes available if the file has them; returns how many are.
    private func fill(_ count: Int) -> Int {
        while available < count, !atEnd {
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            if let chunk = source.read() { buffer.append(contentsOf: chunk) } else { atEnd = true }
        }
        return min(available, count)
    }

    /// The next `count` bytes, consumed; nil (consuming nothing) if the file ends before them.
    package func read(_ count: Int) -> [UInt8]? {
        guard count >= 0, fill(count) == count else { return nil }
        defer { consume(count) }
        return Array(buffer[start..<(start + count)])
    }

    /// The next `count` bytes without consuming them; nil if the file is shorter.
    package func peek(_ count: Int) -> [UInt8]? {
        guard count >= 0, fill(count) == count else { return nil }
        return Array(buffer[start..<(start + count)])
    }

    /// Runs `body` with a reader over the next `count` bytes where they lie in the buffer (no copy;
    /// the reader's offsets are file offsets) and consumes them; false, consuming nothing, if the
    /// file ends before them. Not generic in a result: the capture readers call this once per
    /// block from another module, where a generic one (even `@inlinable`) instantiates type
    /// metadata on every call.
    package func withNext(_ count: Int, _ body: (inout ByteReader) -> Void) -> Bool {
        guard withPeek(count, body) else { return false }
        consume(count)
        return true
    }

    /// Runs `body` over the next `count` bytes as `withNext` does, without consuming them.
    package func withPeek(_ count: Int, _ body: (inout ByteReader) -> Void) -> Bool {
        guard count >= 0, fill(count) == count else { return false }
        buffer.withUnsafeBytes { raw in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: raw[start..<(start + count)]), baseOffset: consumed)
            body(&reader)
        }
        return true
    }

    /// Runs `body` over all the bytes buffered now, at least `count` of them unless the file
    /// ends first (no copy; `body` gets them with the file offset of the first), and consumes as
    /// many as `body` returns: for walking many small records without a call per record.
    package func withBuffered(atLeast count: Int, _ body: (UnsafeRawBufferPointer, Int) -> Int) {
        _ = fill(count)
        let used = buffer.withUnsafeBytes { raw in
            body(UnsafeRawBufferPointer(rebasing: raw[start...]), consumed)
        }
        precondition(used >= 0 && used <= available, "consumed \(used) of \(available) buffered bytes")
        consume(used)
    }

    /// Skips up to `count` bytes without holding them; returns how many were skipped.
    @discardableResult
    package func skip(_ count: Int) -> Int {
        var remaining = max(0, count)
        while remaining > 0 {
            let step = fill(min(remaining, 1 << 16))
            if step == 0 { break }
            consume(step)
            remaining -= step
        }
        return count - remaining
    }

    private func consume(_ count: Int) {
        start += count
        consumed += count
    }

    /// True when no byte is left.
    package var isAtEnd: Bool { fill(1) == 0 }

    /// Bytes left after the current position, up to `limit` (for messages about truncation).
    package func remaining(upTo limit: Int) -> Int { fill(limit) }
}
