import Testing

@testable import IMWireCheck

/// `NumberBits` answers as a `Set<Int>` of the same numbers would, inserted in any order and
/// joined from several lanes.
@Suite struct NumberBitsTests {
    @Test func agreesWithASetOfTheSameNumbers() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<50 {
            let limit = [1, 63, 64, 65, 1000, 20_000][round % 6]
            var bits = [NumberBits(), NumberBits()]
            var sets: [Set<Int>] = [[], []]
            for _ in 0..<Int.random(in: 0...200, using: &generator) {
                let number = Int.random(in: 0..<limit, using: &generator)
                let lane = Int.random(in: 0...1, using: &generator)
                bits[lane].insert(number)
                sets[lane].insert(number)
            }
            var joined = NumberBits()
            for lane in bits { joined.formUnion(lane) }
            let union = sets[0].union(sets[1])
            #expect(joined.isEmpty == union.isEmpty, "round \(round)")
            for number in -1...limit + 64 {
                #expect(joined.contains(number) == union.contains(number), "round \(round), \(number)")
                #expect(bits[0].contains(number) == sets[0].contains(number), "round \(round), \(number)")
            }
        }
    }

    @Test func emptyUntilANumberIsInserted() {
        var bits = NumberBits()
        #expect(bits.isEmpty)
        bits.formUnion(NumberBits())
        #expect(bits.isEmpty)
        bits.insert(0)
        #expect(!bits.isEmpty && bits.contains(0) && !bits.contains(1))
    }
}
