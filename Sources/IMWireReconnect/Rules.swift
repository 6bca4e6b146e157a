import IMWireCore

/// The rules of the reconnect judge: what a capture of one client's consecutive connections
/// shows about its reconnect behaviour, measured against the client's policy. IDs are stable;
/// `Spec/rules.md` is generated from `ReconnectRules.all`. References name the subsection of
/// `Spec/reconnect.md` §6 that states what each rule judges and from which policy facts.
package enum ReconnectRules {

    package static let storm = Rule(
        "RECONNECT.STORM", .error, lenient: .warning, layer: .reconnect,
        summary: "Three or more automatic reconnects in a row, each sooner than the policy's delay for its attempt.",
        specRef: "Spec/reconnect.md#reconnect-storm")
    package static let tooEarly = Rule(
        "RECONNECT.TOO-EARLY", .warning, lenient: .info, layer: .reconnect,
        summary:
            """
            An automatic reconnect sooner than the policy's delay for its attempt, the fixed delay its code asks \
            for, or the wait the server gave (NIM 416). A network change the capture cannot see may explain one.
            """,
        specRef: "Spec/reconnect.md#reconnect-too-early")
    package static let afterTerminal = Rule(
        "RECONNECT.AFTER-TERMINAL", .error, layer: .reconnect,
        summary:
            """
            A login with the reconnect flag after a code on which the policy stops (kick, \
            conflict, wrong password, disabled account): only the user may log in again.
            """,
        specRef: "Spec/reconnect.md#reconnect-after-terminal (flagged login)")
    package static let afterTerminalSuspected = Rule(
        "RECONNECT.AFTER-TERMINAL-SUSPECTED", .warning, lenient: .info, layer: .reconnect,
        summary:
            """
            A new login soon after a code on which the policy stops, where the login shows no \
            reconnect flag (the protocol has none, or it was not seen): it looks automatic.
            """,
        specRef: "Spec/reconnect.md#reconnect-after-terminal (login without a flag)")
    package static let budgetExceeded = Rule(
        "RECONNECT.BUDGET-EXCEEDED", .warning, layer: .reconnect,
        summary: "More automatic reconnects in a row than the policy's retry budget (LeanCloud Java: 3).",
        specRef: "Spec/reconnect.md#reconnect-budget")
    package static let flagMissing = Rule(
        "RECONNECT.FLAG-MISSING", .warning, lenient: .info, layer: .reconnect,
        summary:
            """
            An automatic reconnect after a session whose login lacks the protocol's \
            reconnect flag (LeanCloud r=true, yun2win client id prefix 1).
            """,
        specRef: "Spec/reconnect.md#reconnect-flag (LeanCloud r, yun2win client id prefix)")
    package static let heartbeatMissing = Rule(
        "RECONNECT.HEARTBEAT-MISSING", .warning, layer: .reconnect,
        summary:
            """
            A logged-in connection on which the client sent no heartbeat for longer than the \
            policy's interval (plus the answer's wait where the interval counts from the answer).
            """,
        specRef: "Spec/reconnect.md#reconnect-heartbeat")

    package static let all: [Rule] = [
        storm, tooEarly, afterTerminal, afterTerminalSuspected, budgetExceeded, flagMissing, heartbeatMissing,
    ]
}
