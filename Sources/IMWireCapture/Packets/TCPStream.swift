import IMWireCore

/// One direction of a TCP connection put back in order: segments in any order, retransmitted or
/// overlapping, come out as the byte stream the receiver saw. Overlaps whose bytes differ are
/// reported (the first copy wins, as most stacks do); missing bytes are reported as a gap and
/// skipped when the reordering buffer is full or the stream ends. Memory per direction is
/// bounded by `maxBuffered` plus a window of recently delivered bytes kept for the comparison.
struct TCPStream {
    enum Output: Equatable {
        case data([UInt8])
        case gap(Int)
        case conflict(offset: Int64, length: Int)
    }

    static let recentWindow = 1 << 16

    let maxBuffered: Int
    /// Sequence number of stream offset 0 (the byte after the SYN, or the first byte seen).
    private var base: UInt32?
    /// Stream offset of the next byte to deliver.
    private(set) var delivered: Int64 = 0
    /// Out-of-order segments by stream offset.
    private var buffered: [(offset: Int64, bytes: [UInt8])] = []
    private var bufferedBytes = 0
    /// The last delivered bytes, to compare retransmissions with.
    private var recent = RecentBytes(window: TCPStream.recentWindow)

    init(maxBuffered: Int) {
        self.maxBuffered = maxBuffered
    }

    /// The stream starts after this SYN.
    mutating func syn(sequence: UInt32) {
        if base == nil { base = sequence &+ 1 }
    }

    /// The sequence number of the next byte to deliver (nil before any byte or SYN).
    var nextSequence: UInt32? { base.map { $0 &+ UInt32(truncatingIfNeeded: delivered) } }

    /// The stream offset of `sequence`, unwrapping 32-bit sequence numbers around what was delivered.
    private mutating func offset(of sequence: UInt32) -> Int64 {
        guard let base else {
            self.base = sequence
            return 0
        }
        let expected = base &+ UInt32(truncatingIfNeeded: delivered)
        return delivered + Int64(Int32(bitPattern: sequence &- expected))
    }

    /// Appends what one segment delivers to `outputs` (the caller's buffer, reused from one
    /// segment to the next).
    mutating func segment(sequence: UInt32, payload: some Collection<UInt8>, into outputs: inout [Output]) {
        guard !payload.isEmpty else { return }
        let start = offset(of: sequence)
        accept(start, Array(payload), into: &outputs)
        drain(into: &outputs)
        if bufferedBytes > maxBuffered { outputs += skipGap() }
    }

    /// The segment's bytes when it is simply the next in order with nothing waiting out of
    /// order (nearly every segment): delivered at once, as `segment` would, without an output
    /// list. Nil, with nothing changed, for any other segment.
    mutating func nextInOrder(sequence: UInt32, payload: some Collection<UInt8>) -> [UInt8]? {
        guard !payload.isEmpty, buffered.isEmpty, let base, sequence == base &+ UInt32(truncatingIfNeeded: delivered)
        else {
            return nil
        }
        let bytes = Array(payload)
        advance(over: bytes)
        return bytes
    }

    /// What one segment delivers, as a list of its own (the tests' view).
    mutating func segment(sequence: UInt32, payload: some Collection<UInt8>) -> [Output] {
        var outputs: [Output] = []
        segment(sequence: sequence, payload: payload, into: &outputs)
        return outputs
    }

    /// Delivers what it can of a segment at `start`; keeps the rest for later.
    private mutating func accept(_ start: Int64, _ bytes: [UInt8], into outputs: inout [Output]) {
        let end = start + Int64(bytes.count)
        if end <= delivered {
            compare(start, bytes[...], into: &outputs)
            return
        }
        if start > delivered {
            buffered.append((start, bytes))
            buffered.sort { $0.offset < $1.offset }
            bufferedBytes += bytes.count
            return
        }
        let overlap = Int(delivered - start)
        guard overlap > 0 else { return deliver(bytes, into: &outputs) }  // the usual case: no copy
        compare(start, bytes[..<overlap], into: &outputs)
        deliver(Array(bytes[overlap...]), into: &outputs)
    }

