/// The body of every libFuzzer entry point in `Fuzz/`: run the target, report broken
/// invariants. The executable decides what a violation does (it traps, so libFuzzer keeps the
/// input); the library itself never traps.
public enum FuzzEntry {
    public static func violations(_ target: FuzzTarget, _ start: UnsafeRawPointer, _ count: Int) -> [String] {
        target.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    }
}
