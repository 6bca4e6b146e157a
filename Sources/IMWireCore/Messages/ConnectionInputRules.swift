/// Rules about connection inputs themselves, whatever their source: the transport layer judges
/// them as it reads the inputs; the capture rules list them (`CAPTURE.`), as captures are where
/// they are met.
package enum ConnectionInputRules {
    package static let timeBackwards = Rule(
        "CAPTURE.TIME-BACKWARDS", .warning, layer: .capture,
        summary: "A connection's timestamps go backwards.",
        specRef: "Spec/captures.md#capture-events (time), Spec/capture-jsonl.md#jsonl-common-fields (t)")
    package static let tcpGap = Rule(
        "CAPTURE.TCP-GAP", .warning, layer: .capture,
        summary: """
            TCP bytes missing from the capture (lost, filtered, \
            snaplen); the rest of that direction is counted, not decoded.
            """,
        specRef: "Spec/captures.md#tcp-reassembly (gaps)")
}
