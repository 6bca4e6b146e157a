import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.scenario).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.scenario, start, count)
    if !violations.isEmpty { fatalError("Scenario: " + violations.joined(separator: "; ")) }
    return 0
}
