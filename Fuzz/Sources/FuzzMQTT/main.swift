import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.mqtt).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.mqtt, start, count)
    if !violations.isEmpty { fatalError("MQTT: " + violations.joined(separator: "; ")) }
    return 0
}
