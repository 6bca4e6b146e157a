import IMWireFuzzTargets

// libFuzzer entry point; the invariants live in IMWireFuzzTargets (FuzzTarget.mergeReports).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.mergeReports, start, count)
    if !violations.isEmpty { fatalError("MergeReports: " + violations.joined(separator: "; ")) }
    return 0
}
