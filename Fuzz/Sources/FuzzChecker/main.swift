import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.checker).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.checker, start, count)
    if !violations.isEmpty { fatalError("Checker: " + violations.joined(separator: "; ")) }
    return 0
}