    /// Compares bytes already delivered with a copy that arrived again.
    private func compare(_ start: Int64, _ bytes: ArraySlice<UInt8>, into outputs: inout [Output]) {
        let recentStart = delivered - Int64(recent.count)
        let from = max(start, recentStart)
        let to = start + Int64(bytes.count)
        guard from < to else { return }
        let new = bytes[(bytes.startIndex + Int(from - start))...]
        if !recent.matches(new, at: Int(from - recentStart)) {
            outputs.append(.conflict(offset: from, length: Int(to - from)))
        }
    }

    /// The stream moves past `bytes`, kept for comparing retransmissions.
    private mutating func advance(over bytes: [UInt8]) {
        delivered += Int64(bytes.count)
        recent.append(bytes)
    }

    private mutating func deliver(_ bytes: [UInt8], into outputs: inout [Output]) {
        guard !bytes.isEmpty else { return }
        advance(over: bytes)
        outputs.append(.data(bytes))
    }

    private mutating func drain(into outputs: inout [Output]) {
        while let first = buffered.first, first.offset <= delivered {
            buffered.removeFirst()
            bufferedBytes -= first.bytes.count
            accept(first.offset, first.bytes, into: &outputs)
        }
    }

    /// Gives up on the missing bytes before the first buffered segment.
    mutating func skipGap() -> [Output] {
        guard let first = buffered.first else { return [] }
        let missing = Int(first.offset - delivered)
        delivered = first.offset
        recent.removeAll()
        var outputs: [Output] = [.gap(missing)]
        drain(into: &outputs)
        return outputs
    }

    /// The stream ends: whatever is buffered comes out after its gaps.
    mutating func finish() -> [Output] {
        var outputs: [Output] = []
        while !buffered.isEmpty { outputs += skipGap() }
        return outputs
    }

    /// Bytes the capture cut off (snaplen) right after what was delivered: skipped as a gap now
    /// rather than waited for. Elsewhere they surface as a gap later anyway.
    mutating func lost(sequence: UInt32, count: Int) -> [Output] {
        guard count > 0, offset(of: sequence) == delivered else { return [] }
        delivered += Int64(count)
        recent.removeAll()
        var outputs: [Output] = [.gap(count)]
        drain(into: &outputs)
        return outputs
    }
}

/// The last `window` bytes of a stream, in a ring: appending overwrites the oldest bytes in place.
/// (An array trimmed with `removeFirst` moved the whole window, 64 KiB, for every segment once a
/// connection had carried that much.)
struct RecentBytes {
    let window: Int
    private var ring: [UInt8] = []
    /// Index in `ring` of the oldest byte; 0 until the ring is full.
    private var oldest = 0

    init(window: Int) {
        self.window = window
    }

    var count: Int { ring.count }

    mutating func append(_ bytes: [UInt8]) {
        guard bytes.count < window else {
            ring = Array(bytes.suffix(window))
            oldest = 0
            return
        }
        let direct = min(window - ring.count, bytes.count)
        // Through a buffer pointer: appending an ArraySlice takes the unspecialized generic path.
        bytes.withUnsafeBufferPointer { ring.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<direct])) }
        var rest = bytes[direct...]
        while !rest.isEmpty {
            let step = min(rest.count, window - oldest)
            ring.replaceSubrange(oldest..<(oldest + step), with: rest.prefix(step))
            rest = rest.dropFirst(step)
            oldest = (oldest + step) % window
        }
    }

    /// Whether `bytes` equal the kept bytes from `position` on (0 is the oldest kept byte).
    func matches(_ bytes: ArraySlice<UInt8>, at position: Int) -> Bool {
        var index = (oldest + position) % max(ring.count, 1)
        for byte in bytes {
            if ring[index] != byte { return false }
            index += 1
            if index == ring.count { index = 0 }
        }
        return true
    }

    mutating func removeAll() {
        ring = []
        oldest = 0
    }
}
