import IMWireCore

/// LeanCloud commands and their canonical JSON (the protobuf JSON mapping with proto field names,
/// `LeanCloudCanonicalJSON`), in one of the three encodings.
package struct LeanCloudCanonicalCodec: CanonicalCodec {
    package var encoding: LeanCloudEncoding
    package var limits: Limits

    package init(encoding: LeanCloudEncoding = .protobuf, limits: Limits = .default) {
        self.encoding = encoding
        self.limits = limits
    }

    package static let definition = CanonicalCodecDefinition(
        name: Dialect.leancloud.rawValue,
        options: [
            .oneOf(
                "encoding", LeanCloudEncoding.self, default: .protobuf,
                help:
                    "the encoding of its frames: binary protobuf, its base64 (lc.proto2base64), or flat JSON (lc.json)."
            )
        ],
        jsonForm: "a GenericCommand in the encoding given (or {}, the lc.json keep-alive).",
        unit: { $0["encoding", as: LeanCloudEncoding.self] == .protobuf ? .binaryFrame : .textFrame },
        make: { LeanCloudCanonicalCodec(encoding: $0["encoding", as: LeanCloudEncoding.self] ?? .protobuf) })

    /// One frame: the command, `{}` for the lc.json keep-alive; the envelope has its kind and summary.
    package func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        let codec = LeanCloudCodec(encoding: encoding, limits: limits)
        let decoded = codec.decodeValue(bytes, as: input)
        let json = codec.canonicalJSON(decoded)
        var envelope = JSONObject()
        envelope.append("kind", .string(decoded.kind == .heartbeat ? "heartbeat" : "command"))
        envelope.append("decoded", decoded.kind == .heartbeat ? .null : json ?? .null)
        envelope.append("summary", .string(decoded.summary))
        envelope.append("findings", .array(decoded.findings.map { $0.json() }))
        return CanonicalDecoding(parts: [.init(decoded: json, findings: decoded.findings)], envelope: .object(envelope))
    }

    /// A `GenericCommand` (or `{}`, the lc.json keep-alive) in this codec's encoding.
    package func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        if encoding == .json, json.objectValue?.isEmpty == true {
            return CanonicalEncoded(bytes: Array("{}".utf8), binary: false)
        }
        let command = try LeanCloudCanonicalJSON.decode(json)
        return CanonicalEncoded(
            bytes: LeanCloudCodec(encoding: encoding, limits: limits).encode(command), binary: encoding == .protobuf)
    }
}
