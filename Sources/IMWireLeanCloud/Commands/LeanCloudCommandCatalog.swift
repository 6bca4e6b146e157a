import IMWireCore

/// What a command is for, from the point of view of the side that sends it.
public enum LeanCloudRole: String, Sendable, Hashable {
    /// Expects a reply carrying the same `i`.
    case request
    /// Answers a request; carries its `i`.
    case response
    /// Sent by the server unprompted; carries no `i`.
    case push
    /// Sent by the client without expecting a reply (client `ack`, `read`); carries no `i`.
    case fireAndForget = "fire-and-forget"
}

/// A `cmd` with its optional `op`, the key of the command catalogue.
public struct LeanCloudCommandKey: Sendable, Hashable, CustomStringConvertible {
    public let cmd: LCCommandType
    public let op: LCOpType?

    public init(_ cmd: LCCommandType, _ op: LCOpType? = nil) {
        self.cmd = cmd
        self.op = op
    }

    public var description: String {
        let cmdName = LeanCloudNames.name(of: cmd)
        guard let op else { return cmdName }
        return "\(cmdName)/\(LeanCloudNames.name(of: op))"
    }
}

/// The sub-messages of `GenericCommand` (fields 100–117).
public enum LeanCloudSubMessage: Int32, Sendable, Hashable, CaseIterable {
    case loginMessage = 100
    case dataMessage, sessionMessage, errorMessage, directMessage, ackMessage,
        unreadMessage, readMessage, rcpMessage, logsMessage, convMessage, roomMessage, presenceMessage,
        reportMessage, patchMessage, pubsubMessage, blacklistMessage, loggedinMessage

    /// The field name in GenericCommand (also the canonical JSON key).
    public var fieldName: String { "\(self)" }

    /// The sub-message a `cmd` carries, if any.
    public static func expected(for cmd: LCCommandType) -> LeanCloudSubMessage? {
        switch cmd {
        case .session: .sessionMessage
        case .conv: .convMessage
        case .direct: .directMessage
        case .ack: .ackMessage
        case .rcp: .rcpMessage
        case .unread: .unreadMessage
        case .logs: .logsMessage
        case .error: .errorMessage
        case .login: .loginMessage
        case .data: .dataMessage
        case .room: .roomMessage
        case .read: .readMessage
        case .presence: .presenceMessage
        case .report: .reportMessage
        case .loggedin: .loggedinMessage
        case .patch: .patchMessage
        case .pubsub: .pubsubMessage
        case .blacklist: .blacklistMessage
        case .echo, .logout, .loggedout, .goaway: nil
        }
    }

    /// The sub-messages set on `command`, in field order.
    public static func present(in command: LCGenericCommand) -> [LeanCloudSubMessage] {
        var present: [LeanCloudSubMessage] = []
        if command.hasLoginMessage { present.append(.loginMessage) }
        if command.hasDataMessage { present.append(.dataMessage) }
        if command.hasSessionMessage { present.append(.sessionMessage) }
        if command.hasErrorMessage { present.append(.errorMessage) }
        if command.hasDirectMessage { present.append(.directMessage) }
        if command.hasAckMessage { present.append(.ackMessage) }
        if command.hasUnreadMessage { present.append(.unreadMessage) }
        if command.hasReadMessage { present.append(.readMessage) }
        if command.hasRcpMessage { present.append(.rcpMessage) }
        if command.hasLogsMessage { present.append(.logsMessage) }
        if command.hasConvMessage { present.append(.convMessage) }
        if command.hasRoomMessage { present.append(.roomMessage) }
        if command.hasPresenceMessage { present.append(.presenceMessage) }
        if command.hasReportMessage { present.append(.reportMessage) }
        if command.hasPatchMessage { present.append(.patchMessage) }
        if command.hasPubsubMessage { present.append(.pubsubMessage) }
        if command.hasBlacklistMessage { present.append(.blacklistMessage) }
        if command.hasLoggedinMessage { present.append(.loggedinMessage) }
        return present
    }
}

