import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireMQTT
import IMWireNIM
import IMWireSocketIO
import IMWireYun2win

/// The inverse of `imwire decode`: the canonical JSON a decoder prints, back to the bytes of one
/// frame or message. `imwire encode` and the round-trip tests use it.
public enum CanonicalEncoder {
    public struct EncodeError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The bytes of one wire unit, and whether it travels as a binary frame (LeanCloud protobuf,
    /// MQTT, an engine.io binary packet) or as text.
    public struct Encoded: Sendable, Equatable {
        public var bytes: [UInt8]
        public var binary: Bool
    }

    /// LeanCloud: a `GenericCommand` (or `{}`, the lc.json keep-alive) in the given encoding.
    public static func leanCloud(_ json: JSONValue, encoding: LeanCloudEncoding) throws(EncodeError) -> Encoded {
        if encoding == .json, json.objectValue?.isEmpty == true { return Encoded(bytes: Array("{}".utf8), binary: false) }
        let command: LCGenericCommand
        do { command = try CanonicalJSON.decode(json) } catch { throw EncodeError("\(error)") }
        return Encoded(bytes: LeanCloudCodec(encoding: encoding).encode(command), binary: encoding == .protobuf)
    }

    /// MQTT: one packet, as `decode --dialect mqtt` prints it, or as `decode --dialect yun2win`
    /// prints it (`{"mqtt": …, "yun2win": …}`: the `yun2win` part is what the packet means and is
    /// not needed to write it).
    public static func mqtt(_ json: JSONValue) throws(EncodeError) -> Encoded {
        let packet = json["mqtt"] ?? json
        do { return Encoded(bytes: MQTTPacketEncoder.encode(try MQTTCanonicalJSON.decode(packet)), binary: true) } catch {
            throw EncodeError("\(error)")
        }
    }

    /// NIM: the array `decode --dialect nim` prints (`[{"socketio", "nim"}]`, one item per
    /// socket.io packet of the message) or one of its items; a bare NIM packet (`{"kind", …}`);
    /// or bare socket.io 0.9 packets (`{"type", …}`, alone or as `{"packets": […]}`). An item's
    /// `nim` packet, when present, is what is written; otherwise its socket.io packet.
    public static func nim(_ json: JSONValue) throws(EncodeError) -> Encoded {
        let items = json["packets"]?.arrayValue ?? json.arrayValue ?? [json]
        guard !items.isEmpty else { throw EncodeError("no packet to encode") }
        var packets: [SocketIO09Packet] = []
        for item in items {
            do {
                if let nim = item["nim"], !nim.isNull {
                    packets.append(.message(JSONWriter.string(try NIMCanonicalJSON.decode(nim).json)))
                } else if let socketIO = item["socketio"] {
                    packets.append(try SocketIOCanonicalJSON.decode09(socketIO))
                } else if item["kind"] != nil {
                    packets.append(.message(JSONWriter.string(try NIMCanonicalJSON.decode(item).json)))
                } else {
                    packets.append(try SocketIOCanonicalJSON.decode09(item))
                }
            } catch {
                throw EncodeError("\(error)")
            }
        }
        return Encoded(bytes: Array(SocketIO09Payload.encode(packets).utf8), binary: false)
    }

    /// JMessage: `{"engineio": …, "socketio": …}` as `decode --dialect jmessage` prints it (its
    /// `jmessage` part is what the packets mean and is not needed to write them).
    public static func jmessage(_ json: JSONValue) throws(EncodeError) -> Encoded {
        guard let engineIO = json["engineio"] else { throw EncodeError("an engineio packet is required") }
        do {
            var packet = try SocketIOCanonicalJSON.decodeEngineIO(engineIO)
            if let socketIO = json["socketio"], !socketIO.isNull {
                packet.payload = .text(try SocketIOCanonicalJSON.decodeSocketIO(socketIO).encoded)
            }
            let encoded = packet.encoded
            return Encoded(bytes: encoded.bytes, binary: encoded.binaryFrame)
        } catch {
            throw EncodeError("\(error)")
        }
    }
}
