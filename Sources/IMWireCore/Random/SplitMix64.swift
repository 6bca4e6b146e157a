/// A small deterministic random number generator (SplitMix64, Steele, Lea and Flood 2014).
/// IMWire never reads a system source of randomness: simulations and randomized tests take a
/// seed and replay identically on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