/// One row of the command catalogue: who sends a cmd/op, in which role, and what answers it.
/// A class, so a lookup on every decoded frame costs a reference, not a copy of the row.
public final class LeanCloudCommandSpec: Sendable {
    public let key: LeanCloudCommandKey
    /// Role when the client sends it; nil if clients never do.
    public let clientRole: LeanCloudRole?
    /// Roles the server may send it in; empty if servers never do.
    public let serverRoles: [LeanCloudRole]
    /// Usual answers to the request (an `error` command always may answer too).
    public let answers: [LeanCloudCommandKey]
    public let confidence: Confidence
    public let summary: String
    public let source: String

    init(
        _ cmd: LCCommandType, _ op: LCOpType? = nil, client: LeanCloudRole? = nil, server: [LeanCloudRole] = [],
        answers: [LeanCloudCommandKey] = [], _ confidence: Confidence, _ summary: String, _ source: String
    ) {
        key = LeanCloudCommandKey(cmd, op)
        clientRole = client
        serverRoles = server
        self.answers = answers
        self.confidence = confidence
        self.summary = summary
        self.source = source
    }
}

/// Every cmd/op pair of the LeanCloud protocol and its role, from `leancloud.md` §4.2 and the
/// OpType sections. Response op names are INFERRED except session/opened and session/closed.
public enum LeanCloudCommandCatalog {
    public static func spec(for key: LeanCloudCommandKey) -> LeanCloudCommandSpec? { position(of: key).map { all[$0] } }

    /// Ops seen with `cmd` in the catalogue, in catalogue order.
    public static func ops(of cmd: LCCommandType) -> [LCOpType] { opsByCmd[cmd] ?? [] }

    /// Whether `op` is one of `cmd`'s ops in the catalogue.
    public static func isOp(_ op: LCOpType, of cmd: LCCommandType) -> Bool {
        position(of: LeanCloudCommandKey(cmd, op)) != nil
    }

    /// Whether `cmd` is used without an op.
    public static func takesNoOp(_ cmd: LCCommandType) -> Bool { position(of: LeanCloudCommandKey(cmd)) != nil }

    /// Where `key`'s row is in `all` (its first row).
    private static func position(of key: LeanCloudCommandKey) -> Int? {
        let row = index[key.cmd.rawValue * opSlots + (key.op?.rawValue ?? 0)]
        return row < 0 ? nil : Int(row)
    }

    /// Op raw values are from 1, so slot 0 of each cmd stands for no op.
    private static let opSlots = LCOpType.allCases.map(\.rawValue).max()! + 1
    /// `all`'s row for each (cmd, op), -1 for none: a flat table, because hashing a key for a
    /// dictionary lookup, several times for every checked command, showed in a capture check.
    private static let index: [Int16] = {
        var index = [Int16](repeating: -1, count: (LCCommandType.allCases.map(\.rawValue).max()! + 1) * opSlots)
        for (row, spec) in all.enumerated().reversed() {
            index[spec.key.cmd.rawValue * opSlots + (spec.key.op?.rawValue ?? 0)] = Int16(row)
        }
        return index
    }()
    private static let opsByCmd: [LCCommandType: [LCOpType]] = Dictionary(
        grouping: all.filter { $0.key.op != nil }, by: \.key.cmd
    )
    .mapValues { specs in specs.compactMap(\.key.op) }

    private static func k(_ cmd: LCCommandType, _ op: LCOpType? = nil) -> LeanCloudCommandKey {
        LeanCloudCommandKey(cmd, op)
    }

    public static let all: [LeanCloudCommandSpec] = session + conversation + blacklist + messaging + others

