import IMWireCore

/// The testee protocol's framing (`Spec/conformance.md`): each request and response is a 4-byte
/// little-endian length followed by that many bytes of UTF-8 JSON.
public enum TesteeProtocol {
    /// The protocol version requests carry in `protocol`.
    public static let version = 1
    /// The longest message either side accepts (a longer length prefix is garbage).
    public static let maxMessageSize = 64 << 20

    /// A JSON value as one framed message.
    public static func frame(_ value: JSONValue) -> [UInt8] {
        var body: [UInt8] = []
        JSONWriter.write(value, into: &body)
        return frame(body)
    }

    /// Bytes as one framed message.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        let count = UInt32(truncatingIfNeeded: body.count)
        return [UInt8(count & 0xff), UInt8(count >> 8 & 0xff), UInt8(count >> 16 & 0xff), UInt8(count >> 24)] + body
    }
}

/// Collects bytes from a stream and hands out complete framed messages.
public struct TesteeFrameReader: Sendable {
    private var buffer: [UInt8] = []

    /// A reader with nothing buffered.
    public init() {}

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// Bytes buffered that are not yet a complete message.
    public var pending: Int { buffer.count }

    /// The next complete message's body, or nil when more bytes are needed; a length prefix
    /// over `TesteeProtocol.maxMessageSize` throws `testeeOversized`.
    public mutating func next() throws(IMWireError) -> [UInt8]? {
        guard buffer.count >= 4 else { return nil }
        let length = Int(buffer[0]) | Int(buffer[1]) << 8 | Int(buffer[2]) << 16 | Int(buffer[3]) << 24
        guard length <= TesteeProtocol.maxMessageSize else {
            throw IMWireError(
                .testeeOversized, "length prefix \(length) exceeds \(TesteeProtocol.maxMessageSize)", summary: nil,
                number: length)
        }
        guard buffer.count >= 4 + length else { return nil }
        let body = Array(buffer[4..<4 + length])
        buffer.removeFirst(4 + length)
        return body
    }
}

/// A testee's answer to one request.
public struct TesteeResponse: Sendable, Equatable {
    /// The `result` member.
    public enum Result: String, Sendable {
        case ok, rejected, skipped, unsupported, error
    }

    public var id: Int
    public var result: Result
    /// `value`: the canonical JSON of a decode.
    public var value: JSONValue?
    /// `hex` or `text`: the bytes of an encode.
    public var bytes: [UInt8]?
    /// A rejection's rule, in the testee's own words or IMWire's rule ID.
    public var rule: String?
    /// A rejection's byte offset in the input.
    public var offset: Int?
    public var message: String?

    /// A response; `value` for a decode, `bytes` for an encode, `rule` and `offset` for a rejection.
    public init(
        id: Int, result: Result, value: JSONValue? = nil, bytes: [UInt8]? = nil, rule: String? = nil,
        offset: Int? = nil, message: String? = nil
    ) {
        self.id = id
        self.result = result
        self.value = value
        self.bytes = bytes
        self.rule = rule
        self.offset = offset
        self.message = message
    }

    /// Parses a response's body; `text` bytes are its UTF-8. A response that does not follow the
    /// protocol throws `testeeResponse`.
    public static func parse(_ body: [UInt8]) throws(IMWireError) -> TesteeResponse {
        let root: JSONValue
        do { root = try JSONParser.parse(body) } catch { throw IMWireError(.testeeResponse, "not JSON: \(error)") }
        guard case .object(let object) = root else { throw IMWireError(.testeeResponse, "not a JSON object") }
        guard let id = object["id"]?.int64Value.flatMap({ Int(exactly: $0) }) else {
            throw IMWireError(.testeeResponse, "no integer id")
        }
        guard let name = object["result"]?.stringValue, let result = Result(rawValue: name) else {
            throw IMWireError(.testeeResponse, "result must be ok, rejected, skipped, unsupported or error")
        }
        var response = TesteeResponse(id: id, result: result)
        response.value = object["value"]
        if let hex = object["hex"]?.stringValue {
            do { response.bytes = try Hex.decode(hex) } catch { throw IMWireError(.testeeResponse, "hex: \(error)") }
        } else if let text = object["text"]?.stringValue {
            response.bytes = Array(text.utf8)
        }
        response.rule = object["rule"]?.stringValue
        response.offset = object["offset"]?.int64Value.flatMap { Int(exactly: $0) }
        response.message = object["message"]?.stringValue
        return response
    }

    /// The response as JSON (`text`: the bytes of an encode are given as text, else as hex).
    public func json(text: Bool = false) -> JSONValue {
        var object = JSONObject()
        object.append("id", .number(JSONNumber(id)))
        object.append("result", .string(result.rawValue))
        if let value { object.append("value", value) }
        if let bytes {
            if text {
                object.append("text", .string(String(decoding: bytes, as: UTF8.self)))
            } else {
                object.append("hex", .string(Hex.encode(bytes)))
            }
        }
        if let rule { object.append("rule", .string(rule)) }
        if let offset { object.append("offset", .number(JSONNumber(offset))) }
        if let message { object.append("message", .string(message)) }
        return .object(object)
    }
}

extension IMWireError {
    /// For a length prefix over `TesteeProtocol.maxMessageSize` (`testeeOversized`): the length
    /// it announced. Nil for other errors.
    public var announcedLength: Int? { code == .testeeOversized ? number : nil }
}

extension IMWireError.Code {
    /// A testee's message whose length prefix passes `TesteeProtocol.maxMessageSize`
    /// (`announcedLength`: the length).
    public static let testeeOversized = Self("testee.oversized")
    /// A testee's response that does not follow the protocol (`Spec/conformance.md`).
    public static let testeeResponse = Self("testee.response")
}
