import IMWireCore

extension NIMStatusCodes {
    static let loginHeader = "\(iOSHeaders)/NIMLoginManagerProtocol.h"
    static let kickNote =
        """
        The Web SDK reads the `reason` of packet 2_5 (kicked) as 1 samePlatformKick, 2 \
        serverKick, 3 otherPlatformKick, 4 silentlyKick; iOS 5.4.0 has no 4 (nim.md §2.1).
        """

    /// iOS `NIMLoginStep` 1–10 (numbered differently from the C enum `NIMLoginStep-c`; neither travels).
    public static let loginStep = StatusTable(
        .nim, "NIMLoginStep", title: "iOS login steps", kind: .enumeration, source: loginHeader, travel: .sdkEnum,
        notes: ["The C/Node enum of the same name numbers its steps 0–3: see `NIMLoginStep-c`."]
    ) { row in
        [
            row(1, "NIMLoginStepLinking", "Connecting to the server", original: "连接服务器"),
            row(2, "NIMLoginStepLinkOK", "Connected to the server", original: "连接服务器成功"),
            row(3, "NIMLoginStepLinkFailed", "Connecting to the server failed", original: "连接服务器失败"),
            row(4, "NIMLoginStepLogining", "Logging in", original: "登录"),
            row(5, "NIMLoginStepLoginOK", "Logged in", original: "登录成功"),
            row(6, "NIMLoginStepLoginFailed", "Login failed", original: "登录失败"),
            row(7, "NIMLoginStepSyncing", "Synchronising", original: "开始同步"),
            row(8, "NIMLoginStepSyncOK", "Synchronised", original: "同步完成"),
            row(9, "NIMLoginStepLoseConnection", "Connection lost", original: "连接断开"),
            row(10, "NIMLoginStepNetChanged", "Network changed", original: "网络切换"),
        ]
    }

    /// C/Node `NIMLoginStep` 0–3: a different enum from the iOS one of the same name.
    public static let loginStepC = StatusTable(
        .nim, "NIMLoginStep-c", title: "C/Node login steps", kind: .enumeration, source: nodeEnums,
        travel: .sdkEnum, notes: ["The iOS enum of the same name numbers its steps 1–10: see `NIMLoginStep`."]
    ) { row in
        [
            row(0, "kNIMLoginStepLinking", "Connecting", original: "正在连接"),
            row(1, "kNIMLoginStepLink", "Connected to the server", original: "连接服务器"),
            row(2, "kNIMLoginStepLogining", "Logging in", original: "正在登录"),
            row(3, "kNIMLoginStepLogin", "Login verification", original: "登录验证"),
        ]
    }

    /// iOS `NIMKickReason`: why the account was logged out by another party.
    public static let kickReason = StatusTable(
        .nim, "NIMKickReason", title: "iOS kick reasons", kind: .codes, source: loginHeader, travel: .sdkEnum,
        notes: [kickNote]
    ) { row in
        [
            row(
                1, "NIMKickReasonByClient",
                "Kicked by another client (a mutually exclusive client logged in and pushed out this one)",
                .fatalConflict,
                original: """
                    被另外一个客户端踢下线 \
                    (互斥客户端一端登录挤掉上一个登录中的客户端)
                    """),
            row(2, "NIMKickReasonByServer", "Kicked by the server", .fatalConflict, original: "被服务器踢下线"),
            row(
                3, "NIMKickReasonByClientManually", "Kicked by another client that chose to kick this one",
                .fatalConflict,
                original: "被另外一个客户端手动选择踢下线"),
        ]
    }

    /// C/Node `NIMKickReason`.
    public static let kickReasonC = StatusTable(
        .nim, "NIMKickReason-c", title: "C/Node kick reasons", kind: .codes, source: nodeEnums,
        travel: .sdkEnum, notes: [kickNote]
    ) { row in
        [
            row(
                1, "kNIMKickReasonSameGeneric", "Mutually exclusive clients kicked each other", .fatalConflict,
                original: "互斥类型的客户端互踢"),
            row(
                2, "kNIMKickReasonServerKick", "The server sent a kick", .fatalConflict,
                original: "服务器端发起踢客户端指令"),
            row(
                3, "kNIMKickReasonKickBySelfOtherClient", "Kicked by one of the user's own other clients",
                .fatalConflict,
                original: "被自己的其他端踢掉"),
        ]
    }

    /// The `reason` of packet 2_5 (kicked) as the Web SDK reads it (`kickedReasons`).
    public static let webKickReason = StatusTable(
        .nim, "web-kick-reason", title: "Web link: reason of packet 2_5 (kicked)", kind: .codes,
        source: "\(webBundle) kickedReasons", travel: .message,
        notes: ["Packet 2_5 carries r=[from, reason, custom, customClientType] (nim.md §3.4)."]
    ) { row in
        [
            row(
                1, "samePlatformKick", "The same account may not be logged in at several places at once",
                .fatalConflict,
                original: "不允许同一个帐号在多个地方同时登录"),
            row(2, "serverKick", "Kicked by the server", .fatalConflict, original: "被服务器踢了"),
            row(3, "otherPlatformKick", "Kicked by another client", .fatalConflict, original: "被其它端踢了"),
            // onKicked: silentlyKick is forceDisconnect + onDisconnect(1): the Web SDK reconnects.
            row(
                4, "silentlyKick", "Kicked silently (not in iOS 5.4.0); the Web SDK reconnects", .retry,
                original: "悄悄被踢"),
        ]
    }

