import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.transcript).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.transcript, start, count)
    if !violations.isEmpty { fatalError("Transcript: " + violations.joined(separator: "; ")) }
    return 0
}
