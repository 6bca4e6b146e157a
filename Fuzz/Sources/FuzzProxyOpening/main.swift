import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.proxyOpening).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.proxyOpening, start, count)
    if !violations.isEmpty { fatalError("ProxyOpening: " + violations.joined(separator: "; ")) }
    return 0
}
