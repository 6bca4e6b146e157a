import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.leancloudDifferential).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.leancloudDifferential, start, count)
    if !violations.isEmpty { fatalError("LeanCloudDifferential: " + violations.joined(separator: "; ")) }
    return 0
}
