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