    private static let session: [LeanCloudCommandSpec] = [
        .init(
            .session, .open, client: .request, answers: [k(.session, .opened), k(.session, .closed)], .confirmed,
            "Open a session (log in); `r=true` marks an automatic re-open.",
            "swift IMClient.swift:1330-1378; js im-client.js:852-950"),
        .init(
            .session, .opened, server: [.response], .confirmed,
            "Session opened: session token `st` and its ttl `stTtl` (s).", "swift IMClient.swift:1545-1585"),
        .init(
            .session, .close, client: .request, answers: [k(.session, .closed)], .confirmed,
            "Close the session (log out).", "swift IMClient.swift:500-540"),
        .init(
            .session, .closed, server: [.response, .push], .confirmed,
            "Session closed; as a push with `code` 4111 (conflict) or 4115 (kicked).",
            "swift IMClient.swift:2493-2505; js im-client.js:160-190"),
        .init(
            .session, .query, client: .request, answers: [k(.session, .queryResult)], .confirmed,
            "Ask which of `sessionPeerIds` (1…20) are online.", "swift IMClient.swift:948-980"),
        .init(
            .session, .queryResult, server: [.response], .inferred,
            "Online peers in `onlineSessionPeerIds`.", "leancloud.md §4.2"),
        .init(
            .session, .refresh, client: .request, answers: [k(.session, .refreshed)], .confirmed,
            "Refresh the session token `st`.", "swift IMClient.swift refreshSessionToken"),
        .init(
            .session, .refreshed, server: [.response], .inferred,
            "New session token and ttl.", "leancloud.md §4.2"),
        .init(
            .session, .conflict, server: [.push], .inferred,
            "Session conflict (enum value; SDKs use session/closed 4111 instead).", "OpType session section"),
        .init(
            .session, .add, client: .request, answers: [k(.session, .added)], .inferred,
            "Add peers to the session (legacy).", "OpType session section"),
        .init(.session, .added, server: [.response], .inferred, "Peers added (legacy).", "OpType session section"),
        .init(
            .session, .remove, client: .request, answers: [k(.session, .removed)], .inferred,
            "Remove peers from the session (legacy).", "OpType session section"),
        .init(.session, .removed, server: [.response], .inferred, "Peers removed (legacy).", "OpType session section"),
    ]

