import IMWireCore
import IMWireDialect
import IMWireMQTT
import IMWireReconnect

/// yun2win push as the checker registers it (`Dialects.standard.all`). Its default policy is the Web
/// SDK's; a connection whose client id names its platform is judged against that platform's
/// (`Yun2winPolicies.policy(forClientIDPlatformDigit:)`).
public enum Yun2winDialect {
    public static let definition = DialectDefinition(
        dialect: .yun2win, title: "yun2win push", specPage: "Spec/yun2win.md",
        rules: Yun2winRules.all, statusTables: Yun2winStatusCodes.tables, transportRuleFamilies: ["MQTT"],
        policies: Yun2winPolicies.all, defaultPolicy: Yun2winPolicies.web,
        // yun2win's web client offers `mqttv3.1`; MQTT 3.1.1 §6 names `mqtt`.
        claimsSubprotocol: { $0.lowercased().hasPrefix("mqtt") }, namingSubprotocol: "mqtt",
        claimsFraming: { $0 == .mqtt },
        recognisesFirstMessage: recognises,
        makeConnection: { Yun2winConnection($0) },
        recognisesUnreadLogin: isUnreadLogin,
        relogin: ReloginRule(
            forbiddingEnding: { end in
                if case .kicked(10) = end { return "kick" }
                return nil
            },
            finding: { login, client, endedOn, _ in
                // A fresh login (client id prefix 0) shows the user logged in again.
                guard login.reconnectFlag == true else { return nil }
                return Yun2winRules.reconnectAfterKick.finding(
                    "uid \(client) was kicked (10) on \(endedOn) and reconnects automatically (client id prefix 1)")
            }),
        judgeFindingsReportedBy: [
            ReconnectRules.afterTerminal.id: [Yun2winRules.reconnectAfterKick.id],
            ReconnectRules.afterTerminalSuspected.id: [Yun2winRules.reconnectAfterKick.id],
            ReconnectRules.heartbeatMissing.id: [Yun2winRules.keepAliveExceeded.id],
        ],
        canonicalCodec: Yun2winCanonicalCodec.definition)

    /// An MQTT CONNECT read without errors is yun2win, the only MQTT dialect.
    static func recognises(_ message: WireMessage, limits: Limits) -> Bool {
        guard message.frameType == .binary, message.payload.first == 0x10 else { return false }
        let packets = MQTTStreamDecoder.decodeAll(message.payload, options: MQTTDecodeOptions(limits: limits))
        guard let first = packets.first, first.packet?.type == .connect else { return false }
        return first.findings.allSatisfy { $0.severity < .error }
    }

    /// An MQTT CONNECT (its first byte) that was not decoded as one: its canonical JSON has no
    /// packet of type CONNECT.
    static func isUnreadLogin(_ message: WireMessage, json: JSONValue?) -> Bool {
        guard let first = message.payload.first, first >> 4 == 1 else { return false }
        func holdsConnect(_ value: JSONValue) -> Bool {
            if let object = value.objectValue {
                return object["type"]?.stringValue == "CONNECT" || object.contains { holdsConnect($0.value) }
            }
            return value.arrayValue?.contains(where: holdsConnect) ?? false
        }
        return !(json.map(holdsConnect) ?? false)
    }
}

extension Yun2winSessionOptions: DialectOptions {
    public static var defaults: Self { Self() }
}

extension Dialect {
    /// yun2win push.
    public static let yun2win = Dialect("yun2win")
}
