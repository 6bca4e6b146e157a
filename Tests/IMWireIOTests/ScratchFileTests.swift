import Testing

@testable import IMWireIO

@Suite struct ScratchFileTests {
    /// A read-ahead window serves the reads inside it, is refilled for one that leaves it, and
    /// is not served again once a write overlaps it.
    @Test(arguments: [0, 8, 64]) func readsSeeEveryWrite(readAhead: Int) throws {
        let file = try #require(ScratchFile(name: "test", readAhead: readAhead))
        let bytes = (0..<100).map { UInt8($0) }
        #expect(file.write(bytes, at: 0))
        #expect(file.bytes(at: 3, count: 4) == [3, 4, 5, 6])
        #expect(file.bytes(at: 5, count: 2) == [5, 6])  // inside the window
        #expect(file.bytes(at: 6, count: 7) == Array(6..<13))  // leaves it
        #expect(file.bytes(at: 98, count: 4) == [98, 99, 0, 0])  // zeros past the end
        #expect(file.write([200, 201], at: 99))  // over the window read at 98, and past the end
        #expect(file.bytes(at: 98, count: 4) == [98, 200, 201, 0])
        #expect(file.write([7], at: 12))
        #expect(file.bytes(at: 10, count: 4) == [10, 11, 7, 13])
        var expected = bytes
        (expected[12], expected[99]) = (7, 200)
        #expect(file.bytes(at: 0, count: 100) == expected)
    }
}

@Suite struct IntegerListTests {
    /// Integers come back by position from memory, the file and the block not yet written, in
    /// any order: with none, some and all in memory.
    @Test(arguments: [0, 5000, 20_000]) func integersComeBackByPosition(inMemory: Int) {
        let list = IntegerList(inMemory: inMemory)
        let values = (0..<10_000).map { $0 * 7919 % 10_007 - 5000 }  // negative ones too
        for value in values { list.append(value) }
        #expect(list.count == values.count)
        for position in [9_999, 0, 4_096, 4_095, 8_191, 8_192, 4_999, 5_000, 1] {
            #expect(list[position] == values[position], "position \(position)")
        }
        #expect((0..<list.count).map { list[$0] } == values)
    }
}
