import Crypto
import IMWireCore

/// LeanCloud operation signatures (leancloud.md §6): hex(HMAC-SHA1(master key, message)), where
/// the message joins the fields with `:`. Placed on the wire as `s` (signature), `t`
/// (timestamp), `n` (nonce) in SessionCommand, ConvCommand and BlacklistCommand.
public enum LeanCloudSignature {
    /// What is being signed.
    public enum Action: Sendable, Hashable {
        /// `session/open`: `appid:clientid::timestamp:nonce`.
        case login(clientID: String)
        /// `conv/start`: `appid:clientid:sorted_member_ids:timestamp:nonce`.
        case startConversation(clientID: String, members: [String])
        /// `conv/add` (`invite`) and `conv/remove` (`kick`):
        /// `appid:clientid:convid:sorted_member_ids:timestamp:nonce:action`.
        case conversationMembers(clientID: String, conversationID: String, members: [String], action: String)
        /// `blacklist/block|unblock` of clients in a conversation, same shape, action
        /// `conversation-block-clients` / `conversation-unblock-clients`.
        case conversationBlacklist(clientID: String, conversationID: String, members: [String], action: String)
        /// A client blocking a conversation: `appid:clientid:convid::timestamp:nonce:action`
        /// (node demo; action names UNCONFIRMED).
        case clientBlocksConversation(clientID: String, conversationID: String, action: String)
    }

    /// Member ids sorted ascending by UTF-16 code units (JavaScript's `Array.prototype.sort`).
    static func sortedMembers(_ members: [String]) -> String {
        members.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }.joined(separator: ":")
    }

    /// The exact string that is signed.
    public static func message(appID: String, action: Action, timestamp: Int64, nonce: String) -> String {
        switch action {
        case .login(let client):
            return "\(appID):\(client)::\(timestamp):\(nonce)"
        case .startConversation(let client, let members):
            return "\(appID):\(client):\(sortedMembers(members)):\(timestamp):\(nonce)"
        case .conversationMembers(let client, let conv, let members, let action),
            .conversationBlacklist(let client, let conv, let members, let action):
            return "\(appID):\(client):\(conv):\(sortedMembers(members)):\(timestamp):\(nonce):\(action)"
        case .clientBlocksConversation(let client, let conv, let action):
            return "\(appID):\(client):\(conv)::\(timestamp):\(nonce):\(action)"
        }
    }

    /// Lowercase hex HMAC-SHA1 of `message` keyed by the master key (both UTF-8).
    public static func sign(_ message: String, masterKey: String) -> String {
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(message.utf8), using: SymmetricKey(data: Array(masterKey.utf8)))
        return Hex.encode(mac)
    }

    /// Timestamps below this are read as seconds since the epoch (until the year 5138).
    static let millisecondThreshold: Int64 = 100_000_000_000

    /// Checks `signature` for `action`. Case and timestamp unit are accepted either way (the sources
    /// disagree) and reported as findings; a wrong signature is an error.
    public static func verify(
        signature: String, appID: String, action: Action, timestamp: Int64, nonce: String,
        masterKey: String
    ) -> [Finding] {
        var findings: [Finding] = []
        let expected = sign(
            message(appID: appID, action: action, timestamp: timestamp, nonce: nonce), masterKey: masterKey)
        if signature.lowercased() != expected {
            findings.append(
                // Neither value in the message: the signature is a credential, the expected one a keyed
                // hash of the master key.
                LeanCloudRules.signatureMismatch.finding(
                    """
                    the signature is not the HMAC-SHA1 the master key makes of \
                    \"\(message(appID: appID, action: action, timestamp: timestamp, nonce: nonce))\"
                    """
                ))
            return findings
        }
        if signature != expected {
            findings.append(LeanCloudRules.signatureHexCase.finding("signature in uppercase hex"))
        }
        if timestamp < millisecondThreshold {
            findings.append(LeanCloudRules.signatureTimestampUnit.finding("timestamp \(timestamp) is in seconds"))
        }
        return findings
    }

    /// The action and signature fields a command carries, if it is a signed operation.
    public static func signedAction(of command: LCGenericCommand, clientID: String) -> (
        action: Action, s: String, t: Int64, n: String
    )? {
        switch (command.cmd, command.hasOp ? command.op : nil) {
        case (.session, .open?) where command.sessionMessage.hasS:
            let m = command.sessionMessage
            return (.login(clientID: clientID), m.s, m.t, m.n)
        case (.conv, .start?) where command.convMessage.hasS:
            let m = command.convMessage
            return (.startConversation(clientID: clientID, members: m.m), m.s, m.t, m.n)
        case (.conv, let op?) where (op == .add || op == .remove) && command.convMessage.hasS:
            let m = command.convMessage
            let action = op == .add ? "invite" : "kick"
            return (
                .conversationMembers(clientID: clientID, conversationID: m.cid, members: m.m, action: action), m.s, m.t,
                m.n
            )
        case (.blacklist, let op?) where (op == .block || op == .unblock) && command.blacklistMessage.hasS:
            let m = command.blacklistMessage
            if m.hasSrcCid {
                let action = op == .block ? "conversation-block-clients" : "conversation-unblock-clients"
                return (
                    .conversationBlacklist(
                        clientID: clientID, conversationID: m.srcCid, members: m.toPids, action: action), m.s, m.t, m.n
                )
            }
            let action = op == .block ? "client-block-conversations" : "client-unblock-conversations"
            return (
                .clientBlocksConversation(
                    clientID: clientID, conversationID: m.toCids.joined(separator: ":"), action: action), m.s, m.t, m.n
            )
        default:
            return nil
        }
    }
}
