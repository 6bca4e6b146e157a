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
    /// The form merge data has always had: the master key only as `(set)`.
    public var settingsDescription: String {
        let credentials = self.credentials.map { "Optional(IMWireLeanCloud.LeanCloudSessionOptions.\($0.rendered(masterKey: #""(set)""#)))" }
        return "LeanCloudSessionOptions(requestTimeoutMicros: \(requestTimeoutMicros), ackTimeoutMicros: \(ackTimeoutMicros), "
            + "maxCommandSize: \(maxCommandSize), credentials: \(credentials ?? "nil"))"
    }
}

// The master key signs for the whole app: formatted (`print`, interpolation,
// `String(reflecting:)`, `dump`), the credentials show its length only (and the options that
// hold them print them so).
extension LeanCloudSessionOptions.Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The app id, and the master key as its length: `Credentials(appID: Optional("app"), masterKey: 16 bytes)`.
    public var description: String { rendered(masterKey: "\(masterKey.utf8.count) bytes") }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["appID": appID as Any, "masterKey": "\(masterKey.utf8.count) bytes"], displayStyle: .struct)
    }

    /// Both stored properties, as the default description writes them, `masterKey` as given.
    func rendered(masterKey: String) -> String { "Credentials(appID: \(String(reflecting: appID)), masterKey: \(masterKey))" }
}
