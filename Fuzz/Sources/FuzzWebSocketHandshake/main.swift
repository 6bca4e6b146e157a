import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.webSocketHandshake).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.webSocketHandshake, start, count)
    if !violations.isEmpty { fatalError("WebSocketHandshake: " + violations.joined(separator: "; ")) }
    return 0
}
