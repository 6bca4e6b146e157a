import IMWireCore

/// Rules of a live check (`imwire proxy`): what happened to the proxied traffic itself.
public enum LiveRules {
    public static let upstreamUnreachable = Rule(
        "PROXY.UPSTREAM-UNREACHABLE", .error, layer: .capture,
        summary:
            """
            The proxy could not connect a client's connection to the upstream \
            (refused, unreachable, timed out); the client's connection was closed.
            """,
        specRef: "Spec/proxy.md#upstream-unreachable")

    public static let tlsHandshakeFailed = Rule(
        "PROXY.TLS-HANDSHAKE-FAILED", .error, layer: .capture,
        summary:
            """
            A TLS handshake of `proxy --tls` failed: the client refused the leaf certificate \
            (it does not trust the IMWire CA), the upstream's certificate failed verification, \
            or the two ends share no version or suite; the connection was closed.
            """,
        specRef: "Spec/proxy.md#tls-interception")

    public static let requestRefused = Rule(
        "PROXY.REQUEST-REFUSED", .error, layer: .capture,
        summary:
            """
            A client's opening was refused and its connection closed: in explicit mode, its first bytes were \
            not a request the proxy serves (HTTP CONNECT host:port, an http:// request in absolute form, or \
            a SOCKS5 CONNECT without authentication; answered HTTP 501 or a SOCKS5 failure) or not a whole \
            request within 10 s (HTTP 408); with `--tls`, a ClientHello begun and not whole within 10 s.
            """,
        specRef: "Spec/proxy.md#explicit-mode")

    public static let serverSwitch = Rule(
        "PROXY.SERVER-SWITCH", .info, layer: .capture,
        summary:
            """
            In explicit mode, a plain-HTTP request for another server on a kept-alive connection \
            the proxy dialled for a first one: the client's connection was closed, as a server may \
            close a kept-alive connection, and the client sends the request again on a new one.
            """,
        specRef: "Spec/proxy.md#explicit-mode (RFC 9112 §9.3.1)")

    public static let all: [Rule] = [upstreamUnreachable, tlsHandshakeFailed, requestRefused, serverSwitch]
}
