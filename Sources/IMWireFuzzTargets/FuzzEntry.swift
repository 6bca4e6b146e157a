/// The body of every libFuzzer entry point in `Fuzz/`: run the target, report broken
/// invariants. The executable decides what a violation does (it traps, so libFuzzer keeps the
/// input); the library itself never traps.
public enum FuzzEntry {
    public static func violations(_ target: FuzzTarget, _ start: UnsafeRawPointer, _ count: Int) -> [String] {
        target.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    }

    /// Builds what a target reads once, so that its first input is timed like the others
    /// (libFuzzer's `LLVMFuzzerInitialize` runs before the timeout starts). TesteeResponses
    /// loads the conformance cases of `Fixtures/`: 3.7 s in the debug ASan build.
    public static func prepare(_ target: FuzzTarget) {
        if target == .testeeResponses { _ = TesteeFuzzing.cases }
    }
}
