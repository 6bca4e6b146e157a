import IMWireCore

extension JMessageStatusCodes {
    static let sharedWithWeb =
        "The Web `event_type` uses the same numbers for the events both define (see `web-event-type`)."

    /// iOS `JMSGEventNotificationType`: group events.
    public static let eventNotificationType = StatusTable(
        .jmessage, "JMSGEventNotificationType", title: "iOS group event types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum, notes: [sharedWithWeb]
    ) { row in
        [
            row(
                8, "kJMSGEventNotificationCreateGroup", "Event: group created",
                original: "事件类型: 群组被创建"),
            row(9, "kJMSGEventNotificationExitGroup", "Event: left the group", original: "事件类型: 退出群组"),
            row(
                10, "kJMSGEventNotificationAddGroupMembers", "Event: members added to the group",
                original: "事件类型: 群组添加新成员"),
            row(
                11, "kJMSGEventNotificationRemoveGroupMembers", "Event: members kicked from the group",
                original: "事件类型: 群组成员被踢出"),
            row(
                12, "kJMSGEventNotificationUpdateGroupInfo", "Event: group info updated",
                original: "事件类型: 群信息更新"),
            row(
                65, "kJMSGEventNotificationGroupMemberSilence", "Event: group mute",
                original: "事件类型: 群禁言通知事件"),
            row(
                80, "kJMSGEventNotificationGroupAdminChange", "Event: admin role changed",
                original: "事件类型: 管理员角色变更通知事件"),
            row(
                82, "kJMSGEventNotificationGroupOwnerChange", "Event: group owner changed",
                original: "事件类型: 群主变更通知事件"),
            row(
                83, "kJMSGEventNotificationGroupTypeChange", "Event: group type changed",
                original: "事件类型: 群类型变更通知事件"),
            row(
                11001, "kJMSGEventNotificationDissolveGroup", "Event: group dissolved",
                original: "事件类型: 解散群组"),
            row(
                11002, "kJMSGEventNotificationGroupMaxMemberCountChange", "Event: group member limit changed",
                original: "事件类型: 群组成员上限变更"),
        ]
    }

    /// iOS `JMSGCommonEventType`.
    public static let commonEventType = StatusTable(
        .jmessage, "JMSGCommonEventType", title: "iOS common event types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum, notes: [sharedWithWeb]
    ) { row in
        [
            row(
                55, "kJMSGEventNotificationMessageRetract", "Event: message retracted",
                original: "事件类型: 消息撤回"),
            row(
                12001, "kJMSGEventNotificationMessageTransparent", "Event: transparent message",
                original: "事件类型: 消息透传"),
            row(
                12002, "kJMSGEventNotificationMessageReceiptStatusChange", "Event: message receipt changed",
                original: "事件类型: 消息回执变更"),
        ]
    }

    /// iOS `JMSGLoginStatusChangeEventType`: why the current login changed (delivered through
    /// `onReceiveUserLoginStatusChangeEvent:`). Classified, since most of them end the login.
    public static let loginStatusChangeEventType = StatusTable(
        .jmessage, "JMSGLoginStatusChangeEventType", title: "iOS login status change reasons", kind: .codes,
        source: iOSHeader, travel: .sdkEnum,
        notes: [
            """
            Android names the same reasons without numbers (LoginStateChangeEvent.Reason: user_deleted, \
            user_disabled, user_login_status_unexpected, user_logout, user_password_change).
            """
        ]
    ) { row in
        [
            row(
                1, "kJMSGEventNotificationLoginKicked", "Event: login kicked", .fatalConflict,
                original: "事件类型: 登录被踢"),
            row(
                2, "kJMSGEventNotificationServerAlterPassword",
                "Event: password changed outside the client, forced logout", .fatalCredentials,
                original: "事件类型: 非客户端修改密码强制登出事件"),
            row(
                70, "kJMSGEventNotificationUserLoginStatusUnexpected", "Event: login state abnormal (log in again)",
                .reauthenticate,
                original: "事件类型：用户登录状态异常事件（需要重新登录）"),
            row(
                40, "kJMSGEventNotificationCurrentUserInfoChange",
                "Event: the current user's info changed outside the client (the login stays)",
                .success, original: "事件类型：当前登录用户信息变更通知事件(非客户端修改)"),
            row(
                10001, "kJMSGEventNotificationCurrentUserDeleted",
                "Event: the current user was deleted (local user info is cleared)",
                .fatalCredentials,
                original: "事件类型：当前登录用户被删除事件（本地用户信息会被清空）"),
            row(
                10002, "kJMSGEventNotificationCurrentUserDisabled",
                "Event: the current user was disabled (local user info is cleared)",
                .fatalCredentials,
                original: "事件类型：当前登录用户被禁用事件（本地用户信息会被清空）"),
        ]
    }

