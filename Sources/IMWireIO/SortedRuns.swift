#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fixed-size records in a `ScratchFile`, for a table that would otherwise grow with the
/// capture: records gather in memory, and every `runLength` of them are sorted and written as
/// one run. A record is found by a binary search in each run, newest first; all of them come
/// back in order by merging the runs. Records compare as bytes, so keys are written big-endian.
/// Runs are merged as they pile up, `fanIn` runs of one level into one of the next, so there are
/// fewer than `fanIn` runs a level: reading them all back holds a block per run, and the runs
/// grow with the logarithm of the records, not with the records.
package final class SortedRuns {
    package let recordSize: Int
    package let runLength: Int
    package let fanIn: Int
    /// Records not yet written, one after another in the order they came.
    private var pending: [UInt8] = []
    private var file: ScratchFile?
    private var fileFailed = false
    /// Oldest first. A run of level `n` is the merge of `fanIn` runs of level `n - 1`.
    private var runs: [(offset: Int, count: Int, level: Int)] = []
    /// Where the file ends: merged runs' old places stay in it.
    private var size = 0

    package init(recordSize: Int, runLength: Int, fanIn: Int = 64) {
        self.recordSize = recordSize
        self.runLength = max(1, runLength)
        self.fanIn = max(2, fanIn)
    }

    /// How many runs are in the file.
    package var runCount: Int { runs.count }

    /// How many records were appended or written.
    package var count: Int { runs.reduce(pending.count / recordSize) { $0 + $1.count } }

    /// Adds a record; a run is written when `runLength` are pending.
    package func append(_ record: [UInt8]) {
        precondition(record.count == recordSize, "a record of \(record.count) bytes, not \(recordSize)")
        pending += record
        if pending.count >= runLength * recordSize, write(run: pending) { pending.removeAll(keepingCapacity: true) }
    }

    /// Sorts `records` (records one after another) and writes them as a run; false when no
    /// file can take them (the caller keeps them, as `append` does).
    @discardableResult
    package func write(run records: [UInt8]) -> Bool {
        precondition(records.count % recordSize == 0, "\(records.count) bytes are not whole records of \(recordSize)")
        guard !fileFailed, !records.isEmpty else { return records.isEmpty }
        if file == nil { file = ScratchFile(name: "runs") }
        guard let file, file.write(sorted(records), at: size) else {
            fileFailed = true
            return false
        }
        runs.append((size, records.count / recordSize, 0))
        size += records.count
        while runs.count >= fanIn, runs[(runs.count - fanIn)...].allSatisfy({ $0.level == runs.last?.level }),
            mergeLastRuns()
        {}
        return true
    }

    /// Merges the last `fanIn` runs (all of one level) into one run of the next level, written
    /// after them; false when the file cannot take it (the runs stay as they were). Their old
    /// place in the file is not reused: the file grows by the records once a level.
    private func mergeLastRuns() -> Bool {
        guard let file else { return false }
        let merging = runs.suffix(fanIn)
        let cursors = merging.map {
            RunCursor(file: file, offset: $0.offset, count: $0.count, recordSize: recordSize)
        }
        let count = merging.reduce(0) { $0 + $1.count }
        var offset = size
        var block: [UInt8] = []
        block.reserveCapacity(64 << 10)
        for record in Self.merged(cursors) {
            block += record
            if block.count >= 64 << 10 {
                guard file.write(block, at: offset) else { return false }
                offset += block.count
                block.removeAll(keepingCapacity: true)
            }
        }
        guard file.write(block, at: offset) else { return false }
        let level = (merging.last?.level ?? 0) + 1
        runs.removeLast(fanIn)
        runs.append((size, count, level))
        size += count * recordSize
        return true
    }

    private func sorted(_ records: [UInt8]) -> [UInt8] {
        let size = recordSize
        return records.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            let order = (0..<records.count / size).sorted { memcmp(base + $0 * size, base + $1 * size, size) < 0 }
            var out: [UInt8] = []
            out.reserveCapacity(records.count)
            for index in order { out += buffer[index * size..<(index + 1) * size] }
            return out
        }
    }

    /// The newest record that starts with `key` (pending records are searched one by one:
    /// a table that looks records up keeps its recent ones itself and writes whole runs).
    package func newest(startingWith key: [UInt8]) -> [UInt8]? {
        for start in stride(from: pending.count - recordSize, through: 0, by: -recordSize)
        where pending[start...].starts(with: key) {
            return Array(pending[start..<start + recordSize])
        }
        guard let file else { return nil }
        for run in runs.reversed() {
            var (low, high) = (0, run.count)  // the first record not below `key`
            while low < high {
                let middle = (low + high) / 2
                let record = file.bytes(at: run.offset + middle * recordSize, count: recordSize)
                if record.prefix(key.count).lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
            }
            // Equal keys within a run: the last one written is the newest.
            var newest: [UInt8]?
            var index = low
            while index < run.count {
                let record = file.bytes(at: run.offset + index * recordSize, count: recordSize)
                guard record.starts(with: key) else { break }
                newest = record
                index += 1
            }
            if let newest { return newest }
        }
        return nil
    }

    /// Every record of `stores` in order: the runs of each (read a block at a time) and its
    /// pending records, merged. The stores are not to be appended to while this is read.
    package static func merged(_ stores: [SortedRuns]) -> AnyIterator<[UInt8]> {
        var cursors: [RunCursor] = []
        for store in stores {
            if let file = store.file {
                cursors += store.runs.map {
                    RunCursor(file: file, offset: $0.offset, count: $0.count, recordSize: store.recordSize)
                }
            }
            cursors.append(RunCursor(records: store.sorted(store.pending), recordSize: store.recordSize))
        }
        return merged(cursors)
    }

    /// The records of `cursors` merged in order.
    private static func merged(_ cursors: [RunCursor]) -> AnyIterator<[UInt8]> {
        var cursors = cursors
        cursors.removeAll { $0.current == nil }
        // A binary min-heap of the cursors by their current record: a record costs about
        // log2(runs) comparisons, so runs can be short (little pending in memory) and many.
        var heap = cursors
        for start in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(&heap, from: start) }
        return AnyIterator {
            guard let record = heap.first?.current.map(Array.init) else { return nil }
            heap[0].advance()
            if heap[0].current == nil {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            siftDown(&heap, from: 0)
            return record
        }
    }

    private static func siftDown(_ heap: inout [RunCursor], from start: Int) {
        var parent = start
        while true {
            var smallest = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

/// Reads one sorted run a block of records at a time.
private struct RunCursor {
    private let file: ScratchFile?
    private let recordSize: Int
    private var offset: Int
    private var remaining: Int
    private var block: [UInt8]
    private var start = 0
    private static let blockRecords = 256

    init(file: ScratchFile, offset: Int, count: Int, recordSize: Int) {
        self.file = file
        self.recordSize = recordSize
        self.offset = offset
        remaining = count
        block = []
        refill()
    }

    /// Records already in memory, sorted.
    init(records: [UInt8], recordSize: Int) {
        file = nil
        self.recordSize = recordSize
        offset = 0
        remaining = 0
        block = records
    }

    var current: ArraySlice<UInt8>? { start < block.count ? block[start..<start + recordSize] : nil }

    /// Whether this cursor's record sorts before `other`'s (both have one).
    func precedes(_ other: RunCursor) -> Bool {
        block.withUnsafeBytes { mine in
            other.block.withUnsafeBytes { theirs in
                memcmp(mine.baseAddress! + start, theirs.baseAddress! + other.start, recordSize) < 0
            }
        }
    }

    mutating func advance() {
        start += recordSize
        if start == block.count { refill() }
    }

    private mutating func refill() {
        guard let file, remaining > 0 else { return }
        let count = min(remaining, Self.blockRecords)
        block = file.bytes(at: offset, count: count * recordSize)
        start = 0
        offset += count * recordSize
        remaining -= count
    }
}
