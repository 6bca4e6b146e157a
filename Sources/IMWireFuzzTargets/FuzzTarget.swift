import IMWireCapture
import IMWireConformance
import IMWireCore
import IMWireLeanCloud

/// Every fuzz target, as a function from input bytes to the invariants it broke (empty: none).
/// The libFuzzer executables in `Fuzz/` trap on a non-empty result; `swift test` replays
/// `Fuzz/FailCases/<target>/` through the same functions.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case leancloudBinary = "LeanCloudBinary"
    case leancloudText = "LeanCloudText"
    case leancloudDifferential = "LeanCloudDifferential"
    case transcript = "Transcript"
    case checker = "Checker"

    public func run(_ data: [UInt8]) -> [String] {
        let input = FuzzInput(data)
        switch self {
        case .leancloudBinary: return LeanCloudFuzzing.binary(input)
        case .leancloudText: return LeanCloudFuzzing.text(input)
        case .leancloudDifferential: return LeanCloudFuzzing.differential(input)
        case .transcript: return CaptureFuzzing.transcriptLine(input)
        case .checker: return CaptureFuzzing.checker(input)
        }
    }
}

/// Two runs of a decoder over the same bytes must report the same findings.
func sameFindings(_ first: [Finding], _ second: [Finding]) -> Bool {
    first.map(\.description) == second.map(\.description)
}