    private static let conversation: [LeanCloudCommandSpec] = [
        .init(
            .conv, .start, client: .request, answers: [k(.conv, .started)], .confirmed,
            "Create a conversation with members `m` (unique, transient, temporary).", "swift IMClient.swift:692-730"),
        .init(
            .conv, .started, server: [.response], .inferred, "Conversation created: `cid`, `cdate`.",
            "leancloud.md §4.2"),
        .init(
            .conv, .add, client: .request, answers: [k(.conv, .added)], .confirmed,
            "Invite members `m` into `cid` (signature action `invite`).", "js persistent-conversation.js:360-400"),
        .init(
            .conv, .added, server: [.response], .inferred, "Members added: `allowedPids`, `failedPids`.",
            "leancloud.md §4.2"),
        .init(
            .conv, .remove, client: .request, answers: [k(.conv, .removed)], .confirmed,
            "Kick members `m` from `cid` (signature action `kick`); also quitting.",
            "js persistent-conversation.js:360-400"),
        .init(.conv, .removed, server: [.response], .inferred, "Members removed.", "leancloud.md §4.2"),
        .init(
            .conv, .query, client: .request, answers: [k(.conv, .results)], .confirmed,
            "Query conversations: `where`, `sort`, `limit`, `skip`, `flag`.",
            "swift IMConversationQuery.swift:365-440"),
        .init(
            .conv, .results, server: [.response], .inferred, "Query results as a JSON array in `results`.",
            "OpType comment results = 42"),
        .init(
            .conv, .count, client: .request, answers: [k(.conv, .result)], .inferred, "Count members.",
            "OpType conv section"),
        .init(.conv, .result, server: [.response], .inferred, "A count or membership result.", "OpType conv section"),
        .init(
            .conv, .update, client: .request, answers: [k(.conv, .updated)], .confirmed,
            "Update conversation attributes `attr` (e.g. rename).", "js conversation-base.js"),
        .init(
            .conv, .updated, server: [.response, .push], .confirmed,
            "Attributes updated; pushed to members with `attrModified`.", "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .mute, client: .request, answers: [k(.conv, .updated)], .inferred,
            "Mute offline notifications of `cid`.",
            "swift IMConversation.mute"),
        .init(
            .conv, .unmute, client: .request, answers: [k(.conv, .updated)], .inferred, "Unmute `cid`.",
            "swift IMConversation.unmute"),
        .init(
            .conv, .status, client: .request, server: [.response, .push], .inferred,
            "Conversation status subscription.", "OpType conv section"),
        .init(
            .conv, .members, client: .request, answers: [k(.conv, .result)], .inferred, "List members.",
            "OpType conv section"),
        .init(
            .conv, .maxRead, client: .request, server: [.response], answers: [k(.conv, .maxRead)], .confirmed,
            "Ask the max read/ack timestamps of `cid`.", "swift IMConversation.swift:1193-1225"),
        .init(
            .conv, .isMember, client: .request, answers: [k(.conv, .result)], .inferred, "Check membership.",
            "OpType conv section"),
        .init(
            .conv, .memberInfoUpdate, client: .request, answers: [k(.conv, .memberInfoUpdated)], .confirmed,
            "Change a member's role (`info`).", "swift IMConversation.swift"),
        .init(.conv, .memberInfoUpdated, server: [.response], .inferred, "Member info changed.", "OpType conv section"),
        .init(
            .conv, .memberInfoChanged, server: [.push], .confirmed, "A member's role changed.",
            "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .joined, server: [.push], .confirmed, "You were invited into `cid` by `initBy`.",
            "js test/conversation.js:340-500"),
        .init(
            .conv, .left, server: [.push], .confirmed, "You were removed from `cid` by `initBy`.",
            "js test/conversation.js:340-500"),
        .init(
            .conv, .membersJoined, server: [.push], .confirmed, "Members `m` joined `cid`.",
            "js test/conversation.js:340-500"),
        .init(
            .conv, .membersLeft, server: [.push], .confirmed, "Members `m` left `cid`.",
            "js test/conversation.js:340-500"),
        .init(.conv, .expire, server: [.push], .inferred, "A temporary conversation expired.", "OpType expire = 56"),
        .init(
            .conv, .blocked, server: [.push], .confirmed, "You were blocked in `cid`.",
            "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .unblocked, server: [.push], .confirmed, "You were unblocked in `cid`.",
            "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .membersBlocked, server: [.push], .confirmed, "Members blocked in `cid`.",
            "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .membersUnblocked, server: [.push], .confirmed, "Members unblocked in `cid`.",
            "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .addShutup, client: .request, answers: [k(.conv, .shutupAdded)], .confirmed, "Mute members `m`.",
            "js persistent-conversation.js"),
        .init(.conv, .shutupAdded, server: [.response], .inferred, "Members muted.", "OpType shutup section"),
        .init(
            .conv, .removeShutup, client: .request, answers: [k(.conv, .shutupRemoved)], .confirmed,
            "Unmute members `m`.",
            "js persistent-conversation.js"),
        .init(.conv, .shutupRemoved, server: [.response], .inferred, "Members unmuted.", "OpType shutup section"),
        .init(
            .conv, .queryShutup, client: .request, answers: [k(.conv, .shutupResult)], .confirmed,
            "List muted members (paged by `next`).",
            "js persistent-conversation.js"),
        .init(.conv, .shutupResult, server: [.response], .inferred, "Muted members.", "OpType shutup section"),
        .init(
            .conv, .checkShutup, client: .request, answers: [k(.conv, .checkResult)], .inferred,
            "Check whether a member is muted.",
            "OpType shutup section"),
        .init(.conv, .checkResult, server: [.response], .inferred, "Result of a check.", "OpType blacklist section"),
        .init(.conv, .shutuped, server: [.push], .confirmed, "You were muted.", "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .unshutuped, server: [.push], .confirmed, "You were unmuted.", "js im-client.js _dispatchConvMessage"
        ),
        .init(
            .conv, .membersShutuped, server: [.push], .confirmed, "Members muted.",
            "js im-client.js _dispatchConvMessage"),
        .init(
            .conv, .membersUnshutuped, server: [.push], .confirmed, "Members unmuted.",
            "js im-client.js _dispatchConvMessage"),
    ]

