import IMWireCore
import IMWireSocketIO

/// JMessage Web messages and their canonical JSON: one WebSocket message (or polled packet) is
/// `{"engineio": …, "socketio": …, "jmessage": …}`.
public struct JMessageCanonicalCodec: CanonicalCodec {
    public var limits: Limits

    public init(limits: Limits = .default) { self.limits = limits }

    /// `input.binary`: the bytes are a binary frame (an attachment), else a text message.
    public func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        let message = JMessageCodec.decode(bytes, binaryFrame: input.binary, direction: input.direction, limits: limits)
        let decoded: JSONValue? = message.engineIO.engineIO == nil ? .none : .some(JMessageCanonicalJSON.encode(message))
        var envelope = JSONObject()
        envelope.append("decoded", decoded ?? .null)
        envelope.append("summary", .string(message.summary))
        envelope.append("findings", .array(message.findings.map { $0.json() }))
        return CanonicalDecoding(parts: [.init(decoded: decoded, findings: message.findings)], envelope: .object(envelope))
    }

    /// `{"engineio": …, "socketio": …}` as `decode` prints it (its `jmessage` part is what the
    /// packets mean and is not needed to write them).
    public func encode(_ json: JSONValue) throws(CanonicalCodecError) -> CanonicalEncoded {
        guard let engineIO = json["engineio"] else { throw CanonicalCodecError("an engineio packet is required") }
        do {
            var packet = try SocketIOCanonicalJSON.decodeEngineIO(engineIO)
            if let socketIO = json["socketio"], !socketIO.isNull {
                packet.payload = .text(try SocketIOCanonicalJSON.decodeSocketIO(socketIO).encoded)
            }
            let encoded = packet.encoded
            return CanonicalEncoded(bytes: encoded.bytes, binary: encoded.binaryFrame)
        } catch {
            throw CanonicalCodecError("\(error)")
        }
    }
}
