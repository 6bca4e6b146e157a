import IMWireCore

extension NIMStatusCodes {
    static let chatroomHeader = "\(iOSHeaders)/NIMChatroomManagerProtocol.h"
    static let chatroomKickNote = "The Web chatroom SDK reads the `reason` of packet 13_3 (kicked) as 1 chatroomClosed, 2 managerKick, 3 samePlatformKick, 4 silentlyKick, 5 blacked; iOS has no 4, and C's 4 (IllegalState) is a local meaning that conflicts with the wire's 4 (nim.md §2.1)."

    /// iOS `NIMChatroomConnectionState`.
    public static let chatroomConnectionState = StatusTable(
        .nim, "NIMChatroomConnectionState", title: "iOS chatroom connection state", kind: .enumeration, source: chatroomHeader,
        travel: .sdkEnum
    ) { row in [
        row(0, "NIMChatroomConnectionStateEntering", "Entering", original: "正在进入"),
        row(1, "NIMChatroomConnectionStateEnterOK", "Entered the chatroom", original: "进入聊天室成功"),
        row(2, "NIMChatroomConnectionStateEnterFailed", "Entering the chatroom failed", original: "进入聊天室失败"),
        row(3, "NIMChatroomConnectionStateLoseConnection", "Lost the connection to the chatroom", original: "和聊天室失去连接"),
    ] }

    /// iOS `NIMChatroomKickReason`.
    public static let chatroomKickReason = StatusTable(
        .nim, "NIMChatroomKickReason", title: "iOS chatroom kick reasons", kind: .codes, source: chatroomHeader,
        travel: .sdkEnum, notes: [chatroomKickNote]
    ) { row in [
        row(1, "NIMChatroomKickReasonInvalidRoom", "The chatroom was dissolved", .fatalConflict, original: "聊天室已经解散"),
        row(2, "NIMChatroomKickReasonByManager", "Kicked out by a chatroom manager", .fatalConflict, original: "被聊天室管理员踢出"),
        row(3, "NIMChatroomKickReasonByConflictLogin", "Kicked by a login elsewhere (multi-device)", .fatalConflict, original: "多端被踢"),
        row(5, "NIMChatroomKickReasonBlacklist", "Blacklisted", .fatalConflict, original: "被拉黑"),
    ] }

    /// The `reason` of packet 13_3 (chatroom kicked) as the Web chatroom SDK reads it.
    public static let webChatroomKickReason = StatusTable(
        .nim, "web-chatroom-kick-reason", title: "Web chatroom link: reason of packet 13_3 (kicked)", kind: .codes,
        source: "\(webChatroomBundle) kickedReasons", travel: .message,
        notes: ["Packet 13_3 carries r=[reason, custom] (nim.md §2.1, §3.6)."]
    ) { row in [
        row(1, "chatroomClosed", "The chatroom was closed", .fatalConflict, original: "聊天室关闭了"),
        row(2, "managerKick", "Kicked out by the owner or a manager", .fatalConflict, original: "被房主或者管理员踢出"),
        row(3, "samePlatformKick", "The same account may not be logged in at several places at once", .fatalConflict,
            original: "不允许同一个帐号在多个地方同时登录"),
        row(4, "silentlyKick", "Kicked silently", .fatalConflict, original: "悄悄被踢"),
        row(5, "blacked", "Blacklisted", .fatalConflict, original: "被拉黑了"),
    ] }

