import IMWireCore

extension NIMStatusCodes {
    /// iOS 5.4.0 `NIMLocalErrorCode` (domain `NIMLocalErrorDomain`, nim.md §1.2): made up by the SDK.
    public static let localErrorCode = StatusTable(
        .nim, "NIMLocalErrorCode", title: "iOS SDK local error codes", kind: .codes,
        source: "\(iOSHeaders)/NIMGlobalDefs.h", travel: .clientLocal
    ) { row in
        [
            row(1, "NIMLocalErrorCodeInvalidParam", "Wrong parameter", .clientLocal, original: "错误的参数"),
            row(
                2, "NIMLocalErrorCodeInvalidMedia", "Media file problem", .clientLocal,
                original: "多媒体文件异常"),
            row(3, "NIMLocalErrorCodeInvalidPicture", "Image problem", .clientLocal, original: "图片异常"),
            row(4, "NIMLocalErrorCodeInvalidUrl", "URL problem", .clientLocal, original: "url异常"),
            row(
                5, "NIMLocalErrorCodeIOError", "Reading or writing a file failed", .clientLocal,
                original: "读取/写入文件失败"),
            row(6, "NIMLocalErrorCodeInvalidToken", "Invalid token", .clientLocal, original: "无效的token"),
            row(
                7, "NIMLocalErrorCodeHttpReqeustFailed", "HTTP request failed", .clientLocal,
                original: "Http请求失败"),
            row(
                8, "NIMLocalErrorCodeAudioRecordErrorNoPermission", "No permission to record audio", .clientLocal,
                original: "无录音权限"),
            row(
                9, "NIMLocalErrorCodeAudioRecordErrorInitFailed", "Audio recording initialisation failed", .clientLocal,
                original: "录音初始化失败"),
            row(
                10, "NIMLocalErrorCodeAudioRecordErrorRecordFailed", "Audio recording failed", .clientLocal,
                original: "录音失败"),
            row(
                11, "NIMLocalErrorCodeAudioPlayErrorInitFailed", "Playback initialisation failed", .clientLocal,
                original: "播放初始化失败"),
            row(
                12, "NIMLocalErrorCodeSQLFailed", "SQL statement failed", .clientLocal,
                original: "SQL语句执行失败"),
            row(
                13, "NIMLocalErrorCodeUserInfoNeeded", "User info missing (not logged in or no profile given)",
                .clientLocal,
                original: "用户信息缺失 (未登录 或 未提供用户资料)"),
            row(
                14, "NIMLocalErrorCodeAppKeyNeed", "AppKey missing: e.g. login called before an AppKey was registered",
                .clientLocal,
                original: "AppKey 缺失，未注册 AppKey 就进行登录行为之类的接口"),
            row(
                15, "NIMLocalErrorCodeAutoLoginRetryLimit",
                "Automatic login over its retry limit, usually a network that connects but cannot exchange packets",
                .clientLocal,
                original: """
                    自动登录超过次数限制，一般情况下都是当前网络有问题引起，\
                    如当前网络可以连接，但无法自由收发包等
                    """),
            row(
                16, "NIMLocalErrorCodeSameOperationInProgress",
                "The same operation is in progress; do not call it again", .clientLocal,
                original: "相同的操作正在执行，请不要多次调用"),
            row(
                17, "NIMLocalErrorCodeRequestChatroomAddressesFailed",
                "Fetching chatroom server addresses failed (independent mode)",
                .clientLocal, original: "独立模式下获取聊天室服务器地址失败"),
            row(
                18, "NIMLocalErrorCodeTeamReceiptDisabled", "Team read receipts are off; enable them in NIMSDKConfig",
                .clientLocal,
                original: "群已读回执功能未开启，请使用 NIMSDKConfig 进行开启"),
            row(
                19, "NIMLocalErrorCodeManualCancelTask", "Task cancelled by the caller", .clientLocal,
                original: "主动取消任务"),
        ]
    }
}
