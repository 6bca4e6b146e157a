/// The two MQTT versions IMWire speaks. They differ in the CONNECT protocol name and level and in a
/// few rules (client identifier length, the SUBACK failure code, the CONNACK session-present flag,
/// fixed-header flags that 3.1 calls "not used" and 3.1.1 makes a protocol error).
public enum MQTTVersion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// MQTT 3.1 (IBM/Eurotech spec): protocol name `MQIsdp`, level 3.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case v3_1 = "3.1"
    /// MQTT 3.1.1 (OASIS standard): protocol name `MQTT`, level 4.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case v3_1_1 = "3.1.1"

    public var protocolName: String { self == .v3_1 ? "MQIsdp" : "MQTT" }
    public var protocolLevel: UInt8 { self == .v3_1 ? 3 : 4 }
    public var description: String { rawValue }

    /// The version a CONNECT protocol level names, if it is one IMWire knows.
    public init?(level: UInt8) {
        switch level {
        case 3: self = .v3_1
        case 4: self = .v3_1_1
        default: return nil
        }
    }

    /// Spec reference prefix for rule messages.
    var specName: String { self == .v3_1 ? "MQTT 3.1" : "MQTT 3.1.1" }
}
