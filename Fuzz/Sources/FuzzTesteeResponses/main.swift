import IMWireFuzzTargets

// libFuzzer entry points; the invariants live in IMWireFuzzTargets (FuzzTarget.testeeResponses).
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    FuzzEntry.prepare(.testeeResponses)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let violations = FuzzEntry.violations(.testeeResponses, start, count)
    if !violations.isEmpty { fatalError("TesteeResponses: " + violations.joined(separator: "; ")) }
    return 0
}
