import Testing

@testable import IMWireIO

@Suite struct SortedRunsTests {
    @Test func runsMergeIntoOrderAndTheNewestRecordIsFound() {
        let stores = [SortedRuns(recordSize: 3, runLength: 4), SortedRuns(recordSize: 3, runLength: 1)]
        var all: [[UInt8]] = []
        for index in 0..<50 {
            let record: [UInt8] = [UInt8(index * 7 % 5), UInt8(index % 3), UInt8(index)]
            stores[index % 2].append(record)
            all.append(record)
        }
        #expect(stores[0].runCount == 6 && stores[1].runCount == 25)  // store 0 keeps its last record pending
        #expect(stores[0].count == 25 && stores[1].count == 25)  // written or pending
        #expect(Array(SortedRuns.merged(stores)) == all.sorted { $0.lexicographicallyPrecedes($1) })
        // Key [2, 1] is records 1, 16, 31, 46 (index ≡ 1 mod 15): 16 and 46 in two runs of store 0,
        // 1 and 31 in two of store 1. Key [1, 0] is records 3, 18, 33, 48, the last one pending.
        #expect(stores[0].newest(startingWith: [2, 1]) == [2, 1, 46])
        #expect(stores[1].newest(startingWith: [2, 1]) == [2, 1, 31])
        #expect(stores[0].newest(startingWith: [1, 0]) == [1, 0, 48])
        #expect(stores[1].newest(startingWith: [1, 0]) == [1, 0, 33])
        #expect(stores[1].newest(startingWith: [9]) == nil)
    }

    @Test func runsOfALevelMergeIntoOneOfTheNextAndStillAnswerTheSame() {
        // Runs of 2 records, 3 of a level merged: 50 runs are 50 = 1·27 + 2·9 + 1·3 + 2 in base 3.
        let store = SortedRuns(recordSize: 3, runLength: 2, fanIn: 3)
        var all: [[UInt8]] = []
        for index in 0..<100 {
            let record: [UInt8] = [UInt8(index * 7 % 5), UInt8(index % 3), UInt8(index)]
            store.append(record)
            all.append(record)
        }
        #expect(store.runCount == 1 + 2 + 1 + 2 && store.count == 100)
        #expect(Array(SortedRuns.merged([store])) == all.sorted { $0.lexicographicallyPrecedes($1) })
        // Each key's newest is the last record written with it, wherever the merges put it.
        for key in Set(all.map { Array($0.prefix(2)) }) {
            #expect(store.newest(startingWith: key) == all.last { $0.starts(with: key) })
        }
    }
}
