import IMWireCore
import IMWireDialect
import IMWireReconnect

/// LeanCloud realtime as the checker registers it (`Dialects.all`). Its default policy is the
/// Swift/ObjC SDK's, whose early attempts go at once, so a capture of any SDK is not called a
/// storm for reconnecting quickly.
public enum LeanCloudDialect {
    public static let definition = DialectDefinition(
        dialect: .leancloud, title: "LeanCloud realtime", specPage: "Spec/leancloud.md",
        rules: LeanCloudRules.all, statusTables: LeanCloudStatusCodes.tables,
        policies: LeanCloudPolicies.all, defaultPolicy: LeanCloudPolicies.swift,
        claimsSubprotocol: { LeanCloudSubprotocol($0) != nil },
        recognisesFirstMessage: recognises,
        makeConnection: { LeanCloudConnection($0) })

    /// A connection that names nothing is LeanCloud when its first message is a clean command.
    static func recognises(_ message: WireMessage, limits: Limits) -> Bool {
        let encoding = LeanCloudConnection.encoding(implied: message)
        let decoded = LeanCloudCodec(encoding: encoding, limits: limits).decode(message.payload)
        return decoded.findings.allSatisfy { $0.severity == .info } && decoded.fields?.cmd != nil
    }
}

extension LeanCloudSessionOptions: DialectOptions {
    public static var defaults: Self { Self() }
    public var settingsDescription: String {
        var options = self
        options.credentials?.masterKey = "(set)"
        return String(describing: options)
    }
}
