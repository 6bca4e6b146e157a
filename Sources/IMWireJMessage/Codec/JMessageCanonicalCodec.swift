import IMWireCore
import IMWireSocketIO

/// JMessage Web messages and their canonical JSON: one WebSocket message (or polled packet) is
/// `{"engineio": …, "socketio": …, "jmessage": …}`.
package struct JMessageCanonicalCodec: CanonicalCodec {
    package var limits: Limits
    /// The master secret `c_init` signatures are checked with; nil: they are not checked.
    package var secret: String?

    package init(limits: Limits = .default, secret: String? = nil) {
        self.limits = limits
        self.secret = secret
    }

    package static let definition = CanonicalCodecDefinition(
        name: Dialect.jmessage.rawValue,
        options: [
            CanonicalCodecOption(
                "secret", values: nil, decodingOnly: true,
                help: "the master secret c_init signatures are checked with (default: unchecked).")
        ],
        jsonForm: #"{"engineio": …, "socketio": …}."#, unit: { _ in .textFrame },
        make: { JMessageCanonicalCodec(secret: $0["secret"]) })

    /// `input.binary`: the bytes are a binary frame (an attachment), else a text message.
    package func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        JMessageCodec(limits: limits, secret: secret).canonicalFrame(bytes, as: input)
    }

    /// `{"engineio": …, "socketio": …}` as `decode` prints it (its `jmessage` part is what the
    /// packets mean and is not needed to write them).
    package func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        try EngineIOCanonicalCodec(limits: limits).encode(json)
    }
}
