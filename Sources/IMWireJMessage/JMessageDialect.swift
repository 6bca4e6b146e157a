import IMWireCore
import IMWireDialect
import IMWireReconnect

/// JPush JMessage's Web protocol as the checker registers it (`Dialects.standard.all`).
public enum JMessageDialect {
    public static let definition = DialectDefinition(
        dialect: .jmessage, title: "JPush JMessage web", specPage: "Spec/jmessage.md",
        rules: JMessageRules.all, statusTables: JMessageStatusCodes.tables,
        transportRuleFamilies: ["SIO", "EIO", "HTTP"],
        policies: JMessagePolicies.all, defaultPolicy: JMessagePolicies.web,
        claimsFraming: { $0 == .engineIO(version: 3) },
        recognisesFirstMessage: recognises,
        makeConnection: { JMessageConnection($0) },
        recognisesUnreadLogin: isUnreadLogin,
        settings: [
            .seconds(
                "jmessage-ack-timeout",
                help: "JMessage: seconds a request may wait for the server's ack (ACK_TIMEOUT 5).",
                \JMessageSessionOptions.ackTimeoutMicros),
            .seconds(
                "jmessage-response-timeout",
                help: "JMessage: seconds an acknowledged request may wait for its response (RESP_TIMEOUT 30).",
                \JMessageSessionOptions.responseTimeoutMicros),
            .secret("secret", help: "JMessage master secret: verify the MD5 signature of c_init.") {
                (options: inout JMessageSessionOptions, secret) in options.secret = secret
            },
            .secretFile(
                "secret-file",
                help:
                    "JMessage master secret read from FILE (a trailing newline dropped), as --secret but out of `ps`.",
                excludes: "secret"
            ) {
                (options: inout JMessageSessionOptions, secret) in options.secret = secret
            },
        ],
        canonicalCodec: JMessageCanonicalCodec.definition)

    /// Events that carry a credential: login (the password hash), c_init (the signature),
    /// update_user_pwd (the old and new hashes).
    static let credentialEvents = ["login", "c_init", "update_user_pwd"]

    /// A message whose event the decoder could not read (its canonical JSON has no `jmessage`)
    /// that names one of `credentialEvents` first in an array, or has a member a credential's
    /// name names (`password`, `signature`…).
    static func isUnreadLogin(_ message: WireMessage, json: JSONValue?) -> Bool {
        if let event = json?["jmessage"], event != .null { return false }
        let bytes = message.payload
        return credentialEvents.contains { bytes.firstRange(of: Array("[\"\($0)\"".utf8)) != nil }
            || CredentialFields.namesCredential(inText: bytes)
    }

    /// A text message that reads without errors as an engine.io open packet or a JMessage event.
    static func recognises(_ message: WireMessage, limits: Limits) -> Bool {
        let bytes = message.payload
        guard message.frameType == .text, let first = bytes.first, first >= UInt8(ascii: "0"),
            first <= UInt8(ascii: "9"),
            bytes.count < 2 || bytes[1] != UInt8(ascii: ":")
        else { return false }
        let decoded = JMessageCodec.decode(bytes, direction: message.direction, limits: limits)
        return decoded.findings.allSatisfy { $0.severity < .error }
            && (decoded.engineIO.engineIO?.handshake != nil || decoded.event?.spec != nil)
    }
}

extension JMessageSessionOptions: DialectOptions {
    public static var defaults: Self { Self() }
    /// The form merge data has always had: the secret only as `(set)`.
    public var settingsDescription: String { rendered(secret: secret == nil ? "nil" : #"Optional("(set)")"#) }
}

// The master secret signs every c_init of the app: formatted (`print`, interpolation,
// `String(reflecting:)`, `dump`), the options show its length only.
extension JMessageSessionOptions: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Every option, the secret as its length: `…, secret: 21 bytes)`.
    public var description: String { rendered(secret: secretLength ?? "nil") }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "ackTimeoutMicros": ackTimeoutMicros, "responseTimeoutMicros": responseTimeoutMicros,
                "resendLimit": resendLimit,
                "replyTimeoutMicros": replyTimeoutMicros, "secret": secretLength as Any,
            ], displayStyle: .struct)
    }

    private var secretLength: String? { secret.map { "\($0.utf8.count) bytes" } }

    /// Every stored property, as the default description writes them, `secret` as given.
    private func rendered(secret: String) -> String {
        """
        JMessageSessionOptions(ackTimeoutMicros: \(ackTimeoutMicros), responseTimeoutMicros: \(responseTimeoutMicros), \
        resendLimit: \(resendLimit), replyTimeoutMicros: \(replyTimeoutMicros), secret: \(secret))
        """
    }
}

extension Dialect {
    /// JPush JMessage.
    public static let jmessage = Dialect("jmessage")
}
