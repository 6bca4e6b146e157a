import IMWireCore

/// The three ways a LeanCloud command travels in a WebSocket message.
public enum LeanCloudEncoding: String, Sendable, Hashable, CaseIterable {
    /// `lc.protobuf2.*`: binary frames holding protobuf bytes.
    case protobuf
    /// `lc.proto2base64.*`: text frames holding base64 of the same bytes.
    case base64
    /// `lc.json.*`: text frames holding the flat JSON encoding.
    case json

    /// Whether messages in this encoding travel in text frames.
    public var isText: Bool { self != .protobuf }
}

/// Decodes and encodes LeanCloud commands in one encoding. Decoding never throws: damage is
/// reported as findings and the command is nil when nothing trustworthy could be built.
public struct LeanCloudCodec: WireCodec {
    public var encoding: LeanCloudEncoding
    public var limits: Limits

    public init(encoding: LeanCloudEncoding = .protobuf, limits: Limits = .default) {
        self.encoding = encoding
        self.limits = limits
    }

    /// One frame's payload as a command, whatever frame it came in (the encoding says how to read it).
    package func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> LeanCloudDecodedCommand { decode(bytes) }

    /// The lc.json keep-alive is `{}`; a command, its protobuf JSON mapping with proto field names.
    package func canonicalJSON(_ decoded: LeanCloudDecodedCommand) -> JSONValue? {
        decoded.kind == .heartbeat ? .object(JSONObject()) : decoded.command.map(LeanCloudCanonicalJSON.encode)
    }

    public func decode(_ payload: [UInt8]) -> LeanCloudDecodedCommand {
        switch encoding {
        case .protobuf:
            return LeanCloudBinary.decode(payload, limits: limits)
        case .base64:
            guard payload.count <= limits.maxFrameSize / 3 * 4 + 4 else {
                let finding = LeanCloudRules.frameTooLarge.finding("\(payload.count) base64 characters", at: 0)
                return LeanCloudDecodedCommand(command: nil, findings: [finding], wireSize: payload.count)
            }
            var text = payload
            let bytes: [UInt8]
            do {
                bytes = try Base64.decode(bytes: &text)
            } catch {
                let finding = LeanCloudRules.invalidBase64.finding(error.reason, at: error.offset)
                return LeanCloudDecodedCommand(command: nil, findings: [finding], wireSize: payload.count * 3 / 4)
            }
            return LeanCloudBinary.decode(bytes, limits: limits)
        case .json:
            return LeanCloudJSON.decode(payload, limits: limits)
        }
    }

    /// The payload bytes of `command` in this encoding (UTF-8 text for base64 and JSON).
    public func encode(_ command: LCGenericCommand) -> [UInt8] {
        switch encoding {
        case .protobuf: LeanCloudBinary.encode(command)
        case .base64: Array(Base64.encode(LeanCloudBinary.encode(command)).utf8)
        case .json: Array(LeanCloudJSON.encode(command).utf8)
        }
    }
}
