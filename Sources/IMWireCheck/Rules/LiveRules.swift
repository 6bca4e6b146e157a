import IMWireCore

/// Rules of a live check (`imwire proxy`): what happened to the proxied traffic itself.
public enum LiveRules {
    public static let upstreamUnreachable = Rule(
        "PROXY.UPSTREAM-UNREACHABLE", .error, layer: .capture,
        summary:
            "The proxy could not connect a client's connection to the upstream (refused, unreachable, timed out); the client's connection was closed.",
        specRef: "Spec/proxy.md#upstream-unreachable")

    public static let all: [Rule] = [upstreamUnreachable]
}
