import IMWireCore

/// Rules of HTTP/1.1 as a transport (RFC 9112): requests and responses that are not WebSocket
/// upgrades, such as socket.io's handshakes and long-polls.
package enum HTTPRules {
    private static func rule(
        _ id: RuleID, _ severity: Severity, lenient: Severity? = nil, _ summary: String, _ specRef: String
    ) -> Rule {
        Rule(id, severity, lenient: lenient, layer: .http, summary: summary, specRef: specRef)
    }

    package static let headMalformed = rule(
        "HTTP.HEAD-MALFORMED", .error,
        """
        A request or response head that is not HTTP/1.1 syntax (start line, `name: \
        value` fields, CRLF line ends); the rest of that direction is not read.
        """, "Spec/http.md#message-head")
    package static let headTooLong = rule(
        "HTTP.HEAD-TOO-LONG", .error,
        "A head without its blank line within 16 KiB; the rest of that direction is not read.", "Spec/http.md#head-size"
    )
    package static let lengthInvalid = rule(
        "HTTP.LENGTH-INVALID", .error,
        """
        A Content-Length that is not one decimal number, or both Content-Length and \
        Transfer-Encoding on one message; the rest of that direction is not read.
        """, "Spec/http.md#message-body-length")
    package static let chunkInvalid = rule(
        "HTTP.CHUNK-INVALID", .error,
        "A chunked body whose chunk size line or chunk end is malformed; the rest of that direction is not read.",
        "Spec/http.md#chunked")
    package static let bodyTooLarge = rule(
        "HTTP.BODY-TOO-LARGE", .error,
        "A body larger than the message size limit: it is skipped, not decoded.",
        "Spec/http.md#body-size (maxMessageSize)")
    package static let responseWithoutRequest = rule(
        "HTTP.RESPONSE-WITHOUT-REQUEST", .error,
        "A response on a connection with no request waiting for one.", "Spec/http.md#message-order")
    package static let messageTruncated = rule(
        "HTTP.MESSAGE-TRUNCATED", .warning, lenient: .info,
        "The connection (or the capture) ended inside a head or a body.", "Spec/http.md#incomplete-messages")
    package static let requestUnanswered = rule(
        "HTTP.REQUEST-UNANSWERED", .info,
        "A request with no response when the connection (or the capture) ended: a long-poll still waiting, usually.",
        "Spec/http.md#message-order (a request still waiting)")

    package static let all: [Rule] = [
        headMalformed, headTooLong, lengthInvalid, chunkInvalid, bodyTooLarge, responseWithoutRequest, messageTruncated,
        requestUnanswered,
    ]
}