    /// iOS `JMSGFriendEventType`.
    public static let friendEventType = StatusTable(
        .jmessage, "JMSGFriendEventType", title: "iOS friend event types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(
                51, "kJMSGEventNotificationReceiveFriendInvitation", "Event: friend invitation received",
                original: "事件类型: 收到好友邀请"),
            row(
                52, "kJMSGEventNotificationAcceptedFriendInvitation", "Event: the peer accepted your friend invitation",
                original: "事件类型: 对方接受了你的好友邀请"),
            row(
                53, "kJMSGEventNotificationDeclinedFriendInvitation", "Event: the peer declined your friend invitation",
                original: "事件类型: 对方拒绝了你的好友邀请"),
            row(
                6, "kJMSGEventNotificationDeletedFriend", "Event: the peer removed you from their friends",
                original: "事件类型: 对方将你从好友中删除"),
            row(
                7, "kJMSGEventNotificationReceiveServerFriendUpdate",
                "Event: friend relation changed outside the client",
                original: "事件类型：非客户端修改好友关系收到好友更新事件"),
        ]
    }

    /// iOS `JMSGGroupEventType`.
    public static let groupEventType = StatusTable(
        .jmessage, "JMSGGroupEventType", title: "iOS group announcement and blacklist event types", kind: .enumeration,
        source: iOSHeader, travel: .sdkEnum
    ) { row in
        [
            row(
                86, "kJMSGEventNotificationPublishGroupAnnouncement", "Event: group announcement published",
                original: "事件类型：发布群公告"),
            row(
                87, "kJMSGEventNotificationDeleteGroupAnnouncement", "Event: group announcement deleted",
                original: "事件类型：删除群公告"),
            row(
                88, "kJMSGEventNotificationTopGroupAnnouncement", "Event: group announcement pinned or unpinned",
                original: "事件类型：置顶/取消置顶 群公告"),
            row(
                89, "kJMSGEventNotificationAddGroupBlacklist", "Event: added to the group blacklist",
                original: "事件类型：添加群组黑名单"),
            row(
                90, "kJMSGEventNotificationDelGroupBlacklist", "Event: removed from the group blacklist",
                original: "事件类型：删除群组黑名单"),
        ]
    }

    /// iOS `JMSGChatRoomEventType`.
    public static let chatRoomEventType = StatusTable(
        .jmessage, "JMSGChatRoomEventType", title: "iOS chatroom event types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(
                130, "kJMSGEventNotificationChatRoomAddAdmin", "Event: admin added",
                original: "事件类型：添加管理员"),
            row(
                131, "kJMSGEventNotificationChatRoomDelAdmin", "Event: admin removed",
                original: "事件类型：删除管理员"),
            row(
                132, "kJMSGEventNotificationChatRoomAddBlacklist", "Event: added to the blacklist",
                original: "事件类型：添加黑名单"),
            row(
                133, "kJMSGEventNotificationChatRoomDelBlacklist", "Event: removed from the blacklist",
                original: "事件类型：删除黑名单"),
        ]
    }
}
