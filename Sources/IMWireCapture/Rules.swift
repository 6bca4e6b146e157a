import IMWireCore

/// Rules about the capture file itself.
public enum CaptureRules {
    public static let badLine = Rule(
        "CAPTURE.JSONL-BAD-LINE", .error, layer: .capture,
        summary: "A transcript line that is not a JSON object (e.g. truncated); the rest of the file is still read.",
        specRef: "Spec/capture-jsonl.md")
    public static let badField = Rule(
        "CAPTURE.JSONL-BAD-FIELD", .error, layer: .capture,
        summary: "A transcript line with a missing or invalid field (dir, payload, t, type…).",
        specRef: "Spec/capture-jsonl.md")
    public static let lineTooLong = Rule(
        "CAPTURE.LINE-TOO-LONG", .error, layer: .capture,
        summary: "A transcript line longer than Limits.maxLineLength; skipped without being buffered.",
        specRef: "IMWire Limits")
    public static let timeBackwards = Rule(
        "CAPTURE.TIME-BACKWARDS", .warning, layer: .capture,
        summary: "A connection's timestamps go backwards.", specRef: "Spec/capture-jsonl.md")

    public static let all: [Rule] = [badLine, badField, lineTooLong, timeBackwards]
}
