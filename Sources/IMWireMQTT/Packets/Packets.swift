/// One MQTT 3.1 / 3.1.1 control packet as a value. Strings are the decoded UTF-8 text; binary
/// fields (password, will message, PUBLISH payload) stay bytes.
public enum MQTTPacket: Sendable, Hashable {
    case connect(MQTTConnect)
    case connack(MQTTConnack)
    case publish(MQTTPublish)
    case puback(packetID: UInt16)
    case pubrec(packetID: UInt16)
    case pubrel(packetID: UInt16, dup: Bool = false)
    case pubcomp(packetID: UInt16)
    case subscribe(MQTTSubscribe)
    case suback(MQTTSuback)
    case unsubscribe(MQTTUnsubscribe)
    case unsuback(packetID: UInt16)
    case pingreq
    case pingresp
    case disconnect

    public var type: MQTTPacketType {
        switch self {
        case .connect: .connect
        case .connack: .connack
        case .publish: .publish
        case .puback: .puback
        case .pubrec: .pubrec
        case .pubrel: .pubrel
        case .pubcomp: .pubcomp
        case .subscribe: .subscribe
        case .suback: .suback
        case .unsubscribe: .unsubscribe
        case .unsuback: .unsuback
        case .pingreq: .pingreq
        case .pingresp: .pingresp
        case .disconnect: .disconnect
        }
    }

    /// The packet identifier, for the packets that carry one.
    public var packetID: UInt16? {
        switch self {
        case .publish(let publish): publish.packetID
        case .puback(let id), .pubrec(let id), .pubrel(let id, _), .pubcomp(let id), .unsuback(let id): id
        case .subscribe(let subscribe): subscribe.packetID
        case .suback(let suback): suback.packetID
        case .unsubscribe(let unsubscribe): unsubscribe.packetID
        case .connect, .connack, .pingreq, .pingresp, .disconnect: nil
        }
    }

    /// A one-line summary: `PUBLISH q1 id=7 y2w/session/p2p_1 (42 B)`.
    public var summary: String {
        switch self {
        case .connect(let connect):
            return "CONNECT \(connect.protocolName)/\(connect.protocolLevel) client=\(connect.clientID)"
        case .connack(let connack):
            return "CONNACK rc=\(connack.returnCode)\(connack.sessionPresent ? " sp" : "")"
        case .publish(let publish):
            let id = publish.packetID.map { " id=\($0)" } ?? ""
            return "PUBLISH q\(publish.qos.rawValue)\(id) \(publish.topic) (\(publish.payload.count) B)"
        case .subscribe(let subscribe):
            return """
                SUBSCRIBE id=\(subscribe.packetID) \
                \(subscribe.subscriptions.map(\.topicFilter).joined(separator: ","))
                """
        case .suback(let suback):
            return "SUBACK id=\(suback.packetID) \(suback.returnCodes.map(String.init).joined(separator: ","))"
        case .unsubscribe(let unsubscribe):
            return "UNSUBSCRIBE id=\(unsubscribe.packetID) \(unsubscribe.topicFilters.joined(separator: ","))"
        default:
            return packetID.map { "\(type.name) id=\($0)" } ?? type.name
        }
    }
}

/// CONNECT (MQTT 3.1.1 §3.1, MQTT 3.1 §3.1).
public struct MQTTConnect: Sendable, Hashable {
    /// The will message of a CONNECT.
    public struct Will: Sendable, Hashable {
        public var topic: String
        public var message: [UInt8]
        public var qos: MQTTQoS
        public var retain: Bool

        public init(topic: String, message: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
            self.topic = topic
            self.message = message
            self.qos = qos
            self.retain = retain
        }
    }

    /// `MQTT` (3.1.1) or `MQIsdp` (3.1), as sent.
    public var protocolName: String
    /// 4 (3.1.1) or 3 (3.1), as sent.
    public var protocolLevel: UInt8
    public var cleanSession: Bool
    /// Seconds; 0 turns the keep-alive off.
    public var keepAlive: UInt16
    public var clientID: String
    public var will: Will?
    public var username: String?
    public var password: [UInt8]?

    public init(
        version: MQTTVersion = .v3_1_1, cleanSession: Bool = true, keepAlive: UInt16, clientID: String,
        will: Will? = nil, username: String? = nil, password: [UInt8]? = nil
    ) {
        self.init(
            protocolName: version.protocolName, protocolLevel: version.protocolLevel, cleanSession: cleanSession,
            keepAlive: keepAlive, clientID: clientID, will: will, username: username, password: password)
    }

