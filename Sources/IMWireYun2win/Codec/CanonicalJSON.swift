import IMWireCore
import IMWireMQTT

/// The canonical JSON of a decoded yun2win packet, for `imwire decode` and the fixtures:
/// `{"mqtt": <MQTT canonical packet>, "yun2win": <what it means to yun2win, or null>}`.
public enum Yun2winCanonicalJSON {
    public static func encode(_ decoded: Yun2winDecodedPacket) -> JSONValue {
        [
            "mqtt": decoded.packet.map(MQTTCanonicalJSON.encode) ?? .null,
            "yun2win": decoded.message.map(encode) ?? .null,
        ]
    }

    public static func encode(_ message: Yun2winMessage) -> JSONValue {
        var object = JSONObject()
        switch message {
        case .connect(let connect):
            object.append("kind", "connect")
            object.append("uid", connect.uid.map(JSONValue.string) ?? .null)
            object.append("token", connect.token.map(JSONValue.string) ?? .null)
            if let parsed = connect.parsedClientID {
                object.append(
                    "clientId",
                    [
                        "reconnect": .bool(parsed.isReconnect), "platform": .string(parsed.platform.rawValue),
                        "uuid": .string(parsed.uuid),
                    ])
            } else {
                object.append("clientId", .null)
            }
            object.append("mqttVersion", connect.version.map { .string($0.rawValue) } ?? .null)
            object.append("keepAlive", .number(JSONNumber(Int(connect.keepAlive))))
        case .connack(let code):
            object.append("kind", "connack")
            object.append("returnCode", .number(JSONNumber(Int(code))))
            object.append("name", code == 0 ? "accepted" : name(Int64(code), Yun2winStatusCodes.connectionReturnCode))
        case .command(let command, let topic):
            object.append("kind", "command")
            object.append("topic", topicJSON(topic))
            object.append("command", command.json)
        case .server(let server, let topic):
            switch server {
            case .connectionReturn(let code):
                object.append("kind", "connection-return-code")
                object.append("returnCode", .number(JSONNumber(code)))
                object.append("name", name(code, Yun2winStatusCodes.connectionReturnCode))
            case .sendAck(let ack):
                object.append("kind", "send-ack")
                object.append("y2wMessageId", .string(ack.y2wMessageID))
                object.append("returnCode", .number(JSONNumber(ack.returnCode)))
                object.append("name", name(ack.returnCode, Yun2winStatusCodes.sendReturnCode))
                if let mts = ack.mts { object.append("mts", .number(mts)) }
            case .relayedMessage(let relayed):
                object.append("kind", "relayed-message")
                object.append("command", Yun2winCommand.sendMessage(relayed).json)
            case .data(let value):
                object.append("kind", "data")
                object.append("value", value)
            }
            object.append("topic", .string(topic))
        }
        return .object(object)
    }

    private static func name(_ code: Int64, _ table: [StatusCode]) -> JSONValue {
        table.first { $0.number == code }.map { .string($0.name) } ?? .null
    }

    private static func topicJSON(_ topic: Yun2winTopic) -> JSONValue {
        switch topic {
        case .session(let id):
            var object: JSONObject = JSONObject(
                [("kind", "session"), ("sessionId", .string(id))].map { JSONObject.Member(key: $0.0, value: $0.1) })
            if let parts = topic.sessionParts {
                object.append("sessionType", .string(parts.type))
                object.append("businessId", .string(parts.id))
            }
            return .object(object)
        case .single(let suffix):
            return ["kind": "single", "suffix": .string(suffix)]
        case .other(let name):
            return ["kind": "other", "name": .string(name)]
        }
    }
}
