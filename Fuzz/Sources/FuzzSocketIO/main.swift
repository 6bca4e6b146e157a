import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.socketIO).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.socketIO, start, count)
    if !violations.isEmpty { fatalError("SocketIO: " + violations.joined(separator: "; ")) }
    return 0
}
