import IMWireCore

/// The canonical JSON form of a packet, used by `imwire decode`, the fixtures and the Python
/// cross-check: `type` (upper-case name), lowerCamelCase fields (Spec/canonical-json.md), optional ones
/// only when present, `dup` on PUBREL/SUBSCRIBE/UNSUBSCRIBE only when set. Binary fields (PUBLISH payload, will
/// message, password) are text when they are well-formed UTF-8 (`payload`) and hex otherwise
/// (`payloadHex`), so each packet has exactly one form.
package enum MQTTCanonicalJSON {
    package static func encode(_ packet: MQTTPacket) -> JSONValue {
        var object = JSONObject()
        object.append("type", .string(packet.type.name))
        switch packet {
        case .connect(let connect):
            object.append("protocolName", .string(connect.protocolName))
            object.append("protocolLevel", .number(JSONNumber(Int(connect.protocolLevel))))
            object.append("cleanSession", .bool(connect.cleanSession))
            object.append("keepAlive", .number(JSONNumber(Int(connect.keepAlive))))
            object.append("clientId", .string(connect.clientID))
            if let will = connect.will {
                var willObject = JSONObject()
                willObject.append("topic", .string(will.topic))
                appendBytes(will.message, key: "message", to: &willObject)
                willObject.append("qos", .number(JSONNumber(Int(will.qos.rawValue))))
                willObject.append("retain", .bool(will.retain))
                object.append("will", .object(willObject))
            }
            if let username = connect.username { object.append("username", .string(username)) }
            if let password = connect.password { appendBytes(password, key: "password", to: &object) }
        case .connack(let connack):
            object.append("sessionPresent", .bool(connack.sessionPresent))
            object.append("returnCode", .number(JSONNumber(Int(connack.returnCode))))
        case .publish(let publish):
            object.append("dup", .bool(publish.dup))
            object.append("qos", .number(JSONNumber(Int(publish.qos.rawValue))))
            object.append("retain", .bool(publish.retain))
            object.append("topic", .string(publish.topic))
            if let id = publish.packetID { object.append("packetId", .number(JSONNumber(Int(id)))) }
            appendBytes(publish.payload, key: "payload", to: &object)
        case .puback(let id), .pubrec(let id), .pubcomp(let id), .unsuback(let id):
            object.append("packetId", .number(JSONNumber(Int(id))))
        case .pubrel(let id, let dup):
            object.append("packetId", .number(JSONNumber(Int(id))))
            if dup { object.append("dup", true) }
        case .subscribe(let subscribe):
            object.append("packetId", .number(JSONNumber(Int(subscribe.packetID))))
            object.append(
                "subscriptions",
                .array(
                    subscribe.subscriptions.map { subscription in
                        [
                            "topicFilter": .string(subscription.topicFilter),
                            "qos": .number(JSONNumber(Int(subscription.qos.rawValue))),
                        ]
                    }))
            if subscribe.dup { object.append("dup", true) }
        case .suback(let suback):
            object.append("packetId", .number(JSONNumber(Int(suback.packetID))))
            object.append("returnCodes", .array(suback.returnCodes.map { .number(JSONNumber(Int($0))) }))
        case .unsubscribe(let unsubscribe):
            object.append("packetId", .number(JSONNumber(Int(unsubscribe.packetID))))
            object.append("topicFilters", .array(unsubscribe.topicFilters.map { .string($0) }))
            if unsubscribe.dup { object.append("dup", true) }
        case .pingreq, .pingresp, .disconnect:
            break
        }
        return .object(object)
    }

    private static func appendBytes(_ bytes: [UInt8], key: String, to object: inout JSONObject) {
        if UTF8Validator.firstInvalidOffset(bytes) == nil {
            object.append(key, .string(String(decoding: bytes, as: UTF8.self)))
        } else {
            object.append(key + "Hex", .string(Hex.encode(bytes)))
        }
    }

    /// The packet a canonical JSON object describes.
    package static func decode(_ json: JSONValue) throws(IMWireError) -> MQTTPacket {
        guard let object = json.objectValue else { throw IMWireError(.canonicalJSON, "a packet must be a JSON object") }
        guard let name = object["type"]?.stringValue, let type = MQTTPacketType(name: name) else {
            throw IMWireError(.canonicalJSON, "type must be a packet type name such as \"PUBLISH\"")
        }
        switch type {
        case .connect:
            var will: MQTTConnect.Will?
            if let willObject = object["will"]?.objectValue {
                will = MQTTConnect.Will(
                    topic: try string(willObject, "topic"), message: try bytes(willObject, "message"),
                    qos: try qos(willObject, "qos"), retain: willObject["retain"]?.boolValue ?? false)
            }
            let password: [UInt8]? =
                object["password"] != nil || object["passwordHex"] != nil ? try bytes(object, "password") : nil
            return .connect(
                MQTTConnect(
                    protocolName: try string(object, "protocolName"),
                    protocolLevel: try integer(object, "protocolLevel", max: 255),
                    cleanSession: object["cleanSession"]?.boolValue ?? false,
                    keepAlive: try integer(object, "keepAlive", max: 65535),
                    clientID: try string(object, "clientId"), will: will, username: object["username"]?.stringValue,
                    password: password))
        case .connack:
            return .connack(
                MQTTConnack(
                    sessionPresent: object["sessionPresent"]?.boolValue ?? false,
                    returnCode: try integer(object, "returnCode", max: 255)))
        case .publish:
            let level = try qos(object, "qos")
            let id: UInt16? = object["packetId"] == nil ? nil : try integer(object, "packetId", max: 65535)
            return .publish(
                MQTTPublish(
                    dup: object["dup"]?.boolValue ?? false, qos: level,
                    retain: object["retain"]?.boolValue ?? false, topic: try string(object, "topic"),
                    packetID: id, payload: try bytes(object, "payload")))
        case .puback: return .puback(packetID: try integer(object, "packetId", max: 65535))
        case .pubrec: return .pubrec(packetID: try integer(object, "packetId", max: 65535))
        case .pubrel:
            return .pubrel(
                packetID: try integer(object, "packetId", max: 65535), dup: object["dup"]?.boolValue ?? false)
        case .pubcomp: return .pubcomp(packetID: try integer(object, "packetId", max: 65535))
        case .unsuback: return .unsuback(packetID: try integer(object, "packetId", max: 65535))
        case .subscribe:
            guard let items = object["subscriptions"]?.arrayValue else {
                throw IMWireError(.canonicalJSON, "subscriptions must be an array")
            }
            var subscriptions: [MQTTSubscribe.Subscription] = []
            for item in items {
                guard let entry = item.objectValue else {
                    throw IMWireError(.canonicalJSON, "a subscription must be an object")
                }
                subscriptions.append(.init(topicFilter: try string(entry, "topicFilter"), qos: try qos(entry, "qos")))
            }
            return .subscribe(
                MQTTSubscribe(
                    packetID: try integer(object, "packetId", max: 65535), subscriptions: subscriptions,
                    dup: object["dup"]?.boolValue ?? false))
        case .suback:
            guard let items = object["returnCodes"]?.arrayValue else {
                throw IMWireError(.canonicalJSON, "return_codes must be an array")
            }
            var codes: [UInt8] = []
            for item in items {
                guard let code = item.int64Value.flatMap(UInt8.init(exactly:)) else {
                    throw IMWireError(.canonicalJSON, "return_codes holds bytes (0-255)")
                }
                codes.append(code)
            }
            return .suback(MQTTSuback(packetID: try integer(object, "packetId", max: 65535), returnCodes: codes))
        case .unsubscribe:
            guard let items = object["topicFilters"]?.arrayValue else {
                throw IMWireError(.canonicalJSON, "topic_filters must be an array")
            }
            var filters: [String] = []
            for item in items {
                guard let filter = item.stringValue else {
                    throw IMWireError(.canonicalJSON, "topic_filters holds strings")
                }
                filters.append(filter)
            }
            return .unsubscribe(
                MQTTUnsubscribe(
                    packetID: try integer(object, "packetId", max: 65535), topicFilters: filters,
                    dup: object["dup"]?.boolValue ?? false))
        case .pingreq: return .pingreq
        case .pingresp: return .pingresp
        case .disconnect: return .disconnect
        }
    }

    private static func string(_ object: JSONObject, _ key: String) throws(IMWireError) -> String {
        guard let value = object[key]?.stringValue else { throw IMWireError(.canonicalJSON, "\(key) must be a string") }
        return value
    }

    private static func integer<T: FixedWidthInteger>(_ object: JSONObject, _ key: String, max: Int64)
        throws(IMWireError) -> T
    {
        guard let value = object[key]?.int64Value, value >= 0, value <= max, let typed = T(exactly: value) else {
            throw IMWireError(.canonicalJSON, "\(key) must be an integer from 0 to \(max)")
        }
        return typed
    }

    private static func qos(_ object: JSONObject, _ key: String) throws(IMWireError) -> MQTTQoS {
        guard let value: UInt8 = try? integer(object, key, max: 2), let level = MQTTQoS(rawValue: value) else {
            throw IMWireError(.canonicalJSON, "\(key) must be 0, 1 or 2")
        }
        return level
    }

    /// `key` as text, or `keyHex` as hex.
    private static func bytes(_ object: JSONObject, _ key: String) throws(IMWireError) -> [UInt8] {
        if let text = object[key]?.stringValue { return Array(text.utf8) }
        guard let hex = object[key + "Hex"]?.stringValue else {
            throw IMWireError(.canonicalJSON, "\(key) or \(key)Hex is required")
        }
        do { return try Hex.decode(hex) } catch { throw IMWireError(.canonicalJSON, "\(key)Hex: \(error)") }
    }
}
