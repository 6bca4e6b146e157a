import IMWireCore
import IMWireDialect
import IMWireReconnect

/// JPush JMessage's Web protocol as the checker registers it (`Dialects.all`).
public enum JMessageDialect {
    public static let definition = DialectDefinition(
        dialect: .jmessage, title: "JPush JMessage web", specPage: "Spec/jmessage.md",
        rules: JMessageRules.all, statusTables: JMessageStatusCodes.tables, transportRuleFamilies: ["SIO", "EIO", "HTTP"],
        policies: JMessagePolicies.all, defaultPolicy: JMessagePolicies.web,
        claimsFraming: { $0 == .engineIO(version: 3) },
        recognisesFirstMessage: recognises,
        makeConnection: { JMessageConnection($0) })

    /// A text message that reads without errors as an engine.io open packet or a JMessage event.
    static func recognises(_ message: WireMessage, limits: Limits) -> Bool {
        let bytes = message.payload
        guard message.frameType == .text, let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
            bytes.count < 2 || bytes[1] != UInt8(ascii: ":")
        else { return false }
        let decoded = JMessageCodec.decode(bytes, direction: message.direction, limits: limits)
        return decoded.findings.allSatisfy { $0.severity < .error } && (decoded.engineIO.engineIO?.handshake != nil || decoded.event?.spec != nil)
    }
}

extension JMessageSessionOptions: DialectOptions {
    public static var defaults: Self { Self() }
    public var settingsDescription: String {
        var options = self
        options.secret = secret == nil ? nil : "(set)"
        return String(describing: options)
    }
}
