import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.leancloudText).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.leancloudText, start, count)
    if !violations.isEmpty { fatalError("LeanCloudText: " + violations.joined(separator: "; ")) }
    return 0
}
