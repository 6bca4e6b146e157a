import IMWireCore

/// Sequential reads of exact byte counts from a `FileByteSource`, holding at most one chunk
/// plus the bytes asked for, so a capture of any size is read in bounded memory.
package final class BufferedInput {
    private let source: FileByteSource
    // @exclusivity(unchecked): one thread at a time reads and changes this object, and the
    // runtime's access checks on these properties were about 9% of a capture check (perf).
    // @usableFromInline: `withNext`/`withPeek` are inlined into the capture readers, where their
    // generic result is specialized; called across the module they instantiated generic metadata
    // on every block (3% of a capture check, perf).
    @usableFromInline @exclusivity(unchecked) var buffer: [UInt8] = []
    @usableFromInline @exclusivity(unchecked) var start = 0
    @exclusivity(unchecked) private var atEnd = false
    @usableFromInline @exclusivity(unchecked) var consumed = 0

    /// Bytes consumed so far: the file offset of the next byte.
    package var offset: Int { consumed }

    package init(_ source: FileByteSource) {
        self.source = source
    }

    private var available: Int { buffer.count - start }

    /// Makes `count` bytes available if the file has them; returns how many are.
    @usableFromInline func fill(_ count: Int) -> Int {
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
    /// the reader's offsets are file offsets) and consumes them; nil, consuming nothing, if the
    /// file ends before them.
    @inlinable
    package func withNext<R>(_ count: Int, _ body: (inout ByteReader) -> R) -> R? {
        guard let result = withPeek(count, body) else { return nil }
        consume(count)
        return result
    }

    /// Runs `body` over the next `count` bytes as `withNext` does, without consuming them.
    @inlinable
    package func withPeek<R>(_ count: Int, _ body: (inout ByteReader) -> R) -> R? {
        guard count >= 0, fill(count) == count else { return nil }
        return buffer.withUnsafeBytes { raw in
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: raw[start..<(start + count)]), baseOffset: consumed)
            return body(&reader)
        }
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

    @usableFromInline func consume(_ count: Int) {
        start += count
        consumed += count
    }

    /// True when no byte is left.
    package var isAtEnd: Bool { fill(1) == 0 }

    /// Bytes left after the current position, up to `limit` (for messages about truncation).
    package func remaining(upTo limit: Int) -> Int { fill(limit) }
}
