import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.webSocket).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.webSocket, start, count)
    if !violations.isEmpty { fatalError("WebSocket: " + violations.joined(separator: "; ")) }
    return 0
}
