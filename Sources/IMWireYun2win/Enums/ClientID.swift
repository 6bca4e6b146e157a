import IMWireMQTT

/// The client platforms of the first-party SDKs, with the digit they put in the client id and the
/// CONNECT parameters their MQTT libraries use (yun2win.md §3).
public enum Yun2winPlatform: String, Sendable, Hashable, CaseIterable {
    /// MQTT.js over WebSocket (`mqttv3.1` subprotocol), MQTT 3.1.1, keep-alive 300 s.
    case web
    /// FuseSource mqtt-client 1.7 over TCP 1883, MQTT 3.1 (`MQIsdp`), keep-alive 30 s.
    case android
    /// MQTT-Client-Framework over TCP 1883, MQTT 3.1.1, keep-alive 60 s.
    case ios

    public var digit: Character {
        switch self {
        case .web: "0"
        case .android: "1"
        case .ios: "2"
        }
    }

    public var mqttVersion: MQTTVersion { self == .android ? .v3_1 : .v3_1_1 }

    public var keepAlive: UInt16 {
        switch self {
        case .web: 300
        case .android: 30
        case .ios: 60
        }
    }

    init?(digit: Character) {
        guard let match = Self.allCases.first(where: { $0.digit == digit }) else { return nil }
        self = match
    }
}

/// A yun2win client id: `[0 first connect | 1 reconnect][platform digit]<uuid>` (INFERRED from
/// all three SDKs; the server's rejection of a bad one is CONNACK 2).
public struct Yun2winClientID: Sendable, Hashable {
    /// False for `0` (first connect), true for `1` (a reconnect after a successful connect).
    public var isReconnect: Bool
    public var platform: Yun2winPlatform
    /// The rest of the id: web and Android send a lowercase 8-4-4-4-12 hex uuid, iOS an uppercase one.
    public var uuid: String

    public init(isReconnect: Bool, platform: Yun2winPlatform, uuid: String) {
        self.isReconnect = isReconnect
        self.platform = platform
        self.uuid = uuid
    }

    /// The id as sent.
    public var text: String { "\(isReconnect ? "1" : "0")\(platform.digit)\(uuid)" }

    /// The prefix digits parsed; nil when they are not `[01][012]`.
    public static func parse(_ text: String) -> Yun2winClientID? {
        var characters = text.makeIterator()
        guard let first = characters.next(), first == "0" || first == "1", let second = characters.next(),
            let platform = Yun2winPlatform(digit: second)
        else { return nil }
        return Yun2winClientID(isReconnect: first == "1", platform: platform, uuid: String(text.dropFirst(2)))
    }

    /// True when `uuid` is 8-4-4-4-12 ASCII hex digits, either case.
    public var hasWellFormedUUID: Bool {
        // Byte by byte: every CONNECT is checked, and hex digits and dashes are ASCII.
        var count = 0
        for byte in uuid.utf8 {
            switch count {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte & 0xdf) else { return false }
            }
            count += 1
        }
        return count == 36
    }
}
