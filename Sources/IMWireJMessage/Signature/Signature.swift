import Crypto
import IMWireCore

/// The c_init signature (jmessage.md §3):
/// `md5("appkey={appkey}&timestamp={timestamp}&random_str={random_str}&key={master secret}")`
/// as 32 lowercase hex digits, valid for 10 minutes.
public enum JMessageSignature {
    public static func message(appkey: String, timestamp: String, randomString: String, secret: String) -> String {
        "appkey=\(appkey)&timestamp=\(timestamp)&random_str=\(randomString)&key=\(secret)"
    }

    public static func sign(appkey: String, timestamp: String, randomString: String, secret: String) -> String {
        let text = message(appkey: appkey, timestamp: timestamp, randomString: randomString, secret: secret)
        return Hex.encode(Insecure.MD5.hash(data: Array(text.utf8)))
    }

    public static func isMD5Hex(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Findings for a c_init payload: the signature's form always, its value when `secret` is given.
    public static func check(_ payload: JSONObject, secret: String?, at offset: Int?) -> [Finding] {
        guard let signature = payload["signature"]?.stringValue else { return [] }
        var findings: [Finding] = []
        if !isMD5Hex(signature) {
            // A credential: its value stays out of the message (the redacted payload holds it;
            // --show-secrets shows it).
            findings.append(
                JMessageRules.signatureFormat.finding(
                    "the signature (\(signature.count) characters) is not 32 lowercase hex digits", at: offset))
        }
        guard let secret, let appkey = payload["appkey"]?.stringValue, let random = payload["random_str"]?.stringValue,
            let timestamp = payload["timestamp"].flatMap(text)
        else { return findings }
        let expected = sign(appkey: appkey, timestamp: timestamp, randomString: random, secret: secret)
        if signature.lowercased() != expected {
            // Neither value in the message: the signature is a credential, the expected one a keyed hash of the secret.
            findings.append(
                JMessageRules.signatureInvalid.finding(
                    """
                    the signature is not the MD5 the given secret makes \
                    over appkey, timestamp \(timestamp) and random_str
                    """, at: offset))
        }
        return findings
    }

    /// How JavaScript string concatenation writes the timestamp.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.literal
        default: nil
        }
    }
}
