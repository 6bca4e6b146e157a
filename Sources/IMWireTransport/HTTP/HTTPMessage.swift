import IMWireCore
import IMWireWebSocket

/// One HTTP/1.1 message as it crossed a connection: its head and its body (chunked bodies joined).
package struct HTTPMessage: Sendable {
    package var head: HTTPHead
    package var body: [UInt8]
    /// Where the head starts in its direction's stream.
    package var offset: Int
    /// Where the body starts in the stream (a chunked body: the first chunk's data).
    package var bodyOffset: Int
    /// Bytes the message took on the wire: head, body, chunk framing.
    package var wireLength: Int
    /// The body was not kept (larger than the limit) or was cut short.
    package var bodyIncomplete: Bool

    /// `GET` of a request.
    package var method: String? { head.startLine.first }
    /// `/socket.io/?EIO=3…` of a request.
    package var target: String? { head.startLine.count > 1 ? head.startLine[1] : nil }
    /// 200 of a response.
    package var status: Int? { head.startLine.count > 1 ? Int(head.startLine[1]) : nil }
}

/// How the body of a message is delimited (RFC 9112 §6.3).
enum HTTPBodyFraming: Equatable {
    case none
    case length(Int)
    case chunked
    /// A response without a length: everything to the end of the connection.
    case untilClose
    /// A 101 response: the bytes after the head belong to the new protocol.
    case switchingProtocols
    /// A request that asks to switch (`Upgrade`): what follows waits for the response.
    case awaitingUpgrade
    /// The head's framing fields do not make sense: nothing after it can be read.
    case invalid(Finding)

    /// The framing of a request's body: Transfer-Encoding chunked, Content-Length, else none.
    static func request(_ head: HTTPHead) -> HTTPBodyFraming {
        if head.has("Upgrade") { return .awaitingUpgrade }
        return declared(head) ?? .none
    }

    /// The framing of a response's body, given the request's method.
    static func response(_ head: HTTPHead, requestMethod: String?) -> HTTPBodyFraming {
        let status = head.startLine.count > 1 ? Int(head.startLine[1]) ?? 0 : 0
        if status == 101 { return .switchingProtocols }
        if requestMethod == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 { return .none }
        return declared(head) ?? .untilClose
    }

    /// What Transfer-Encoding and Content-Length say; nil when neither is there.
    private static func declared(_ head: HTTPHead) -> HTTPBodyFraming? {
        let encodings = head.listValues("Transfer-Encoding")
        let lengths = head.fields("Content-Length")
        if !encodings.isEmpty {
            guard lengths.isEmpty else {
                return .invalid(
                    HTTPRules.lengthInvalid.finding("both Transfer-Encoding and Content-Length", at: lengths[0].offset))
            }
            guard encodings.last?.lowercased() == "chunked" else {
                return .invalid(
                    HTTPRules.lengthInvalid.finding(
                        "Transfer-Encoding \(encodings.joined(separator: ", ")) does not end in chunked",
                        at: head.fields("Transfer-Encoding")[0].offset))
            }
            return .chunked
        }
        guard let first = lengths.first else { return nil }
        // The common case, one field of digits, read without the set below.
        if lengths.count == 1, let length = Self.digits(first.value) { return .length(length) }
        // Repeated fields (or a list) are allowed when every value is the same (RFC 9110 §8.6).
        let values = Set(lengths.flatMap { $0.value.split(separator: ",").map { String($0).trimmingSpacesAndTabs() } })
        guard values.count == 1, let text = values.first, let length = Self.digits(text) else {
            return .invalid(
                HTTPRules.lengthInvalid.finding(
                    "Content-Length \(lengths.map(\.value).joined(separator: ", "))",
                    at: first.valueOffset))
        }
        return .length(length)
    }

    /// A Content-Length value: 1 to 18 ASCII digits (no sign, no space), else nil.
    private static func digits(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(text)
    }
}
