import IMWireCore

extension JMessageStatusCodes {
    /// iOS `JMSGTcpErrorCode`: the TCP server codes the iOS SDK names (a subset of `server`, plus
    /// 856003 that the doc lacks).
    public static let tcpErrorCode = StatusTable(
        .jmessage, "JMSGTcpErrorCode", title: "iOS names for TCP server codes", kind: .codes, source: iOSHeader,
        travel: .message, ranges: serverRanges.filter { $0.lower < 898000 }
    ) { row in
        [
            row(
                800003, "kJMSGErrorTcpAppkeyNotRegistered", "Appkey not registered", .fatalCredentials,
                original: "appKey 未被注册"),
            row(
                800009, "kJMSGErrorTcpServerInternalError", "Server internal error", .serverError,
                original: "服务器端内部错误"),
            row(
                800012, "kJMSGErrorTcpUserLogoutState", "User is logged out", .reauthenticate,
                original: "用户在登出状态"),
            row(
                800013, "kJMSGErrorTcpUserOfflineState", "User is offline", .reauthenticate,
                original: "用户在离线状态"),
            row(
                800016, "kJMSGErrorTcpUserDeviceNotMatch", "The requesting user's device does not match",
                .reauthenticate,
                original: "发起请求的用户设备不匹配"),
            row(
                801003, "kJMSGErrorTcpUserNotRegistered", "User not registered", .fatalCredentials,
                original: "用户未注册"),
            row(
                801004, "kJMSGErrorTcpUserPasswordError", "Wrong user password", .fatalCredentials,
                original: "用户密码错误"),
            row(801006, "kJMSGErrorTcpUserDisabled", "User disabled", .fatalCredentials, original: "用户被禁用"),
            row(
                801007, "kJMSGErrorTcpLoginMultiChannelError", "Login failed: logged in over several channels at once",
                .fatalConflict,
                original: "多通道同时登录错误，登录失败"),
            row(
                803003, "kJMSGErrorTcpTargetUserNotExist", "Target user does not exist", .notFound,
                original: "目标用户不存在"),
            row(
                803004, "kJMSGErrorTcpTargetGroupNotExist", "Target group does not exist", .notFound,
                original: "目标群组不存在"),
            row(
                803005, "kJMSGErrorTcpUserNotInGroup", "User is not in the group", .notMember,
                original: "用户不在群组里"),
            row(
                803008, "kJMSGErrorTcpUserInBlacklist", "User is in the blacklist", .permissionDenied,
                original: "用户在黒名单里"),
            row(
                803009, "kJMSGErrorTcpContentIsIllegal", "Illegal content", .invalidRequest,
                original: "内容不合法"),
            row(
                803012, "kJMSGErrorTcpUserBannedSendMessage", "Sending failed: the requesting user is muted",
                .permissionDenied,
                original: "发送消息失败，请求用户被禁言"),
            row(
                810002, "kJMSGErrorTcpGroupMembersEmpty", "Group member list empty", .invalidRequest,
                original: "群组成员列表为空"),
            row(
                810007, "kJMSGErrorTcpGroupMembersDuplicated", "Duplicate group members", .invalidRequest,
                original: "群组成员重复"),
            row(
                856003, "kJMSGErrorTcpGroupApplyRepeat",
                "Repeated request to join the group, or repeated invitation (not in the server doc)",
                .invalidRequest, original: "重复申请入群或重复邀请成员入群"),
            row(
                847002, "kJMSGErrorTcpUserBannedInChatRoom", "User is muted in the chatroom", .permissionDenied,
                original: "用户在聊天室中被禁言"),
            row(
                7_132_006, "kJMSGErrorTcpUserHasInChatRoomBlacklist", "User already in the chatroom blacklist",
                .invalidRequest,
                original: "用户已经在聊天室黑名单中"),
            row(
                7_133_001, "kJMSGErrorTcpUserNotInChatRoomBlacklist", "Target user is not in the chatroom blacklist",
                .notFound,
                original: "目标用户不在聊天室黑名单里"),
            row(
                7_130_002, "kJMSGErrorTcpUserHasInChatRoomAdminList", "User already in the chatroom admin list",
                .invalidRequest,
                original: "用户已经在聊天室管理员列表中"),
            row(
                7_131_002, "kJMSGErrorTcpUserNotInChatRoomAdminList", "Target user is not in the chatroom admin list",
                .invalidRequest,
                original: "目标用户不在聊天室管理员列表里"),
        ]
    }

