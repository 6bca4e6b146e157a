import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.nioHandlers).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.nioHandlers, start, count)
    if !violations.isEmpty { fatalError("NIOHandlers: " + violations.joined(separator: "; ")) }
    return 0
}
