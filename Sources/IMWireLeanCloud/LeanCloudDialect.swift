import IMWireCore
import IMWireDialect
import IMWireReconnect

/// LeanCloud realtime as the checker registers it (`Dialects.standard.all`). Its default policy is the
/// Swift/ObjC SDK's, whose early attempts go at once, so a capture of any SDK is not called a
/// storm for reconnecting quickly.
public enum LeanCloudDialect {
    public static let definition = DialectDefinition(
        dialect: .leancloud, title: "LeanCloud realtime", specPage: "Spec/leancloud.md",
        rules: LeanCloudRules.all, statusTables: LeanCloudStatusCodes.tables,
        policies: LeanCloudPolicies.all, defaultPolicy: LeanCloudPolicies.swift,
        claimsSubprotocol: { LeanCloudSubprotocol($0) != nil },
        recognisesFirstMessage: recognises,
        makeConnection: { LeanCloudConnection($0) },
        recognisesUnreadLogin: isUnreadLogin, settings: settings, canonicalCodec: LeanCloudCanonicalCodec.definition)

    /// The app id comes after the master key: it only names the app the key's signatures are for.
    static let settings: [DialectSetting] = [
        .seconds(
            "timeout",
            help: "LeanCloud: seconds a request may wait for its reply (SDK defaults: Java 10, JS 20, Swift/ObjC 30).",
            \LeanCloudSessionOptions.requestTimeoutMicros),
        .seconds(
            "ack-timeout", help: "LeanCloud: seconds a received message may stay unacknowledged.",
            \LeanCloudSessionOptions.ackTimeoutMicros),
        .secret(
            "master-key",
            help: "LeanCloud master key: verify the signatures of session/open, conv/start|add|remove, blacklist."
        ) {
            (options: inout LeanCloudSessionOptions, key) in
            options.credentials = .init(appID: options.credentials?.appID, masterKey: key)
        },
        .secretFile(
            "master-key-file",
            help: "LeanCloud master key read from FILE (a trailing newline dropped), as --master-key but out of `ps`.",
            excludes: "master-key"
        ) {
            (options: inout LeanCloudSessionOptions, key) in
            options.credentials = .init(appID: options.credentials?.appID, masterKey: key)
        },
        DialectSetting(
            name: "app-id", valueName: "id",
            help: "LeanCloud app id for signature checks (default: the appId of session/open)."
        ) {
            id, options in
            options[LeanCloudSessionOptions.self].credentials?.appID = id
        },
    ]

    /// A connection that names nothing is LeanCloud when its first message is a clean command.
    static func recognises(_ message: WireMessage, limits: Limits) -> Bool {
        let encoding = LeanCloudConnection.encoding(implied: message)
        let decoded = LeanCloudCodec(encoding: encoding, limits: limits).decode(message.payload)
        return decoded.findings.allSatisfy { $0.severity == .info } && decoded.fields?.cmd != nil
    }

    /// The sub-messages whose commands carry a credential (`SecretRedaction`'s): a session's
    /// signature and session token, the signature of a conversation, room or blacklist change.
    static let credentialSubMessages: Set<LeanCloudSubMessage> = [
        .sessionMessage, .convMessage, .roomMessage, .blacklistMessage,
    ]

    /// A command that did not decode (no canonical JSON) which, as far as it reads, holds one of
    /// `credentialSubMessages` (protobuf, or base64 of it) or names its command (`"cmd":"session"`,
    /// lc.json) or a credential.
    static func isUnreadLogin(_ message: WireMessage, json: JSONValue?) -> Bool {
        guard json == nil else { return false }
        let bytes = message.payload
        switch LeanCloudConnection.encoding(implied: message) {
        case .protobuf:
            return holdsCredentialSubMessage(bytes)
        case .base64:
            // Whole quads only: a frame cut short still reads as far as it goes.
            let quads = bytes.prefix(bytes.count / 4 * 4).filter { $0 != 0x0a && $0 != 0x0d }
            return (try? Base64.decode(String(decoding: quads, as: UTF8.self))).map(holdsCredentialSubMessage) ?? false
        case .json:
            let commands = credentialSubMessages.map { String($0.fieldName.dropLast("Message".count)) }
            return commands.contains { command in
                [#""cmd":"\#(command)""#, #""cmd": "\#(command)""#].contains {
                    bytes.firstRange(of: Array($0.utf8)) != nil
                }
            } || CredentialFields.namesCredential(inText: bytes)
        }
    }

    /// Whether the top-level fields of `bytes`, read as far as they go, include one of
    /// `credentialSubMessages`.
    static func holdsCredentialSubMessage(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7f) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            return nil
        }
        while let key = varint() {
            if let field = LeanCloudSubMessage(rawValue: Int32(truncatingIfNeeded: key >> 3)), key & 7 == 2,
                credentialSubMessages.contains(field)
            {
                return true
            }
            switch key & 7 {
            case 0: guard varint() != nil else { return false }
            case 1: index += 8
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count) else { return false }
                index += Int(length)
            case 5: index += 4
            default: return false
            }
        }
        return false
    }
}

extension LeanCloudSessionOptions: DialectOptions {
    public static var defaults: Self { Self() }
    /// The form merge data has always had: the master key only as `(set)`.
    public var settingsDescription: String {
        let credentials = self.credentials.map {
            "Optional(IMWireLeanCloud.LeanCloudSessionOptions.\($0.rendered(masterKey: #""(set)""#)))"
        }
        return """
            LeanCloudSessionOptions(requestTimeoutMicros: \(requestTimeoutMicros), ackTimeoutMicros: \
            \(ackTimeoutMicros), maxCommandSize: \(maxCommandSize), credentials: \(credentials ?? "nil"))
            """
    }
}

// The master key signs for the whole app: formatted (`print`, interpolation,
// `String(reflecting:)`, `dump`), the credentials show its length only (and the options that
// hold them print them so).
extension LeanCloudSessionOptions.Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    /// The app id, and the master key as its length: `Credentials(appID: Optional("app"), masterKey: 16 bytes)`.
    public var description: String { rendered(masterKey: "\(masterKey.utf8.count) bytes") }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self, children: ["appID": appID as Any, "masterKey": "\(masterKey.utf8.count) bytes"], displayStyle: .struct
        )
    }

    /// Both stored properties, as the default description writes them, `masterKey` as given.
    func rendered(masterKey: String) -> String {
        "Credentials(appID: \(String(reflecting: appID)), masterKey: \(masterKey))"
    }
}

extension Dialect {
    /// LeanCloud realtime.
    public static let leancloud = Dialect("leancloud")
}