    private static let blacklist: [LeanCloudCommandSpec] = [
        .init(
            .blacklist, .block, client: .request, answers: [k(.blacklist, .blocked)], .confirmed,
            "Block clients `toPids` in `srcCid` (or conversations for a client).",
            "js persistent-conversation.js:496-560"),
        .init(
            .blacklist, .blocked, server: [.response], .inferred, "`allowedPids`, `failedPids`.", "leancloud.md §4.2"),
        .init(
            .blacklist, .unblock, client: .request, answers: [k(.blacklist, .unblocked)], .confirmed,
            "Unblock clients.", "js persistent-conversation.js:496-560"),
        .init(
            .blacklist, .unblocked, server: [.response], .inferred, "`allowedPids`, `failedPids`.",
            "leancloud.md §4.2"),
        .init(
            .blacklist, .query, client: .request, answers: [k(.blacklist, .queryResult)], .confirmed,
            "List blocked clients (paged by `limit`/`next`).", "js persistent-conversation.js:496-560"),
        .init(
            .blacklist, .queryResult, server: [.response], .inferred, "`blockedPids` and `next`.",
            "OpType blacklist comment"),
        .init(
            .blacklist, .checkBlock, client: .request, answers: [k(.blacklist, .checkResult)], .inferred,
            "Check blocking.",
            "OpType blacklist section"),
        .init(.blacklist, .checkResult, server: [.response], .inferred, "Check result.", "OpType blacklist section"),
    ]

    private static let messaging: [LeanCloudCommandSpec] = [
        .init(
            .direct, client: .request, server: [.push], answers: [k(.ack)], .confirmed,
            "Send a message (`msg` or `binaryMsg`) to `cid`; pushed to receivers without `i`.",
            "swift IMConversation.swift:700-780"),
        .init(
            .ack, client: .fireAndForget, server: [.response], .confirmed,
            """
            Server: the message was stored (`uid`, `t`). Client: \
            receipt of pushed messages (`mid` or `fromts`/`tots`).
            """,
            "swift IMClient.swift:1970-1990; js im-client.js:799-835"),
        .init(
            .rcp, server: [.push], .confirmed, "Delivery (`read=false`) or read (`read=true`) receipt.",
            "swift IMClient.swift process(rcpCommand:)"),
        .init(
            .read, client: .fireAndForget, .confirmed, "Mark conversations read (`convs`).",
            "swift IMConversation.swift:887-905"),
        .init(
            .unread, server: [.push], .confirmed, "Unread counts per conversation (`lc.*.3`), with `notifTime`.",
            "swift IMClient.swift:2049-2080"),
        .init(
            .logs, client: .request, server: [.response], answers: [k(.logs)], .confirmed,
            "History query (`t`, `mid`, `tt`, `limit` or `l`, `direction`); answered with `logs`.",
            "swift IMConversation.swift:1515-1560"),
        .init(
            .patch, .modify, client: .request, server: [.push], answers: [k(.patch, .modified)], .confirmed,
            "Edit or recall (`recall=true`) messages; pushed to receivers.", "swift IMConversation.swift:1030-1075"),
        .init(
            .patch, .modified, server: [.response], .inferred, "Edit accepted, `lastPatchTime`.", "leancloud.md §4.2"),
        .init(
            .error, server: [.response, .push], .confirmed,
            "Request failed (`code`, `reason`); without `i` a connection-level error.", "js connection.js:133-148"),
    ]

