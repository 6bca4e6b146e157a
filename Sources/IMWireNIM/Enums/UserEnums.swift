import IMWireCore

// Users and friends, and the online-state events a client can subscribe to.
extension NIMStatusCodes {
    /// iOS `NIMUserOperation`.
    public static let userOperation = StatusTable(
        .nim, "NIMUserOperation", title: "iOS friend operations", kind: .enumeration,
        source: "\(iOSHeaders)/NIMUser.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMUserOperationAdd", "Add a friend", original: "添加好友"),
            row(2, "NIMUserOperationRequest", "Request to add a friend", original: "请求添加好友"),
            row(3, "NIMUserOperationVerify", "Accept a friend request", original: "通过添加好友请求"),
            row(4, "NIMUserOperationReject", "Reject a friend request", original: "拒绝添加好友请求"),
        ]
    }

    /// iOS `NIMUserGender`.
    public static let userGender = StatusTable(
        .nim, "NIMUserGender", title: "iOS user genders", kind: .enumeration, source: "\(iOSHeaders)/NIMUser.h",
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMUserGenderUnknown", "Unknown gender", original: "未知性别"),
            row(1, "NIMUserGenderMale", "Male", original: "性别男"),
            row(2, "NIMUserGenderFemale", "Female", original: "性别女"),
        ]
    }

    /// iOS `NIMUserInfoUpdateTag`: which user property an update sets.
    public static let userInfoUpdateTag = StatusTable(
        .nim, "NIMUserInfoUpdateTag", title: "iOS user info update tags", kind: .enumeration,
        source: "\(iOSHeaders)/NIMUserManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(3, "NIMUserInfoUpdateTagNick", "User nickname", original: "用户昵称"),
            row(4, "NIMUserInfoUpdateTagAvatar", "User avatar", original: "用户头像"),
            row(5, "NIMUserInfoUpdateTagSign", "User signature", original: "用户签名"),
            row(
                6, "NIMUserInfoUpdateTagGender",
                "User gender; use the enum, e.g. {@(NIMUserInfoUpdateTagGender) : @(NIMUserGenderMale)}",
                original: """
                    用户性别。请使用指定枚举,如 \
                    {@(NIMUserInfoUpdateTagGender) : @(NIMUserGenderMale)}
                    """),
            row(
                7, "NIMUserInfoUpdateTagEmail", "User email; must be a valid address",
                original: "用户邮箱。请使用合法邮箱"),
            row(
                8, "NIMUserInfoUpdateTagBirth", "User birthday, as yyyy-MM-dd",
                original: "用户生日。具体格式为yyyy-MM-dd"),
            row(
                9, "NIMUserInfoUpdateTagMobile", "User mobile number; must be a valid number",
                original: "用户手机号。请使用合法手机号"),
            row(10, "NIMUserInfoUpdateTagExt", "Extension field", original: "扩展字段"),
        ]
    }

    /// iOS `NIMSubscribeSystemEventType`.
    public static let subscribeSystemEventType = StatusTable(
        .nim, "NIMSubscribeSystemEventType", title: "iOS subscribable system event types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMSubscribeEvent.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMSubscribeSystemEventTypeOnline", "Online-state event", original: "在线状态事件")
        ]
    }

    /// iOS `NIMSubscribeEventOnlineValue`: the value of an online-state event.
    public static let subscribeEventOnlineValue = StatusTable(
        .nim, "NIMSubscribeEventOnlineValue", title: "iOS online-state event values", kind: .enumeration,
        source: "\(iOSHeaders)/NIMSubscribeEvent.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMSubscribeEventOnlineValueLogin", "Logged in", original: "登录"),
            row(2, "NIMSubscribeEventOnlineValueLogout", "Logged out", original: "登出"),
            row(3, "NIMSubscribeEventOnlineValueDisconnected", "Disconnected", original: "断开连接"),
        ]
    }
}