    /// iOS `NIMLoginClientType`: the `clientType` of a login (tag 3 of the login packet).
    public static let loginClientType = StatusTable(
        .nim, "NIMLoginClientType", title: "iOS client types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMLoginClient.h",
        travel: .message, notes: ["Wire field `clientType`, tag 3 of `login` (nim.md §2.1)."]
    ) { row in
        [
            row(0, "NIMLoginClientTypeUnknown", "Unknown", original: "未知类型"),
            row(1, "NIMLoginClientTypeAOS", "Android"),
            row(2, "NIMLoginClientTypeiOS", "iOS"),
            row(4, "NIMLoginClientTypePC", "PC"),
            row(8, "NIMLoginClientTypeWP", "Windows Phone"),
            row(16, "NIMLoginClientTypeWeb", "Web"),
            row(32, "NIMLoginClientTypeRestful", "REST API"),
            row(64, "NIMLoginClientTypemacOS", "macOS"),
        ]
    }

    /// C/Node `NIMClientType` (adds HarmonyOS 65).
    public static let clientTypeC = StatusTable(
        .nim, "NIMClientType", title: "C/Node client types", kind: .enumeration, source: nodeEnums,
        travel: .message,
        notes: ["node-nim is inconsistent about HarmonyOS: 65 here, 128 in NIMChatRoomClientType (nim.md §2.1)."]
    ) { row in
        [
            row(0, "kNIMClientTypeDefault", "Default, unset"),
            row(1, "kNIMClientTypeAndroid", "Android"),
            row(2, "kNIMClientTypeiOS", "iOS"),
            row(4, "kNIMClientTypePCWindows", "PC Windows"),
            row(16, "kNIMClientTypeWeb", "Web"),
            row(32, "kNIMClientTypeRestAPI", "REST API"),
            row(64, "kNIMClientTypeMacOS", "Mac"),
            row(65, "kNIMClientTypeHarmonyOS", "HarmonyOS"),
        ]
    }

    /// iOS `NIMSDKAuthMode`: whether a login authenticates through the IM server or the chatroom on its own.
    public static let sdkAuthMode = StatusTable(
        .nim, "NIMSDKAuthMode", title: "iOS SDK authentication modes", kind: .enumeration, source: loginHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMSDKAuthModeUndefined", "Undefined", original: "未定义"),
            row(1, "NIMSDKAuthModeIM", "Authenticated through the IM server", original: "通过 IM 服务器鉴权"),
            row(
                2, "NIMSDKAuthModeChatroom", "Chatroom authenticated on its own (independent chatroom login)",
                original: "聊天室单独鉴权"),
        ]
    }

    /// C/Node `NIMLoginState`.
    public static let loginStateC = StatusTable(
        .nim, "NIMLoginState", title: "C/Node login state", kind: .enumeration, source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(1, "kNIMLoginStateLogin", "Logged in", original: "登录状态"),
            row(2, "kNIMLoginStateUnLogin", "Not logged in", original: "未登录状态"),
        ]
    }

    /// C/Node `NIMLogoutType` (the source spells 1 `kNIMLogoutChangeAccout`).
    public static let logoutTypeC = StatusTable(
        .nim, "NIMLogoutType", title: "C/Node logout types", kind: .enumeration, source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(
                1, "kNIMLogoutChangeAccout", "Log out / switch account (back to the login screen)",
                original: "注销/切换帐号（返回到登录界面）"),
            row(
                2, "kNIMLogoutKickout", "Kicked (back to the login screen)",
                original: "被踢（返回到登录界面）"),
            row(3, "kNIMLogoutAppExit", "App exit", original: "程序退出"),
            row(
                4, "kNIMLogoutRelogin",
                """
                Reconnect: after a pseudo-login at start-up with a saved \
                password, or after going offline (account unchanged)
                """,
                original: """
                    重连操作，\
                    包括保存密码时启动程序伪登录后的重连操\
                    作以及掉线后的重连操作（帐号未变化）
                    """),
        ]
    }

    /// C/Node `NIMMultiSpotNotifyType`: what a client tells its other online clients.
    public static let multiSpotNotifyTypeC = StatusTable(
        .nim, "NIMMultiSpotNotifyType", title: "C/Node multi-device notification types", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(
                2, "kNIMMultiSpotNotifyTypeImIn", "Tell the other online clients that this one logged in",
                original: "通知其他在线端自己登录了"),
            row(
                3, "kNIMMultiSpotNotifyTypeImOut", "Tell the other online clients that this one logged out",
                original: "通知其他在线端自己退出"),
        ]
    }
}