    private static let others: [LeanCloudCommandSpec] = [
        .init(
            .echo, client: .request, server: [.response], answers: [k(.echo)], .confirmed,
            "Keep-alive: JS every 180 s with `i`; C# without `i`.", "js connection.js:161-167; csharp LCRTMHeartBeat.cs"
        ),
        .init(
            .goaway, server: [.push], .confirmed, "Server asks the client to reconnect (clear the router cache).",
            "swift RTMConnection.swift handleGoaway"),
        .init(
            .report, .upload, client: .request, answers: [k(.report, .uploaded)], .confirmed,
            "Report the device token (`type=token`).", "swift IMClient.swift:1518-1530"),
        .init(.report, .uploaded, server: [.response], .inferred, "Report accepted.", "leancloud.md §4.2"),
        .init(
            .login, client: .request, answers: [k(.loggedin)], .confirmed, "LiveQuery login (`service=1`).",
            "js live-query-client.js"),
        .init(
            .loggedin, server: [.response], .confirmed, "LiveQuery logged in (`pushDisabled`).",
            "js live-query-client.js"),
        .init(
            .logout, client: .request, answers: [k(.loggedout)], .confirmed, "LiveQuery logout.",
            "js live-query-client.js"),
        .init(.loggedout, server: [.response], .confirmed, "LiveQuery logged out.", "js live-query-client.js"),
        .init(
            .data, server: [.push], .confirmed, "LiveQuery notifications (`ids`, `msg`).",
            "csharp LCLiveQuery.cs:127-170"),
        .init(
            .presence, server: [.push], .inferred, "Presence of `sessionPeerIds` (schema only).",
            "leancloud.md §12.9"),
        .init(
            .room, .join, client: .request, answers: [k(.room, .joined)], .inferred, "Join a room (legacy).",
            "OpType room section"),
        .init(.room, .joined, server: [.response, .push], .inferred, "Joined a room (legacy).", "OpType room section"),
        .init(
            .room, .leave, client: .request, answers: [k(.room, .left)], .inferred, "Leave a room (legacy).",
            "OpType room section"),
        .init(.room, .left, server: [.response, .push], .inferred, "Left a room (legacy).", "OpType room section"),
        .init(.room, .invite, client: .request, .inferred, "Invite into a room (legacy).", "OpType room section"),
        .init(.room, .kick, client: .request, .inferred, "Kick from a room (legacy).", "OpType room section"),
        .init(.room, .reject, client: .request, .inferred, "Reject a room invitation (legacy).", "OpType room section"),
        .init(.room, .invited, server: [.push], .inferred, "Invited into a room (legacy).", "OpType room section"),
        .init(.room, .kicked, server: [.push], .inferred, "Kicked from a room (legacy).", "OpType room section"),
        .init(
            .room, .membersJoined, server: [.push], .inferred, "Room members joined (legacy).", "OpType room section"),
        .init(.room, .membersLeft, server: [.push], .inferred, "Room members left (legacy).", "OpType room section"),
        .init(
            .pubsub, .subscribe, client: .request, answers: [k(.pubsub, .subscribed)], .inferred,
            "Subscribe to `topic`s.", "OpType pubsub section"),
        .init(.pubsub, .subscribed, server: [.response], .inferred, "Subscribed.", "OpType pubsub section"),
        .init(
            .pubsub, .unsubscribe, client: .request, answers: [k(.pubsub, .unsubscribed)], .inferred, "Unsubscribe.",
            "OpType pubsub section"),
        .init(.pubsub, .unsubscribed, server: [.response], .inferred, "Unsubscribed.", "OpType pubsub section"),
        .init(
            .pubsub, .isSubscribed, client: .request, server: [.response], .inferred, "Subscription check.",
            "OpType pubsub section"),
    ]
}
