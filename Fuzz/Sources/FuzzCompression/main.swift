import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.compression).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.compression, start, count)
    if !violations.isEmpty { fatalError("Compression: " + violations.joined(separator: "; ")) }
    return 0
}
