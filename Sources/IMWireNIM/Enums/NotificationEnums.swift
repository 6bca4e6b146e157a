import IMWireCore

extension NIMStatusCodes {
    /// iOS `NIMNotificationType`: the kind of a notification message.
    public static let notificationType = StatusTable(
        .nim, "NIMNotificationType", title: "iOS notification types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMNotificationContent.h", travel: .sdkEnum
    ) { row in [
        row(0, "NIMNotificationTypeUnsupport", "Unsupported notification type", original: "未被支持的通知类型"),
        row(1, "NIMNotificationTypeTeam", "Team notification", original: "群通知"),
        row(2, "NIMNotificationTypeNetCall", "Net-call notification", original: "网络电话通知"),
        row(3, "NIMNotificationTypeChatroom", "Chatroom notification", original: "聊天室通知"),
    ] }

    /// iOS `NIMSystemNotificationType` (C `NIMSysMsgType` uses the same numbers for these).
    public static let systemNotificationType = StatusTable(
        .nim, "NIMSystemNotificationType", title: "iOS system notification types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMSystemNotification.h", travel: .sdkEnum,
        notes: ["C `NIMSysMsgType` has the same 0–3 and 5, and adds 6 friend deleted, 100/101/103 custom messages, 1000 unknown (nim.md §2.2)."]
    ) { row in [
        row(0, "NIMSystemNotificationTypeTeamApply", "Application to join a team", original: "申请入群"),
        row(1, "NIMSystemNotificationTypeTeamApplyReject", "Team application rejected", original: "拒绝入群"),
        row(2, "NIMSystemNotificationTypeTeamInvite", "Invitation to a team", original: "邀请入群"),
        row(3, "NIMSystemNotificationTypeTeamIviteReject", "Team invitation rejected", original: "拒绝入群邀请"),
        row(5, "NIMSystemNotificationTypeFriendAdd", "Friend added", original: "添加好友"),
    ] }

    /// iOS `NIMTeamOperationType` (C `kNIMNotificationIdTeam*` use the same numbers 0–10).
    public static let teamOperationType = StatusTable(
        .nim, "NIMTeamOperationType", title: "iOS team operation types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamNotificationContent.h", travel: .sdkEnum,
        notes: ["C `NIMNotificationId` numbers the same team operations 0–10 (kNIMNotificationIdTeamInvite … TeamMuteMember, nim.md §2.2)."]
    ) { row in [
        row(0, "NIMTeamOperationTypeInvite", "Members invited", original: "邀请成员"),
        row(1, "NIMTeamOperationTypeKick", "Members removed", original: "移除成员"),
        row(2, "NIMTeamOperationTypeLeave", "Left the team", original: "离开群"),
        row(3, "NIMTeamOperationTypeUpdate", "Team info updated", original: "更新群信息"),
        row(4, "NIMTeamOperationTypeDismiss", "Team dismissed", original: "解散群"),
        row(5, "NIMTeamOperationTypeApplyPass", "Application to an advanced team accepted", original: "高级群申请加入成功"),
        row(6, "NIMTeamOperationTypeTransferOwner", "Advanced team owner transferred ownership", original: "高级群群主转移群主身份"),
        row(7, "NIMTeamOperationTypeAddManager", "Managers added", original: "添加管理员"),
        row(8, "NIMTeamOperationTypeRemoveManager", "Managers removed", original: "移除管理员"),
        row(9, "NIMTeamOperationTypeAcceptInvitation", "Invitation to an advanced team accepted", original: "高级群接受邀请进群"),
        row(10, "NIMTeamOperationTypeMute", "Members muted or unmuted", original: "群内禁言/解禁"),
    ] }
}
