import IMWireCore

/// Keeps the credentials that logins carry out of what IMWire writes (reports, `imwire show`,
/// the live `--messages` lines, shard reports), unless the user asks (`--show-secrets`,
/// `CheckOptions.showSecrets`): passwords, tokens, signatures and session tokens, wherever a
/// dialect's canonical JSON names them, and the same text wherever else it appears in that
/// message (a raw packet quoted in an outer layer, the payload's bytes).
public enum SecretRedaction {
    /// What a secret's value is replaced with in JSON.
    public static let mark = "(secret: --show-secrets shows it)"

    /// Keys (lowercased) whose string values are credentials (`CredentialFields.keys`, which
    /// the messages' descriptions hide too).
    static let secretKeys = CredentialFields.keys
    /// LeanCloud's signature is `s` in these commands' messages: session open, conversation
    /// start and members, room and blacklist changes (what `LeanCloudSignature` checks).
    static let signedMessages: Set<String> = ["sessionMessage", "convMessage", "roomMessage", "blacklistMessage"]
    /// A secret shorter than this (in bytes) is replaced where a key names it, not searched for
    /// in other text.
    static let searchedLength = 4

    /// `json` with every secret replaced by `mark`, and `payload` with every secret's bytes
    /// replaced by `*` (offsets stay as they were). When a secret long enough to be searched for
    /// is in the payload in none of the forms below, the payload holds it some other way (a
    /// LeanCloud `lc.proto2base64.*` frame is base64 text; a writer escaped it otherwise): then
    /// every byte of the payload is `*`, its length all that is shown.
    ///
    /// A secret is looked for as its text (UTF-8) and as JSON spells it inside a string
    /// (`jsonSpellings`: a raw packet's JSON text quoted in an outer layer, a JSON payload); a
    /// secret under a key ending in `Hex` (MQTT's `passwordHex`) as the bytes its hex stands for;
    /// a lossy decoding (yun2win's token from a password that is not UTF-8) as each of its runs
    /// between U+FFFD, whose bytes are not known.
    public static func redact(json: JSONValue?, payload: [UInt8]) -> (json: JSONValue?, payload: [UInt8]) {
        guard let json else { return (nil, payload) }
        var secrets: Set<String> = []
        var hexSecrets: Set<String> = []
        collect(json, parentKey: nil, into: &secrets, hex: &hexSecrets)
        guard !secrets.isEmpty else { return (json, payload) }
        let needles = needles(secrets, hex: hexSecrets)
        // Longest first: a secret that contains another is replaced whole.
        let texts = Set(needles.flatMap(\.texts)).sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }
        return (replace(json, secrets: secrets, texts: texts), mask(payload, needles))
    }

    /// What stands for a string of `count` bytes that quotes a login its dialect could not read.
    package static func withheld(_ count: Int) -> String {
        "(\(count) bytes of a login IMWire could not read: --show-secrets shows them)"
    }

    /// A message its dialect recognises as a login (or another message that carries a
    /// credential) but could not read (`DialectDefinition.recognisesUnreadLogin`): where the
    /// credential is in it is not known, so its payload is all `*` (only its length is shown) and
    /// every string of its JSON that quotes the payload (the raw text an outer layer read, a
    /// socket.io packet's data) is `withheld(count)`.
    package static func withhold(json: JSONValue?, payload: [UInt8]) -> (json: JSONValue?, payload: [UInt8]) {
        (json.map { withholding($0, quoting: payload) }, [UInt8](repeating: UInt8(ascii: "*"), count: payload.count))
    }

    /// `decoding` (`imwire decode`) of `payload`, a login its dialect could not read, with every
    /// string that quotes the payload `withheld(count)`, in the parts' JSON and the envelope.
    package static func withhold(_ decoding: CanonicalDecoding, payload: [UInt8]) -> CanonicalDecoding {
        var parts = decoding.parts
        for index in parts.indices {
            parts[index].decoded = parts[index].decoded.map { withholding($0, quoting: payload) }
        }
        return CanonicalDecoding(parts: parts, envelope: withholding(decoding.envelope, quoting: payload))
    }

    /// `value` with every string of at least `searchedLength` bytes that `payload` holds as it is
    /// `withheld(count)`.
    private static func withholding(_ value: JSONValue, quoting payload: [UInt8]) -> JSONValue {
        if let object = value.objectValue {
            return .object(
                JSONObject(
                    object.map {
                        JSONObject.Member(
                            key: $0.key, value: withholding($0.value, quoting: payload), offset: $0.offset)
                    }))
        }
        if let array = value.arrayValue { return .array(array.map { withholding($0, quoting: payload) }) }
        guard let text = value.stringValue, text.utf8.count >= searchedLength,
            payload.firstRange(of: Array(text.utf8)) != nil
        else { return value }
        return .string(withheld(text.utf8.count))
    }

    /// `decoding` (`imwire decode`) with the secrets every part's JSON names replaced by `mark`,
    /// in each part's JSON and wherever they appear in the envelope (its summaries too).
    public static func redact(_ decoding: CanonicalDecoding) -> CanonicalDecoding {
        var secrets: Set<String> = []
        var hexSecrets: Set<String> = []
        for json in decoding.parts.compactMap(\.decoded) {
            collect(json, parentKey: nil, into: &secrets, hex: &hexSecrets)
        }
        guard !secrets.isEmpty else { return decoding }
        let texts = Set(needles(secrets, hex: hexSecrets).flatMap(\.texts)).sorted {
            ($0.utf8.count, $0) > ($1.utf8.count, $1)
        }
        var parts = decoding.parts
        for index in parts.indices {
            parts[index].decoded = parts[index].decoded.map { replace($0, secrets: secrets, texts: texts) }
        }
        return CanonicalDecoding(parts: parts, envelope: replace(decoding.envelope, secrets: secrets, texts: texts))
    }

    /// One secret as it is searched for: the strings it may be in JSON strings as, and the byte
    /// strings it may be in the payload as.
    struct Needle: Hashable {
        var texts: [String]
        var bytes: [[UInt8]]
    }

    private static func collect(
        _ value: JSONValue, parentKey: String?, into secrets: inout Set<String>, hex: inout Set<String>
    ) {
        if let object = value.objectValue {
            for member in object {
                let key = member.key.lowercased()
                let named =
                    secretKeys.contains(key) || (member.key == "s" && parentKey.map(signedMessages.contains) == true)
                if named, let text = member.value.stringValue, !text.isEmpty {
                    secrets.insert(text)
                    if key.hasSuffix("hex") { hex.insert(text) }
                } else {
                    collect(member.value, parentKey: member.key, into: &secrets, hex: &hex)
                }
            }
        } else if let array = value.arrayValue {
            for item in array { collect(item, parentKey: parentKey, into: &secrets, hex: &hex) }
        }
    }

    /// The secrets long enough to be searched for, each as its needle.
    static func needles(_ secrets: Set<String>, hex: Set<String>) -> [Needle] {
        var needles: Set<Needle> = []
        for secret in secrets {
            if hex.contains(secret), let bytes = try? Hex.decode(secret) {
                if bytes.count >= searchedLength { needles.insert(Needle(texts: [secret], bytes: [bytes])) }
                continue
            }
            // A lossy decoding's runs between U+FFFD: the bytes each U+FFFD stands for are not known.
            for run in secret.split(separator: "\u{FFFD}") where run.utf8.count >= searchedLength {
                let texts = jsonSpellings(String(run))
                needles.insert(Needle(texts: texts, bytes: texts.map { Array($0.utf8) }))
            }
        }
        return Array(needles)
    }

    /// `text` and the ways JSON text may spell it inside a string: with the shortest escapes
    /// (`\"`, `\\`, `\n`…, other control characters as `\u00XX`), and as some writers do, with
    /// `/` as `\/` and everything outside ASCII as `\uXXXX` (UTF-16, hex in either case).
    static func jsonSpellings(_ text: String) -> [String] {
        var spellings = [text]
        for slash in [false, true] {
            // nil: non-ASCII as it is; false, true: as \uXXXX in lower, upper case hex.
            for upperCase in [nil, false, true] as [Bool?] {
                let spelled = escaped(text, slash: slash, upperCase: upperCase)
                if !spellings.contains(spelled) { spellings.append(spelled) }
            }
        }
        return spellings
    }

    private static func escaped(_ text: String, slash: Bool, upperCase: Bool?) -> String {
        func unicode(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16, uppercase: upperCase ?? false)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where slash: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20 || (scalar.value > 0x7f && upperCase != nil):
                for unit in String(scalar).utf16 { out += unicode(unit) }
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func replace(_ value: JSONValue, secrets: Set<String>, texts: [String]) -> JSONValue {
        if let object = value.objectValue {
            return .object(
                JSONObject(
                    object.map {
                        JSONObject.Member(key: $0.key, value: replace($0.value, secrets: secrets, texts: texts))
                    }))
        }
        if let array = value.arrayValue { return .array(array.map { replace($0, secrets: secrets, texts: texts) }) }
        guard let text = value.stringValue else { return value }
        if secrets.contains(text) { return .string(mark) }
        var redacted = text
        for secret in texts { redacted = redacted.replacing(secret, with: mark) }
        return .string(redacted)
    }

    private static func mask(_ payload: [UInt8], _ needles: [Needle]) -> [UInt8] {
        // The ranges are found in the payload as it came: a secret inside another is found too.
        var found: [Range<Int>] = []
        for needle in needles {
            let ranges = needle.bytes.flatMap { payload.ranges(of: $0) }
            // Not there as any of its forms: it is there in some other encoding, or may be.
            guard !ranges.isEmpty else { return [UInt8](repeating: UInt8(ascii: "*"), count: payload.count) }
            found += ranges
        }
        var bytes = payload
        for range in found { bytes.replaceSubrange(range, with: repeatElement(UInt8(ascii: "*"), count: range.count)) }
        return bytes
    }
}