    public init(
        protocolName: String, protocolLevel: UInt8, cleanSession: Bool, keepAlive: UInt16, clientID: String,
        will: Will?, username: String?, password: [UInt8]?
    ) {
        self.protocolName = protocolName
        self.protocolLevel = protocolLevel
        self.cleanSession = cleanSession
        self.keepAlive = keepAlive
        self.clientID = clientID
        self.will = will
        self.username = username
        self.password = password
    }

    /// The version the protocol level names (nil for levels IMWire does not speak).
    public var version: MQTTVersion? { MQTTVersion(level: protocolLevel) }
}

/// CONNACK. In 3.1 the first byte is unused; in 3.1.1 its bit 0 is Session Present.
public struct MQTTConnack: Sendable, Hashable {
    public var sessionPresent: Bool
    /// 0 accepted, 1–5 standard refusals; vendors (yun2win) give other values their own meanings.
    public var returnCode: UInt8

    public init(sessionPresent: Bool = false, returnCode: UInt8) {
        self.sessionPresent = sessionPresent
        self.returnCode = returnCode
    }
}

/// PUBLISH.
public struct MQTTPublish: Sendable, Hashable {
    public var dup: Bool
    public var qos: MQTTQoS
    public var retain: Bool
    public var topic: String
    /// Present exactly when QoS > 0.
    public var packetID: UInt16?
    public var payload: [UInt8]

    public init(
        dup: Bool = false, qos: MQTTQoS = .atMostOnce, retain: Bool = false, topic: String,
        packetID: UInt16? = nil, payload: [UInt8]
    ) {
        self.dup = dup
        self.qos = qos
        self.retain = retain
        self.topic = topic
        self.packetID = packetID
        self.payload = payload
    }
}

/// SUBSCRIBE: topic filters with their requested QoS.
public struct MQTTSubscribe: Sendable, Hashable {
    /// One topic filter of a SUBSCRIBE with the QoS asked for.
    public struct Subscription: Sendable, Hashable {
        public var topicFilter: String
        public var qos: MQTTQoS
        public init(topicFilter: String, qos: MQTTQoS) {
            self.topicFilter = topicFilter
            self.qos = qos
        }
    }

    public var packetID: UInt16
    public var subscriptions: [Subscription]
    /// 3.1 allows DUP on a re-sent SUBSCRIBE.
    public var dup: Bool

    public init(packetID: UInt16, subscriptions: [Subscription], dup: Bool = false) {
        self.packetID = packetID
        self.subscriptions = subscriptions
        self.dup = dup
    }
}

/// SUBACK: one return code per subscription (granted QoS 0–2, or 0x80 failure in 3.1.1).
public struct MQTTSuback: Sendable, Hashable {
    public var packetID: UInt16
    public var returnCodes: [UInt8]

    public init(packetID: UInt16, returnCodes: [UInt8]) {
        self.packetID = packetID
        self.returnCodes = returnCodes
    }
}

/// UNSUBSCRIBE.
public struct MQTTUnsubscribe: Sendable, Hashable {
    public var packetID: UInt16
    public var topicFilters: [String]
    /// 3.1 allows DUP on a re-sent UNSUBSCRIBE.
    public var dup: Bool

    public init(packetID: UInt16, topicFilters: [String], dup: Bool = false) {
        self.packetID = packetID
        self.topicFilters = topicFilters
        self.dup = dup
    }
}

// The password logs the client in: formatted (`print`, interpolation, `String(reflecting:)`,
// `dump`), a CONNECT shows every field but it, which appears as its length only (and so does a
// packet or a decoded packet holding the CONNECT).
extension MQTTConnect: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Every field as the default description writes it, the password as its length:
    /// `MQTTConnect(protocolName: "MQTT", …, username: Optional("alice"), password: 12 bytes)`.
    public var description: String {
        """
        MQTTConnect(protocolName: \(String(reflecting: protocolName)), protocolLevel: \(protocolLevel), \
        cleanSession: \(cleanSession), keepAlive: \(keepAlive), clientID: \(String(reflecting: clientID)), will: \
        \(String(reflecting: will)), username: \(String(reflecting: username)), password: \(passwordLength ?? "nil"))
        """
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "protocolName": protocolName, "protocolLevel": protocolLevel, "cleanSession": cleanSession,
                "keepAlive": keepAlive,
                "clientID": clientID, "will": will as Any, "username": username as Any,
                "password": passwordLength as Any,
            ], displayStyle: .struct)
    }

    private var passwordLength: String? { password.map { "\($0.count) bytes" } }
}
