import IMWireCore
import IMWireDialect
import IMWireReconnect

/// NetEase NIM's Web link as the checker registers it (`Dialects.standard.all`).
public enum NIMDialect {
    public static let definition = DialectDefinition(
        dialect: .nim, title: "NetEase YunXin (NIM) web link", specPage: "Spec/nim.md",
        rules: NIMRules.all, statusTables: NIMStatusCodes.tables, transportRuleFamilies: ["SIO", "HTTP"],
        policies: NIMPolicies.all, defaultPolicy: NIMPolicies.web,
        claimsFraming: { $0 == .socketIO09 },
        recognisesFirstMessage: recognises,
        makeConnection: { NIMConnection($0) },
        recognisesUnreadLogin: isUnreadLogin,
        relogin: ReloginRule(
            forbiddingEnding: { end in
                switch end {
                // silentlyKick (4): the Web SDK reconnects by itself (NIMWebCodes.kickReconnects).
                case .kicked(let reason) where !NIMWebCodes.kickReconnects(reason): "kicked (2_5 reason \(reason))"
                case .loginRejected(let code, _) where NIMWebCodes.endsLogin(code): "login failure \(code)"
                default: nil
                }
            },
            finding: { _, client, endedOn, why in
                NIMRules.autoRelogin.finding("account \(client) logs in again after \(why) on \(endedOn)")
            }),
        judgeFindingsReportedBy: [
            ReconnectRules.afterTerminal.id: [NIMRules.autoRelogin.id],
            ReconnectRules.afterTerminalSuspected.id: [NIMRules.autoRelogin.id],
            ReconnectRules.heartbeatMissing.id: [NIMRules.heartbeatLate.id],
        ],
        settings: [
            .seconds(
                "nim-timeout",
                help: "NIM: seconds a request may wait for its response (Web SDK cmdTimeout 8; heartbeats 5).",
                \NIMSessionOptions.requestTimeoutMicros),
            .seconds(
                "nim-heartbeat", help: "NIM: seconds between heartbeats 1_2 (Web SDK heartbeatInterval 30).",
                \NIMSessionOptions.heartbeatIntervalMicros),
        ],
        canonicalCodec: NIMCanonicalCodec.definition)

    /// A text message of socket.io 0.9 packets carrying a NIM request/response, or a `1::` connect,
    /// read without errors.
    static func recognises(_ message: WireMessage, limits: Limits) -> Bool {
        let bytes = message.payload
        guard message.frameType == .text, bytes.count > 1, let first = bytes.first,
            first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), bytes[1] == UInt8(ascii: ":")
        else { return false }
        let decoded = NIMCodec.decode(bytes, direction: message.direction, limits: limits)
        return decoded.findings.allSatisfy { $0.severity < .error }
            && decoded.items.contains { $0.nim != nil || $0.socketIO.type == .connect }
    }

    /// A message with no NIM packet decoded (every item of its canonical JSON has `nim` null)
    /// whose text names a login (`"SID":2` and `"CID":3`), or has a member a credential's name
    /// names.
    static func isUnreadLogin(_ message: WireMessage, json: JSONValue?) -> Bool {
        if (json?.arrayValue ?? []).contains(where: { $0["nim"].map { $0 != .null } ?? false }) { return false }
        let bytes = message.payload
        return
            (number(named: "SID", in: bytes) == NIMCommands.login.sid
            && number(named: "CID", in: bytes) == NIMCommands.login.cid)
            || CredentialFields.namesCredential(inText: bytes)
    }

    /// The digits after the first `"name":` in `bytes` (spaces allowed around the colon).
    private static func number(named name: String, in bytes: [UInt8]) -> Int64? {
        guard let range = bytes.firstRange(of: Array("\"\(name)\"".utf8)) else { return nil }
        var rest = bytes[range.upperBound...].drop { $0 == 0x20 }
        guard rest.first == UInt8(ascii: ":") else { return nil }
        rest = rest.dropFirst().drop { $0 == 0x20 }
        let digits = rest.prefix { (0x30...0x39).contains($0) }
        return digits.isEmpty || digits.count > 9 ? nil : Int64(String(decoding: digits, as: UTF8.self))
    }
}

extension NIMSessionOptions: DialectOptions {
    public static var defaults: Self { Self() }
}

extension Dialect {
    /// NetEase YunXin (NIM).
    public static let nim = Dialect("nim")
}
