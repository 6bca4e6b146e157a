import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.keyLog).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.keyLog, start, count)
    if !violations.isEmpty { fatalError("KeyLog: " + violations.joined(separator: "; ")) }
    return 0
}