    /// C/Node `NIMChatRoomExitReason`: why the client left a chatroom (adds 0 for leaving by itself).
    public static let chatRoomExitReasonC = StatusTable(
        .nim, "NIMChatRoomExitReason", title: "C/Node chatroom exit reasons", kind: .codes, source: nodeEnums,
        travel: .sdkEnum, notes: [chatroomKickNote]
    ) { row in [
        row(0, "kNIMChatRoomExitReasonExit", "Left by itself; request entry again before logging in again", .success,
            original: "自行退出,重登前需要重新请求进入"),
        row(1, "kNIMChatRoomExitReasonRoomInvalid", "The chatroom was dissolved; request entry again before logging in again",
            .fatalConflict, original: "聊天室已经被解散,重登前需要重新请求进入"),
        row(2, "kNIMChatRoomExitReasonKickByManager", "Kicked out by a manager; request entry again before logging in again",
            .fatalConflict, original: "被管理员踢出,重登前需要重新请求进入"),
        row(3, "kNIMChatRoomExitReasonKickByMultiSpot", "Kicked by a login elsewhere (multi-device)", .fatalConflict,
            original: "多端被踢"),
        row(4, "kNIMChatRoomExitReasonIllegalState", "The current link is in an abnormal state (local meaning; the wire's 4 is silentlyKick)",
            .retry, original: "当前链接状态异常"),
        row(5, "kNIMChatRoomExitReasonBeBlacklisted", "Blacklisted", .fatalConflict, original: "被加黑了"),
    ] }

    /// iOS `NIMChatroomEventType`: chatroom notification events (C `NIMChatRoomNotificationId` shares 301–320).
    public static let chatroomEventType = StatusTable(
        .nim, "NIMChatroomEventType", title: "iOS chatroom event types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomNotificationContent.h", travel: .sdkEnum,
        notes: ["C `NIMChatRoomNotificationId` uses the same 301–320 and adds 321–324 (tag mute, recall, batch queue offer; nim.md §2.2)."]
    ) { row in [
        row(301, "NIMChatroomEventTypeEnter", "Member entered the chatroom", original: "成员进入聊天室"),
        row(302, "NIMChatroomEventTypeExit", "Member left the chatroom", original: "成员离开聊天室"),
        row(303, "NIMChatroomEventTypeAddBlack", "Member blacklisted", original: "成员被拉黑"),
        row(304, "NIMChatroomEventTypeRemoveBlack", "Member removed from the blacklist", original: "成员被取消拉黑"),
        row(305, "NIMChatroomEventTypeAddMute", "Member muted", original: "成员被设置禁言"),
        row(306, "NIMChatroomEventTypeRemoveMute", "Member unmuted", original: "成员被取消禁言"),
        row(307, "NIMChatroomEventTypeAddManager", "Made a manager", original: "设置为管理员"),
        row(308, "NIMChatroomEventTypeRemoveManager", "Manager removed", original: "移除管理员"),
        row(309, "NIMChatroomEventTypeAddCommon", "Made a fixed member", original: "设置为固定成员"),
        row(310, "NIMChatroomEventTypeRemoveCommon", "Fixed membership removed", original: "取消固定成员"),
        row(311, "NIMChatroomEventTypeClosed", "Chatroom closed", original: "聊天室被关闭"),
        row(312, "NIMChatroomEventTypeInfoUpdated", "Chatroom info updated", original: "聊天室信息更新"),
        row(313, "NIMChatroomEventTypeKicked", "Chatroom member kicked", original: "聊天室成员被踢"),
        row(314, "NIMChatroomEventTypeAddMuteTemporarily", "Chatroom member muted temporarily", original: "聊天室成员被临时禁言"),
        row(315, "NIMChatroomEventTypeRemoveMuteTemporarily", "Chatroom member's temporary mute lifted", original: "聊天室成员被解除临时禁言"),
        row(316, "NIMChatroomEventTypeMemberUpdateInfo", "A member updated their chatroom role info", original: "聊天室成员主动更新了聊天室的角色信息"),
        row(317, "NIMChatroomEventTypeQueueChange", "Chatroom queue changed", original: "聊天室通用队列变更的通知"),
        row(318, "NIMChatroomEventTypeRoomMuted", "Chatroom muted: only managers may speak, everyone else is muted",
            original: "聊天室被禁言了，只有管理员可以发言,其他人都处于禁言状态"),
        row(319, "NIMChatroomEventTypeRoomUnMuted", "Chatroom no longer muted", original: "聊天室不在禁言状态"),
        row(320, "NIMChatroomEventTypeQueueBatchChange", "Chatroom queue changed in a batch", original: "聊天室通用队列批量变更的通知"),
    ] }
}
