import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.leancloudBinary).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.leancloudBinary, start, count)
    if !violations.isEmpty { fatalError("LeanCloudBinary: " + violations.joined(separator: "; ")) }
    return 0
}
