import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.serve).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.serve, start, count)
    if !violations.isEmpty { fatalError("Serve: " + violations.joined(separator: "; ")) }
    return 0
}
