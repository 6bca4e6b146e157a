/// The members of a message's JSON that hold credentials, by name, and that JSON as the
/// messages' `description`s and mirrors show it: each credential as its length (issue 37: nothing
/// leaked). `SecretRedaction` (IMWireCheck) replaces the same members in what IMWire writes.
package enum CredentialFields {
    /// Keys (lowercased) whose string values are credentials: JMessage `password`, c_init's
    /// `signature` and update_user_pwd's `old_pwd` and `new_pwd`, NIM's login `token`, yun2win's
    /// and MQTT's `password` and `token` (`passwordHex` when the password is not UTF-8),
    /// LeanCloud's session token `st` and signature.
    package static let keys: Set<String> = [
        "password", "passwordhex", "pwd", "old_pwd", "new_pwd", "token", "imtoken", "signature", "secret", "st",
        "sessiontoken",
        "accesstoken",
    ]

    /// Whether `key` names a credential (in any case).
    package static func isCredential(_ key: String) -> Bool { keys.contains(key.lowercased()) }

    /// NIM's login request (`{"SID":2,"CID":3,…}`) holds its token and push token under tags
    /// 1000 and 11 of its Property, which no name says are credentials: in one, those keys are.
    static let nimLoginTags: Set<String> = ["1000", "11"]

    static func isNIMLogin(_ value: JSONValue) -> Bool {
        value["SID"]?.numberValue?.literal == "2" && value["CID"]?.numberValue?.literal == "3"
    }

    /// `isCredential`, and NIM's login tags when `value` is NIM's login.
    private static func credentialKeys(of value: JSONValue, _ isCredential: @escaping (String) -> Bool)
        -> (String) -> Bool
    {
        isNIMLogin(value) ? { nimLoginTags.contains($0) || isCredential($0) } : isCredential
    }

    /// Whether `value` holds a credential: a string under a credential key, at any depth, or it
    /// is NIM's login.
    package static func holdsCredential(_ value: JSONValue) -> Bool {
        if isNIMLogin(value) { return true }
        if let object = value.objectValue {
            return object.contains {
                (isCredential($0.key) && $0.value.stringValue != nil) || holdsCredential($0.value)
            }
        }
        return value.arrayValue?.contains(where: holdsCredential) ?? false
    }

    /// Whether `text` (a message's bytes, JSON that may not parse) has a member a credential's
    /// name names: a quoted key (in any case) followed by `:`. What recognises a login its
    /// dialect could not read.
    package static func namesCredential(inText text: [UInt8]) -> Bool {
        let lowered = text.map { (0x41...0x5a).contains($0) ? $0 | 0x20 : $0 }
        for key in keys {
            let quoted = Array("\"\(key)\"".utf8)
            var rest = lowered[...]
            while let range = rest.firstRange(of: quoted) {
                let after = rest[range.upperBound...].drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }
                if after.first == UInt8(ascii: ":") { return true }
                rest = rest[range.upperBound...]
            }
        }
        return false
    }

    /// What a credential is shown as: `32 bytes` (its UTF-8 length).
    package static func length(_ credential: String) -> String { "\(credential.utf8.count) bytes" }

    /// `value` with each credential replaced by its length as a string (`"32 bytes"`): what a
    /// mirror shows. `isCredential` names the keys (a dialect whose keys are tags passes its own).
    package static func lengths(
        in value: JSONValue, where isCredential: @escaping (String) -> Bool = isCredential
    ) -> JSONValue {
        marked(value, credentialKeys(of: value, isCredential)) { .string(length($0)) }
    }

    /// `value` as compact JSON text with each credential written as its length, unquoted
    /// (`{"username":"alice","password":32 bytes}`): what a description shows.
    package static func formatted(
        _ value: JSONValue, where isCredential: @escaping (String) -> Bool = isCredential
    ) -> String {
        var lengths: [String] = []
        let marked = marked(value, credentialKeys(of: value, isCredential)) { credential in
            lengths.append(length(credential))
            return .string(mark(lengths.count - 1))
        }
        var text = JSONWriter.string(marked)
        // JSONWriter writes U+0001 as \u0001.
        for (index, length) in lengths.enumerated() {
            text = text.replacing("\"" + mark(index).replacing("\u{1}", with: "\\u0001") + "\"", with: length)
        }
        return text
    }

    /// A string no message's JSON holds: what stands for the credential numbered `index` until
    /// the text is written.
    private static func mark(_ index: Int) -> String { "\u{1}imwire-credential-\(index)\u{1}" }

    private static func marked(
        _ value: JSONValue, _ isCredential: (String) -> Bool, _ replacement: (String) -> JSONValue
    ) -> JSONValue {
        if let object = value.objectValue {
            return .object(
                JSONObject(
                    object.map { member in
                        if isCredential(member.key), let text = member.value.stringValue {
                            return JSONObject.Member(key: member.key, value: replacement(text), offset: member.offset)
                        }
                        return JSONObject.Member(
                            key: member.key, value: marked(member.value, isCredential, replacement),
                            offset: member.offset)
                    }))
        }
        if let array = value.arrayValue { return .array(array.map { marked($0, isCredential, replacement) }) }
        return value
    }
}
