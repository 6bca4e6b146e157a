import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.testeeResponses).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.testeeResponses, start, count)
    if !violations.isEmpty { fatalError("TesteeResponses: " + violations.joined(separator: "; ")) }
    return 0
}
