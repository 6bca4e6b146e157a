/// One item of a `Sec-WebSocket-Extensions` list (RFC 6455 §9.1): a name and its parameters, with
/// the offset of the name in the header value's text.
package struct WebSocketExtensionItem: Sendable, Hashable {
    /// One `name[=value]` parameter of an extension.
    package struct Parameter: Sendable, Hashable {
        package var name: String
        /// The value after unquoting; nil when the parameter has none.
        package var value: String?
        package var offset: Int
    }

    package var name: String
    package var parameters: [Parameter]
    package var offset: Int

    /// The item as header text, parameters in order (`permessage-deflate; client_max_window_bits=10`).
    package var headerText: String {
        ([name] + parameters.map { parameter in parameter.value.map { "\(parameter.name)=\($0)" } ?? parameter.name })
            .joined(separator: "; ")
    }
}

/// Parses `Sec-WebSocket-Extensions` values:
/// `extension-list = 1#( token *( ";" token [ "=" ( token / quoted-string ) ] ) )`.
package enum WebSocketExtensionHeader {
    /// A header value that does not follow RFC 6455 §9.1's grammar.
    package struct SyntaxError: Error, Sendable, Hashable {
        /// Offset within the value text.
        package let offset: Int
        package let reason: String
    }

    /// Parses one header value; empty list elements (`a, , b`) are allowed as RFC 9110 §5.6.1 says.
    package static func parse(_ value: String) -> Result<[WebSocketExtensionItem], SyntaxError> {
        let bytes = Array(value.utf8)
        var index = 0
        var items: [WebSocketExtensionItem] = []

        func skipSpace() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        func token() -> String? {
            let start = index
            while index < bytes.count, isTokenChar(bytes[index]) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }
        func quoted() -> Result<String, SyntaxError> {
            let start = index
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return .success(String(decoding: out, as: UTF8.self))
                }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < bytes.count else { break }
                }
                out.append(bytes[index])
                index += 1
            }
            return .failure(SyntaxError(offset: start, reason: "unterminated quoted string"))
        }

        while true {
            skipSpace()
            if index >= bytes.count { break }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let nameOffset = index
            guard let name = token() else {
                return .failure(SyntaxError(offset: index, reason: "expected an extension name"))
            }
            var item = WebSocketExtensionItem(name: name, parameters: [], offset: nameOffset)
            skipSpace()
            while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
                index += 1
                skipSpace()
                let parameterOffset = index
                guard let parameterName = token() else {
                    return .failure(SyntaxError(offset: index, reason: "expected a parameter name"))
                }
                skipSpace()
                var parameterValue: String?
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        let valueOffset = index
                        switch quoted() {
                        case .success(let text):
                            // RFC 6455 §9.1: the unquoted value must still be a token.
                            guard !text.isEmpty, text.utf8.allSatisfy(isTokenChar) else {
                                return .failure(SyntaxError(offset: valueOffset, reason: "quoted value is not a token"))
                            }
                            parameterValue = text
                        case .failure(let error): return .failure(error)
                        }
                    } else {
                        guard let text = token() else {
                            return .failure(SyntaxError(offset: index, reason: "expected a parameter value"))
                        }
                        parameterValue = text
                    }
                    skipSpace()
                }
                item.parameters.append(.init(name: parameterName, value: parameterValue, offset: parameterOffset))
            }
            items.append(item)
            skipSpace()
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: ",") else {
                    return .failure(SyntaxError(offset: index, reason: "expected ',' or ';'"))
                }
                index += 1
            }
        }
        return .success(items)
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
