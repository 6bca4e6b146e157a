import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.captureChecker).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.captureChecker, start, count)
    if !violations.isEmpty { fatalError("CaptureChecker: " + violations.joined(separator: "; ")) }
    return 0
}
