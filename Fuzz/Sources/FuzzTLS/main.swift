import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.tls).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.tls, start, count)
    if !violations.isEmpty { fatalError("TLS: " + violations.joined(separator: "; ")) }
    return 0
}
