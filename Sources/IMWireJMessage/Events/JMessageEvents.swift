import IMWireCore

/// How an event travels (jmessage.md §3): a client request the server first acknowledges with
/// `ack {rid}` and then answers with the same event and a `code`; a client reply to a push
/// (acknowledged, not answered); a server push without `rid`; the server's `ack`.
public enum JMessageEventRole: String, Sendable, Hashable {
    case request
    case reply
    case push
    case ack
    /// A socket.io client event the SDK listens to; it never travels.
    case local
}

/// One event name of the JMessage Web protocol with its role, the payload fields the SDK
/// always sends, and from which SDK version it exists.
public struct JMessageEventSpec: Sendable, Hashable {
    public let name: String
    public let role: JMessageEventRole
    /// Fields the payload must carry (besides `rid`), as the SDK builds it.
    public let required: [String]
    /// "2.4.0" (the unminified SDK), "2.5.0", or "2.6.0 (UNCONFIRMED)".
    public let since: String
    public let summary: String
}

/// The complete event list (jmessage.md §3, 2.5.0 list plus the 2.6.0 additions), typed once;
/// `Spec/jmessage.md` is generated from it. Roles are from the 2.4.0 SDK's `Channel.onReceive`
/// (the six pushes it ignores for `rid`) and `MsgBuilder` (everything the client emits carries
/// a `rid`); that replies get only an `ack` is INFERRED (the SDK registers no callback).
/// Required fields are those the 2.4.0 SDK always sets or documents for the call; events whose
/// payload the sources do not show have none.
public enum JMessageEvents {
    private static func e(
        _ name: String, _ role: JMessageEventRole, _ required: [String] = [], since: String = "2.4.0",
        _ summary: String
    ) -> JMessageEventSpec {
        JMessageEventSpec(name: name, role: role, required: required, since: since, summary: summary)
    }

    public static func spec(_ name: String) -> JMessageEventSpec? { index[name] }

