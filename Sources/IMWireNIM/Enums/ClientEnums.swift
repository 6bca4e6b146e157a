import IMWireCore

// SDK-wide settings and services: log levels, SDK families, push display, anti-spam, red packets.
extension NIMStatusCodes {
    /// C/Node `NIMSDKLogLevel` (the source defines no 4).
    public static let sdkLogLevelC = StatusTable(
        .nim, "NIMSDKLogLevel", title: "C/Node SDK log levels", kind: .enumeration, source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(1, "kNIMSDKLogLevelFatal", "SDK fatal-level log", original: "SDK Fatal级别Log"),
            row(2, "kNIMSDKLogLevelError", "SDK error-level log", original: "SDK Error级别Log"),
            row(3, "kNIMSDKLogLevelWarn", "SDK warning-level log", original: "SDK Warn级别Log"),
            row(
                5, "kNIMSDKLogLevelApp", "SDK application-level log; usable in releases to keep the SDK log small",
                original: "SDK应用级别Log，正式发布时为了精简sdk log，可采用此级别"),
            row(
                6, "kNIMSDKLogLevelPro", "SDK debugging-process log: more detailed, for development and debugging",
                original: "SDK调试过程级别Log，更加详细，更有利于开发调试"),
        ]
    }

    /// C/Node `NIMSDKType`: which SDK family a client is.
    public static let sdkTypeC = StatusTable(
        .nim, "NIMSDKType", title: "C/Node SDK types", kind: .enumeration, source: nodeEnums, travel: .sdkEnum,
        notes: ["The source describes only 1 (Native); the meanings of 0 and 2–6 are read from their names."]
    ) { row in
        [
            row(0, "kNIMSDKTypeUNSET", "Unset (the source gives no description)"),
            row(
                1, "kNIMSDKTypeNative", "Native SDK, covering the different client types",
                original: "包含不同ClientType的原生SDK类型"),
            row(2, "kNIMSDKTypeRN", "React Native (read from the name; the source gives no description)"),
            row(3, "kNIMSDKTypeUniApp", "uni-app (read from the name; the source gives no description)"),
            row(4, "kNIMSDKTypeFlutter", "Flutter (read from the name; the source gives no description)"),
            row(5, "kNIMSDKTypeElectron", "Electron (read from the name; the source gives no description)"),
            row(6, "kNIMSDKTypeWeiXin", "WeiXin (WeChat) (read from the name; the source gives no description)"),
        ]
    }

    /// iOS `NIMPushNotificationDisplayType`.
    public static let pushNotificationDisplayType = StatusTable(
        .nim, "NIMPushNotificationDisplayType", title: "iOS push notification display types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMPushNotificationSetting.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMPushNotificationDisplayTypeDetail", "Show details", original: "显示详情"),
            row(2, "NIMPushNotificationDisplayTypeNoDetail", "Do not show details", original: "不显示详情"),
        ]
    }

    /// iOS `NIMLocalAntiSpamOperate`: the outcome of the local anti-spam word check.
    public static let localAntiSpamOperate = StatusTable(
        .nim, "NIMLocalAntiSpamOperate", title: "iOS local anti-spam results", kind: .enumeration,
        source: "\(iOSHeaders)/NIMAntiSpamOption.h", travel: .sdkEnum,
        notes: [
            """
            The header mixes the prefixes `NIMAntiSpamOperate` (0) and \
            `NIMAntiSpamResult` (1–4); the names are kept as spelt.
            """
        ]
    ) { row in
        [
            row(
                0, "NIMAntiSpamOperateFileNotExists", "The local anti-spam list does not exist",
                original: "本地反垃圾列表不存在"),
            row(1, "NIMAntiSpamResultLocalReplace", "Replaced locally", original: "本地替换"),
            row(2, "NIMAntiSpamResultLocalForbidden", "Blocked locally", original: "本地屏蔽"),
            row(3, "NIMAntiSpamResultServerForbidden", "Blocked by the server", original: "服务器屏蔽"),
            row(
                4, "NIMAntiSpamResultNotHit", "No word-list hit; the check passed",
                original: "没有命中词库，检查通过"),
        ]
    }

    /// iOS `NIMRedPacketServiceType`.
    public static let redPacketServiceType = StatusTable(
        .nim, "NIMRedPacketServiceType", title: "iOS red packet service types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMRedPacketRequest.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMRedPacketServiceTypeJRMF", "JRMF (Jinrong Mofang) red packets", original: "金融魔方红包")
        ]
    }
}
