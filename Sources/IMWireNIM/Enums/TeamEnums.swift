import IMWireCore

// Teams (groups): types, join and invite modes, member roles, update tags.
extension NIMStatusCodes {
    /// iOS `NIMTeamUpdateTag`: which team property an update notification changed.
    public static let teamUpdateTag = StatusTable(
        .nim, "NIMTeamUpdateTag", title: "iOS team update tags", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamNotificationContent.h", travel: .sdkEnum
    ) { row in
        [
            row(3, "NIMTeamUpdateTagName", "Team name", original: "群名"),
            row(14, "NIMTeamUpdateTagIntro", "Team introduction", original: "群简介"),
            row(15, "NIMTeamUpdateTagAnouncement", "Team announcement", original: "群公告"),
            row(16, "NIMTeamUpdateTagJoinMode", "How joining is verified", original: "群验证方式"),
            row(
                18, "NIMTeamUpdateTagClientCustom", "Client-defined extension field",
                original: "客户端自定义拓展字段"),
            row(
                19, "NIMTeamUpdateTagServerCustom", "Server-defined extension field",
                original: "服务器自定义拓展字段"),
            row(20, "NIMTeamUpdateTagAvatar", "Avatar", original: "头像"),
            row(21, "NIMTeamUpdateTagBeInviteMode", "Invitee-consent mode", original: "被邀请模式"),
            row(22, "NIMTeamUpdateTagInviteMode", "Who may invite", original: "邀请权限"),
            row(
                23, "NIMTeamUpdateTagUpdateInfoMode", "Who may update the team info",
                original: "更新群信息权限"),
            row(
                24, "NIMTeamUpdateTagUpdateClientCustomMode", "Who may update the client-defined extension field",
                original: "更新群客户端自定义拓展字段权限"),
            row(100, "NIMTeamUpdateTagMuteMode", "Whole team muted", original: "群全体禁言"),
        ]
    }

    /// iOS `NIMTeamType`.
    public static let teamType = StatusTable(
        .nim, "NIMTeamType", title: "iOS team types", kind: .enumeration, source: "\(iOSHeaders)/NIMTeamDefs.h",
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMTeamTypeNormal", "Normal team", original: "普通群"),
            row(1, "NIMTeamTypeAdvanced", "Advanced team", original: "高级群"),
        ]
    }

    /// iOS `NIMTeamJoinMode`.
    public static let teamJoinMode = StatusTable(
        .nim, "NIMTeamJoinMode", title: "iOS team join modes", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMTeamJoinModeNoAuth", "Anyone may join", original: "允许所有人加入"),
            row(1, "NIMTeamJoinModeNeedAuth", "Joining needs verification", original: "需要验证"),
            row(2, "NIMTeamJoinModeRejectAll", "No one may join", original: "不允许任何人加入"),
        ]
    }

    /// iOS `NIMTeamInviteMode`: who may invite.
    public static let teamInviteMode = StatusTable(
        .nim, "NIMTeamInviteMode", title: "iOS team invite modes", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMTeamInviteModeManager", "Only managers and the owner may invite others",
                original: "只有管理员/群主可以邀请他人入群"),
            row(
                1, "NIMTeamInviteModeAll", "Anyone may invite others",
                original: "所有人可以邀请其他人入群"),
        ]
    }

    /// iOS `NIMTeamBeInviteMode`: whether an invitee must agree.
    public static let teamBeInviteMode = StatusTable(
        .nim, "NIMTeamBeInviteMode", title: "iOS team invitee-consent modes", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMTeamBeInviteModeNeedAuth", "The invitee must agree", original: "需要被邀请方同意"),
            row(1, "NIMTeamBeInviteModeNoAuth", "The invitee need not agree", original: "不需要被邀请方同意"),
        ]
    }

    /// iOS `NIMTeamUpdateInfoMode`: who may update the team info.
    public static let teamUpdateInfoMode = StatusTable(
        .nim, "NIMTeamUpdateInfoMode", title: "iOS team info update modes", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMTeamUpdateInfoModeManager", "Only managers and the owner may change it",
                original: "只有管理员/群主可以修改"),
            row(1, "NIMTeamUpdateInfoModeAll", "Anyone may change it", original: "所有人可以修改"),
        ]
    }

    /// iOS `NIMTeamUpdateClientCustomMode`: who may update the client-defined extension field.
    public static let teamUpdateClientCustomMode = StatusTable(
        .nim, "NIMTeamUpdateClientCustomMode", title: "iOS team client-extension update modes", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMTeamUpdateClientCustomModeManager", "Only managers and the owner may change it",
                original: "只有管理员/群主可以修改"),
            row(1, "NIMTeamUpdateClientCustomModeAll", "Anyone may change it", original: "所有人可以修改"),
        ]
    }

    /// iOS `NIMTeamApplyStatus`.
    public static let teamApplyStatus = StatusTable(
        .nim, "NIMTeamApplyStatus", title: "iOS team application status", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMTeamApplyStatusInvalid", "Invalid state", original: "无效状态"),
            row(1, "NIMTeamApplyStatusAlreadyInTeam", "Already in the team", original: "已经在群里"),
            row(2, "NIMTeamApplyStatusWaitForPass", "Application waiting for approval", original: "申请等待通过"),
        ]
    }

    /// iOS `NIMTeamMemberType`.
    public static let teamMemberType = StatusTable(
        .nim, "NIMTeamMemberType", title: "iOS team member types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMTeamMemberTypeNormal", "Ordinary member", original: "普通群员"),
            row(1, "NIMTeamMemberTypeOwner", "Team owner", original: "群拥有者"),
            row(2, "NIMTeamMemberTypeManager", "Team manager", original: "群管理员"),
            row(3, "NIMTeamMemberTypeApply", "User applying to join", original: "申请加入用户"),
        ]
    }

    /// iOS `NIMTeamNotifyState`.
    public static let teamNotifyState = StatusTable(
        .nim, "NIMTeamNotifyState", title: "iOS team notification settings", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMTeamNotifyStateAll", "Receive every team message notification",
                original: "接受任何群消息通知"),
            row(
                1, "NIMTeamNotifyStateNone", "Receive no team message notification",
                original: "不接受任何群消息通知"),
            row(
                2, "NIMTeamNotifyStateOnlyManager", "Receive team message notifications from managers only",
                original: "只接受管理员的群消息通知"),
        ]
    }
}