    static let index: [String: JMessageEventSpec] = Dictionary(
        all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// `s_across_single_text` is answered as `s_single_text` (the 2.4.0 SDK handles a response of
    /// that name as the send result; INFERRED).
    public static let responseAliases: [String: String] = ["s_single_text": "s_across_single_text"]

    /// The reply a push of sync data expects, and the field both carry.
    public static let syncAcks: [String: String] = [
        "sync_conversation": "sync_conversation_ack", "sync_event": "sync_event_ack",
        "sync_receipt": "sync_receipt_ack",
    ]

    public static let all: [JMessageEventSpec] = [
        e("ack", .ack, ["rid"], "Server: the request with this rid arrived (within 5 s, else the SDK re-emits)."),
        e(
            "c_init", .request, ["appkey", "random_str", "signature", "timestamp"],
            """
            Initialise: appkey, random_str, timestamp and the MD5 \
            signature with the master secret; flag 0/1 roaming.
            """),
        e("login", .request, ["username", "password"], "Log in: username, MD5 password, SDK version."),
        e("register", .request, ["username", "password"], "Register a user (MD5 password)."),
        e("get_across_user_info", .request, ["username"], "A user's info (appkey for cross-app)."),
        e(
            "s_across_single_text", .request, ["content", "target_id", "appkey"],
            "Send a one-to-one message (message protocol content); the response carries msg_id."),
        e(
            "s_single_text", .request, ["content", "target_id"],
            "Legacy one-to-one send; the name the single-send response arrives under."),
        e(
            "msg_sync", .push, ["messages"],
            "Server: new messages [{msg_id, msg_type 3|4, from_uid, from_gid, ctime_ms, content, …}]."),
        e("msg_recv", .reply, ["msg_id"], "Receipt of a msg_sync message (defined by 2.4.0, not sent)."),
        e(
            "msg_recv_v2", .reply, ["msg_id", "msg_type", "from_uid", "from_gid"], since: "2.5.0",
            "Receipt of each msg_sync message."),
        e("send_group_msg", .request, ["content", "target_gid", "appkey"], "Send a group message (users = @ list)."),
        e("create_group", .request, [], "Create a group."),
        e("get_groups_list", .request, [], "The user's groups."),
        e("get_group_info", .request, ["gid"], "A group's info."),
        e("add_group_member", .request, ["gid", "member_usernames"], "Add members."),
        e("add_across_group_member", .request, ["gid", "member_usernames"], "Add members (cross-app)."),
        e("del_group_member", .request, ["gid", "member_usernames"], "Remove members."),
        e("del_across_group_member", .request, ["gid", "member_usernames"], "Remove members (cross-app)."),
        e("get_group_members", .request, ["gid"], "A group's members."),
        e("update_group_info", .request, ["gid"], "Change a group's name, description or avatar."),
        e("exit_group", .request, ["gid"], "Leave a group."),
        e(
            "event_notification", .push, ["event_type"],
            """
            Server: an event (event_type, see web-event-type); the client \
            replies to event_type 1 with {event_id, event_type, from_uid, gid}.
            """),
        e("get_conversations", .request, [], "The conversation list."),
        e("get_upload_token", .request, [], "A token for the resource upload."),
        e("no_disturb", .request, [], "The no-disturb settings."),
        e("add_msg_no_disturb_single", .request, ["target_name"], "No-disturb for a user."),
        e("delete_msg_no_disturb_single", .request, ["target_name"], "Remove no-disturb for a user."),
        e("add_msg_no_disturb_group", .request, ["gid"], "No-disturb for a group."),
        e("delete_msg_no_disturb_group", .request, ["gid"], "Remove no-disturb for a group."),
        e("add_msg_no_disturb_global", .request, [], "Global no-disturb on."),
        e("delete_msg_no_disturb_global", .request, [], "Global no-disturb off."),
        e("disconnect", .local, [], "socket.io's own disconnect event the SDK listens to; never on the wire."),
        e("get_black_list", .request, [], "The blacklist."),
        e("add_black_list", .request, ["member_usernames"], "Blacklist users."),
        e("del_black_list", .request, ["member_usernames"], "Remove users from the blacklist."),
        e("update_user_inf", .request, [], "Change the user's info."),
        e("update_user_pwd", .request, ["old_pwd", "new_pwd"], "Change the password (MD5)."),
        e("add_msg_shield_group", .request, ["gid"], "Shield a group."),
        e("del_msg_shield_group", .request, ["gid"], "Unshield a group."),
        e(
            "add_friend", .request, ["target_name"],
            "Invite, accept or decline a friend (from_type 1 invite, 2 answer)."),
        e("del_friend", .request, ["target_name"], "Remove a friend."),
        e("update_friend_memo", .request, ["target_name"], "Change a friend's memo."),
        e("get_friend_list", .request, [], "The friend list."),
        e(
            "sync_check", .request, ["sync_key", "sync_type", "sync_event_key", "msg_receipt_key"],
            "Periodic sync pull (every 150 s) with the last keys."),
        e("sync_conversation", .push, ["sync_key"], "Server: roaming/offline conversations {sync_key, messages}."),
        e("sync_conversation_ack", .reply, ["sync_key"], "Acknowledge sync_conversation with its sync_key."),
        e("msg_retract", .request, [], "Retract a message."),
        e("get_resource", .request, [], "A resource URL."),
        e("list_shield_group", .request, [], "The shielded groups."),
        e("sync_event_check", .request, [], "Pull events."),
        e("sync_event", .push, ["sync_key"], "Server: offline events {sync_key, events}."),
        e("sync_event_ack", .reply, ["sync_key"], "Acknowledge sync_event with its sync_key."),
        e("receipt_report", .reply, ["sessions"], "Batched read receipts {sessions: [{msg_ids, …}]}."),
        e("sync_receipt_ack", .reply, ["sync_key"], "Acknowledge sync_receipt with its sync_key."),
        e("sync_receipt", .push, ["sync_key"], "Server: read-receipt changes {sync_key, receipts}."),
        e("receipt_change", .push, [], "Server: read counts changed while online."),
        e("unread_group_count", .request, [], "Reset a group's unread count on other devices."),
        e("unread_single_count", .request, [], "Reset a user's unread count on other devices."),
        e("msg_unread_list", .request, [], "Who has not read a message."),
        e("trans_msg_single", .request, [], "A transparent message to a user."),
        e("trans_msg_group", .request, [], "A transparent message to a group."),
        e("trans_msg_rec", .push, [], "Server: a transparent message (type 3 single, 4 group, 5 own devices)."),
        e("admin_add_group_member", .request, [], "Approve or reject a join request."),
        e("apply_join_group", .request, [], since: "2.5.0", "Ask to join a group."),
        e("room_list", .request, [], since: "2.5.0", "Chat rooms of the app."),
        e("room_list_self", .request, [], since: "2.5.0", "Chat rooms the user is in."),
        e("join_room", .request, [], since: "2.5.0", "Enter a chat room."),
        e("exit_room", .request, [], since: "2.5.0", "Leave a chat room."),
        e("room_info", .request, [], since: "2.5.0", "A chat room's info."),
        e("send_room_msg", .request, [], since: "2.5.0", "Send a chat-room message."),
        e("room_msg_sync", .push, [], since: "2.5.0", "Server: chat-room messages."),
        e("group_mem_silence", .request, [], since: "2.5.0", "Mute or unmute a group member."),
        e("room_msg_sync_his", .push, [], since: "2.5.0", "Server: chat-room history on entering."),
        e("dissolve_group", .request, [], since: "2.6.0 (UNCONFIRMED)", "Dissolve a group."),
        e("add_group_keeper", .request, [], since: "2.6.0 (UNCONFIRMED)", "Add group admins."),
        e("del_group_keeper", .request, [], since: "2.6.0 (UNCONFIRMED)", "Remove group admins."),
        e("change_group_admin", .request, [], since: "2.6.0 (UNCONFIRMED)", "Transfer group ownership."),
        e("public_group_list", .request, [], since: "2.6.0 (UNCONFIRMED)", "Public groups."),
        e(
            "trans_msg_platform", .request, [], since: "2.6.0 (UNCONFIRMED)",
            "A transparent message to the user's own devices."),
    ]
}
