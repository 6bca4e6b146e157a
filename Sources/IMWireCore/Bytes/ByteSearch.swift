#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnsafeRawBufferPointer {
    /// Where `byte` first is in `self[range]`, found by the C library's `memchr`: HTTP heads and
    /// segments are searched for a byte many times per capture, and loops over their bytes one at a
    /// time were a tenth of a shard run and most of `HTTPHead.parse`. Inlinable: as a call into
    /// this module, each search cost about 20 instructions more (0.9% of a check of HTTP traffic).
    @inlinable package func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = baseAddress,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Where `needle` first occurs in `self[range]`: candidates found with `memchr` (`memmem` is
    /// not in Glibc's Swift module).
    package func firstIndex(of needle: [UInt8], in range: Range<Int>) -> Int? {
        guard let first = needle.first, range.count >= needle.count else { return nil }
        var index = range.lowerBound
        let last = range.upperBound - needle.count
        while let found = firstIndex(of: first, in: index..<last + 1) {
            if self[found..<range.upperBound].starts(with: needle) { return found }
            index = found + 1
        }
        return nil
    }
}
