/// The 4-bit control packet type of the fixed header (MQTT 3.1.1 §2.2.1). 0 and 15 are reserved.
public enum MQTTPacketType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case connect = 1
    case connack = 2
    case publish = 3
    case puback = 4
    case pubrec = 5
    case pubrel = 6
    case pubcomp = 7
    case subscribe = 8
    case suback = 9
    case unsubscribe = 10
    case unsuback = 11
    case pingreq = 12
    case pingresp = 13
    case disconnect = 14

    /// Upper-case name as the specs write it (`PUBREL`).
    public var name: String {
        switch self {
        case .connect: "CONNECT"
        case .connack: "CONNACK"
        case .publish: "PUBLISH"
        case .puback: "PUBACK"
        case .pubrec: "PUBREC"
        case .pubrel: "PUBREL"
        case .pubcomp: "PUBCOMP"
        case .subscribe: "SUBSCRIBE"
        case .suback: "SUBACK"
        case .unsubscribe: "UNSUBSCRIBE"
        case .unsuback: "UNSUBACK"
        case .pingreq: "PINGREQ"
        case .pingresp: "PINGRESP"
        case .disconnect: "DISCONNECT"
        }
    }

    public var description: String { name }

    package init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The fixed-header flags every packet but PUBLISH must carry: 0010 for PUBREL, SUBSCRIBE and
    /// UNSUBSCRIBE (QoS 1 in 3.1 terms), 0000 for the rest [MQTT-2.2.2-1]. Nil for PUBLISH.
    package var requiredFlags: UInt8? {
        switch self {
        case .publish: nil
        case .pubrel, .subscribe, .unsubscribe: 0b0010
        default: 0
        }
    }

    /// Which side sends this packet: true for client → server, false for server → client, nil for both.
    package var sentByClient: Bool? {
        switch self {
        case .connect, .subscribe, .unsubscribe, .pingreq, .disconnect: true
        case .connack, .suback, .unsuback, .pingresp: false
        case .publish, .puback, .pubrec, .pubrel, .pubcomp: nil
        }
    }

    /// Remaining length of the packets whose body has a fixed size.
    var fixedBodyLength: Int? {
        switch self {
        case .connack, .puback, .pubrec, .pubrel, .pubcomp, .unsuback: 2
        case .pingreq, .pingresp, .disconnect: 0
        default: nil
        }
    }
}

/// A PUBLISH or will QoS level.
public enum MQTTQoS: UInt8, Sendable, Hashable, CaseIterable, Comparable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2

    public static func < (lhs: MQTTQoS, rhs: MQTTQoS) -> Bool { lhs.rawValue < rhs.rawValue }
}
