import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.pcap).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.pcap, start, count)
    if !violations.isEmpty { fatalError("Pcap: " + violations.joined(separator: "; ")) }
    return 0
}
