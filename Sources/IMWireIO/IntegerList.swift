import IMWireCore

/// Integers appended one after another and read back by position, for a list as long as the
/// capture: the first `inMemory` stay in memory, the rest go to a `ScratchFile` a block at a
/// time (8 bytes each, little-endian) and are read back through a read-ahead, cheap in about the
/// order they were written. Where no file can take them, they stay in memory.
/// Appended to from one thread, then read from any: hence the unchecked `Sendable`.
package final class IntegerList: @unchecked Sendable {
    private let inMemory: Int
    private var head: [Int] = []
    /// Integers past `head` not written to the file (yet, or because it cannot take them).
    private var pending: [Int] = []
    private var file: ScratchFile?
    private var fileFailed = false
    /// How many integers past `head` the file has.
    private var written = 0
    private static let blockCount = 4096

    package init(inMemory: Int) { self.inMemory = max(0, inMemory) }

    package var count: Int { head.count + written + pending.count }

    package func append(_ value: Int) {
        guard head.count >= inMemory else { return head.append(value) }
        pending.append(value)
        if pending.count >= Self.blockCount { writePending() }
    }

    private func writePending() {
        guard !fileFailed else { return }
        if file == nil { file = ScratchFile(name: "list", readAhead: 32 << 10) }
        var block = ByteWriter(capacity: 8 * pending.count)
        for value in pending { block.append(UInt64(bitPattern: Int64(value)), .little) }
        guard let file, file.write(block.bytes, at: 8 * written) else {
            fileFailed = true
            return
        }
        written += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    package subscript(position: Int) -> Int {
        precondition(position >= 0 && position < count, "position \(position) of \(count)")
        if position < head.count { return head[position] }
        let past = position - head.count
        guard past < written, let file else { return pending[past - written] }
        let word = file.bytes(at: 8 * past, count: 8).withReader { $0.readUInt64(.little) } ?? 0
        return Int(Int64(bitPattern: word))
    }
}
