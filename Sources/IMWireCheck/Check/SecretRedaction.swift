import IMWireCore

/// Keeps the credentials that logins carry out of what IMWire writes (reports, `imwire show`,
/// the live `--messages` lines, shard reports), unless the user asks (`--show-secrets`,
/// `CheckOptions.showSecrets`): passwords, tokens, signatures and session tokens, wherever a
/// dialect's canonical JSON names them, and the same text wherever else it appears in that
/// message (a raw packet quoted in an outer layer, the payload's bytes).
public enum SecretRedaction {
    /// What a secret's value is replaced with in JSON.
    public static let mark = "(secret: --show-secrets shows it)"

    /// Keys (lowercased) whose string values are credentials: JMessage `password`, c_init's
    /// `signature` and update_user_pwd's `old_pwd` and `new_pwd`, NIM's login `token`, yun2win's
    /// and MQTT's `password` and `token`, LeanCloud's session token `st` and signature.
    static let secretKeys: Set<String> = [
        "password", "pwd", "old_pwd", "new_pwd", "token", "imtoken", "signature", "secret", "st", "sessiontoken", "accesstoken",
    ]
    /// LeanCloud's signature is `s` in these commands' messages: session open, conversation
    /// start and members, room and blacklist changes (what `LeanCloudSignature` checks).
    static let signedMessages: Set<String> = ["sessionMessage", "convMessage", "roomMessage", "blacklistMessage"]
    /// A secret shorter than this is replaced where a key names it, not searched for in other text.
    static let searchedLength = 4

    /// `json` with every secret replaced by `mark`, and `payload` with every secret's UTF-8 bytes
    /// replaced by `*` (offsets stay as they were).
    public static func redact(json: JSONValue?, payload: [UInt8]) -> (json: JSONValue?, payload: [UInt8]) {
        guard let json else { return (nil, payload) }
        var secrets: Set<String> = []
        collect(json, parentKey: nil, into: &secrets)
        guard !secrets.isEmpty else { return (json, payload) }
        // Longest first: a secret that contains another is replaced whole.
        let ordered = secrets.sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }
        return (replace(json, secrets: secrets, ordered: ordered), mask(payload, ordered))
    }

    private static func collect(_ value: JSONValue, parentKey: String?, into secrets: inout Set<String>) {
        if let object = value.objectValue {
            for member in object {
                let key = member.key
                let named = secretKeys.contains(key.lowercased()) || (key == "s" && parentKey.map(signedMessages.contains) == true)
                if named, let text = member.value.stringValue, !text.isEmpty {
                    secrets.insert(text)
                } else {
                    collect(member.value, parentKey: key, into: &secrets)
                }
            }
        } else if let array = value.arrayValue {
            for item in array { collect(item, parentKey: parentKey, into: &secrets) }
        }
    }

    private static func replace(_ value: JSONValue, secrets: Set<String>, ordered: [String]) -> JSONValue {
        if let object = value.objectValue {
            return .object(JSONObject(object.map { JSONObject.Member(key: $0.key, value: replace($0.value, secrets: secrets, ordered: ordered)) }))
        }
        if let array = value.arrayValue { return .array(array.map { replace($0, secrets: secrets, ordered: ordered) }) }
        guard let text = value.stringValue else { return value }
        if secrets.contains(text) { return .string(mark) }
        var redacted = text
        for secret in ordered where secret.utf8.count >= searchedLength {
            redacted = redacted.replacing(secret, with: mark)
        }
        return .string(redacted)
    }

    private static func mask(_ payload: [UInt8], _ ordered: [String]) -> [UInt8] {
        var bytes = payload
        for secret in ordered where secret.utf8.count >= searchedLength {
            // Same length: the ranges found stay valid as each is overwritten.
            for range in bytes.ranges(of: Array(secret.utf8)) {
                bytes.replaceSubrange(range, with: repeatElement(UInt8(ascii: "*"), count: range.count))
            }
        }
        return bytes
    }
}
