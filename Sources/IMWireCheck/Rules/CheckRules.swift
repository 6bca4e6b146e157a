import IMWireCore

/// Rules of the checker itself: what it could not attribute or decode.
public enum CheckRules {
    public static let unknownDialect = Rule(
        "CHECK.UNKNOWN-DIALECT", .warning, layer: .capture,
        summary: """
            A connection whose dialect the capture does not reveal; \
            its messages are counted, not decoded (use --dialect).
            """,
        specRef: "Spec/captures.md#dialect-selection")
    public static let dialectGuessed = Rule(
        "CHECK.DIALECT-GUESSED", .info, layer: .capture,
        summary: "A connection without subprotocol or dialect whose first message decoded cleanly as this dialect.",
        specRef: "Spec/captures.md#dialect-selection (the guess)")
    public static let messageAfterClose = Rule(
        "CHECK.MESSAGE-AFTER-CLOSE", .warning, layer: .capture,
        summary: "A message on a connection after its close.", specRef: "Spec/captures.md#message-after-close")

    public static let all: [Rule] = [unknownDialect, dialectGuessed, messageAfterClose]
}
