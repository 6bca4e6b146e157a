import IMWireCore

extension JMessageStatusCodes {
    static let webSources = "\(webDoc) (业务事件监听) and the Web SDK bundle"

    /// The Web `event_type` of `event_notification` (jmessage.md §2.3): what actually travels.
    public static let webEventType = StatusTable(
        .jmessage, "web-event-type", title: "Web `event_notification` event_type", kind: .enumeration,
        source: webSources,
        travel: .message,
        notes: [
            """
            For event_type 1 the client answers `event_notification` {event_id, event_type, \
            from_uid, gid}; 1 and 2 make the SDK log out (LOGIN_OUT_EVENT: [1, 2]).
            """
        ]
    ) { row in
        [
            row(
                1, "",
                """
                Forced offline: concurrent login or account disabled (`extra` 0 \
                concurrent login, 1 disabled, 2 deleted; see `web-forced-offline-extra`)
                """,
                .fatalConflict, original: "同时登录或者被禁用，被迫下线"),
            row(
                2, "", "Password changed, forced offline", .fatalCredentials,
                original: "密码被修改，被迫下线"),
            row(
                5, "", "Friend invitation or reply (`return_code` carries the reply; `description`, `extra`)",
                original: "好友邀请 / 好友应答"),
            row(6, "", "Friend deleted", original: "删除好友"),
            row(7, "", "Friend updated (server side)", original: "好友更新"),
            row(8, "", "Group created", original: "创建群组"),
            row(9, "", "Left a group", original: "退出群组"),
            row(10, "", "Group members added", original: "添加群组成员"),
            row(11, "", "Group members removed", original: "删除群组成员"),
            row(12, "", "Group info changed", original: "修改群信息"),
            row(37, "", "No-disturb changed", original: "免打扰变更"),
            row(38, "", "Blacklist changed", original: "黑名单变更"),
            row(39, "", "Group shield changed", original: "群屏蔽变更"),
            row(40, "", "User info changed", original: "用户信息变更"),
            row(55, "", "Message retracted (`msgid_list`, `type` 0 one-to-one / 1 group)", original: "消息被撤回"),
            row(
                56, "", "Request to join a group, since 2.5.0 (`extra` 10 → invited, 59 → applied)",
                original: "入群申请"),
            row(57, "", "Request to join a group rejected", original: "入群申请被拒绝"),
            row(58, "", "Admin approval rejected, since 2.6.0 (`from_eventid`)", original: "管理员审批拒绝"),
            row(65, "", "Group member muted", original: "群用户禁言"),
            row(80, "", "Group admin changed", original: "群组管理员变更"),
            row(82, "", "Group ownership transferred (`new_owner`)", original: "群主移交"),
            row(100, "", "Multi-device: friends changed", original: "多端在线好友变更"),
            row(101, "", "Multi-device: blacklist changed", original: "多端在线黑名单变更"),
            row(102, "", "Multi-device: no-disturb changed", original: "多端在线免打扰变更"),
            row(103, "", "Multi-device: group shield changed", original: "多端在线群屏蔽变更"),
            row(200, "", "Multi-device unread-count sync, consumed by the SDK (`description.type` 3 single / 4 group)"),
            row(
                201, "", "Multi-device: message read receipt changed (`description.type` 3 single / 4 group)",
                original: "多端在线消息已读回执变更"),
        ]
    }

    /// `extra` of event_type 1 (forced offline).
    public static let webForcedOfflineExtra = StatusTable(
        .jmessage, "web-forced-offline-extra", title: "Web event_type 1: reasons in `extra`", kind: .codes,
        source: webSources, travel: .message
    ) { row in
        [
            row(0, "", "Concurrent login elsewhere", .fatalConflict, original: "同时登录"),
            row(1, "", "User disabled", .fatalCredentials, original: "用户被禁用"),
            row(2, "", "User deleted", .fatalCredentials, original: "用户被删除"),
        ]
    }

    /// `msg_type` of received messages (`msg_sync`, `onMsgReceive`).
    public static let webMessageType = StatusTable(
        .jmessage, "web-msg-type", title: "Web `msg_type` of received messages", kind: .enumeration, source: webSources,
        travel: .message
    ) { row in
        [
            row(3, "", "One-to-one message"),
            row(4, "", "Group message"),
        ]
    }

    /// `type` of `trans_msg_rec` (`onTransMsgRec`).
    public static let webTransMessageType = StatusTable(
        .jmessage, "web-trans-msg-type", title: "Web `type` of transparent messages", kind: .enumeration,
        source: webSources,
        travel: .message
    ) { row in
        [
            row(3, "", "One-to-one"),
            row(4, "", "Group"),
            row(5, "", "Own devices"),
        ]
    }

    /// `msg_level` of messages (bundle).
    public static let webMessageLevel = StatusTable(
        .jmessage, "web-msg-level", title: "Web `msg_level`", kind: .enumeration, source: "Web SDK bundle",
        travel: .message
    ) { row in
        [
            row(0, "", "Normal"),
            row(1, "", "Across (cross-app)"),
        ]
    }
}
