/// Client addresses numbered in the order they are added: open addressing with a seeded
/// multiply-shift hash. Every packet of a shard run looks its client up, once per pass and
/// thread; `Dictionary`'s SipHash was 7% of the run. The multipliers are random per table, so a
/// capture cannot be made to collide on purpose.
struct AddressIndex: Sendable {
    private var addresses: [IPAddress] = []
    /// Index into `addresses` plus one; 0 is an empty slot. A power of two, at most half full.
    private var slots = [Int32](repeating: 0, count: 1024)
    private let a = UInt64.random(in: 0...UInt64.max) | 1
    private let b = UInt64.random(in: 0...UInt64.max) | 1

    var count: Int { addresses.count }

    private func slot(of address: IPAddress) -> (slot: Int, index: Int?) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: address.folded(a, b) >> 32) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return (slot, nil) }
            if addresses[entry - 1] == address { return (slot, entry - 1) }
            slot = (slot + 1) & mask
        }
    }

    subscript(address: IPAddress) -> Int? { slot(of: address).index }

    /// The address's number, added as the next one if it is new (`added` true).
    mutating func index(of address: IPAddress) -> (index: Int, added: Bool) {
        let (slot, found) = slot(of: address)
        if let found { return (found, false) }
        addresses.append(address)
        slots[slot] = Int32(addresses.count)
        if addresses.count * 2 > slots.count { grow() }
        return (addresses.count - 1, true)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, address) in addresses.enumerated() {
            var slot = Int(truncatingIfNeeded: address.folded(a, b) >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }
}
