import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.reconnectEvents).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.reconnectEvents, start, count)
    if !violations.isEmpty { fatalError("ReconnectEvents: " + violations.joined(separator: "; ")) }
    return 0
}