    /// iOS `JMSGHttpErrorCode`: the 898xxx HTTP server codes the iOS SDK names (898005 is not in the doc).
    public static let httpErrorCode = StatusTable(
        .jmessage, "JMSGHttpErrorCode", title: "iOS names for HTTP server codes", kind: .codes, source: iOSHeader,
        travel: .message, notes: ["The header adds the HTTP status the server answers with, in parentheses."],
        ranges: serverRanges.filter { $0.lower == 898000 }
    ) { row in
        [
            row(
                898000, "kJMSGErrorHttpServerInternal", "Server internal error", .serverError,
                original: "服务器端内部错误"),
            row(
                898001, "kJMSGErrorHttpUserExist", "User to register already exists (HTTP 403)", .invalidRequest,
                original: "注册用户已经存在 (403)"),
            row(
                898002, "kJMSGErrorHttpUserNotExist", "User does not exist (HTTP 403)", .notFound,
                original: "用户不存在 (403)"),
            row(
                898003, "kJMSGErrorHttpPrameterInvalid", "Invalid parameter (HTTP 400)", .invalidRequest,
                original: "参数无效 (400)"),
            row(
                898004, "kJMSGErrorHttpPasswordError", "Wrong password (HTTP 403)", .invalidRequest,
                original: "密码错误 (403)"),
            row(
                898005, "kJMSGErrorHttpUidInvalid", "Invalid internal UID (HTTP 403; not in the server doc)",
                .invalidRequest,
                original: "内部UID 无效 (403)"),
            row(
                898006, "kJMSGErrorHttpGroupNotExist", "Group id does not exist (HTTP 403)", .notFound,
                original: "Gid不存在 (403)"),
            row(
                898007, "kJMSGErrorHttpMissingAuthenInfo", "HTTP request without authentication info",
                .fatalCredentials,
                original: "Http 请求没有验证信息"),
            row(
                898008, "kJMSGErrorHttpAuthenticationFailed", "HTTP request authentication failed", .fatalCredentials,
                original: "Http 请求验证失败"),
            row(
                898009, "kJMSGErrorHttpAppkeyNotExist", "Appkey does not exist", .fatalCredentials,
                original: "Appkey 不存在"),
            row(
                898010, "kJMSGErrorHttpTokenExpired", "HTTP request token expired", .reauthenticate,
                original: "Http 请求 token 过期"),
            row(
                898030, "kJMSGErrorHttpServerResponseTimeout", "Server response timed out", .serverError,
                original: "服务器端响应超时"),
        ]
    }

    /// iOS JMRTC error codes (jmessage.md §1.3 "JMRTC iOS", §1.5): local to the iOS SDK.
    public static let jmrtcIOS = StatusTable(
        .jmessage, "jmrtc-ios", title: "iOS JMRTC error codes 871001–871008", kind: .codes,
        source: "\(docs)/im_errorcode_ios.md (JMRTC iOS table)", travel: .clientLocal,
        notes: [
            "871001–871008 are iOS JMRTC; the Android SDK uses 871101 and above for other meanings (see `android`)."
        ]
    ) { row in
        [
            row(
                871001, "network error or tcp can not connected.", "Network error", .clientLocal,
                original: "网络错误"),
            row(
                871002, "the %@ operation cannot be performed in the %@ state.",
                "This action cannot start in the current state",
                .clientLocal, original: "当前状态不能发起此行为"),
            row(871003, "parameter error", "Parameter error", .clientLocal, original: "参数错误"),
            row(
                871004, "JMessage user is not start or login!", "The IM account is not logged in", .clientLocal,
                original: "IM 账户未登录"),
            row(
                871005, "currtent user login status is abnormal.", "The IM account's login state is abnormal",
                .clientLocal,
                original: "IM 账户登录状态异常"),
            row(
                871006, "the engine is not initialized.", "Audio/video engine not initialised", .clientLocal,
                original: "音视频引擎未初始化"),
            row(
                871007, "engine init fail，please initialize engine.", "Initialising the audio/video engine failed",
                .clientLocal,
                original: "初始化音视频引擎失败"),
            row(
                871008, "user is already in the call session.", "The user is already in a call", .clientLocal,
                original: "用户已经在通话中"),
        ]
    }
}
