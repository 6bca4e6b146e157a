import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.pcapng).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.pcapng, start, count)
    if !violations.isEmpty { fatalError("Pcapng: " + violations.joined(separator: "; ")) }
    return 0
}
