import IMWireCore

extension NIMStatusCodes {
    /// iOS 5.4.0 `NIMRemoteErrorCode` (domain `NIMRemoteErrorDomain`): the server codes as the
    /// iOS SDK names them (nim.md §1.1 column "iOS", Appendix A).
    public static let remoteErrorCode = StatusTable(
        .nim, "NIMRemoteErrorCode", title: "server status codes as named by the iOS SDK 5.4.0", kind: .codes,
        source: "\(iOSHeaders)/NIMGlobalDefs.h", travel: .message,
        notes: [
            """
            Conflicts with other sources: 406 (read-only), 415, 508, 810 (not a member; \
            C/Web/docs: invited successfully), 812 (in the team blacklist; Web/docs: team muted).
            """
        ],
        ranges: serverRanges
    ) { row in
        [
            row(
                201, "NIMRemoteErrorCodeInvalidVersion", "Wrong client version", .invalidRequest,
                original: "客户端版本错误"),
            row(302, "NIMRemoteErrorCodeInvalidPass", "Wrong password", .fatalCredentials, original: "密码错误"),
            row(
                402, "NIMRemoteErrorCodeInvalidCRC", "Checksum verification failed", .invalidRequest,
                original: "CheckSum校验失败"),
            row(
                403, "NIMRemoteErrorCodeForbidden", "Illegal operation or no permission", .permissionDenied,
                original: "非法操作或没有权限"),
            row(
                404, "NIMRemoteErrorCodeNotExist", "The requested target (user or object) does not exist", .notFound,
                original: "请求的目标（用户或对象）不存在"),
            row(
                406, "NIMRemoteErrorCodeReadOnly",
                """
                Object is read-only (conflict: C reads 406 as unchanged \
                since the last query; Web treats it as success)
                """, .permissionDenied,
                original: "对象只读"),
            row(408, "NIMRemoteErrorCodeTimeoutError", "Request timed out", .retry, original: "请求过程超时"),
            row(414, "NIMRemoteErrorCodeParameterError", "Parameter error", .invalidRequest, original: "参数错误"),
            row(
                415, "NIMRemoteErrorCodeConnectionError",
                "Network connection error (conflict: Web reads 415 as service unavailable)", .retry,
                original: "网络连接出现错误"),
            row(
                416, "NIMRemoteErrorCodeFrequently", "Operation too frequent", .rateLimited,
                original: "操作太过频繁"),
            row(
                417, "NIMRemoteErrorCodeExist", "Object already exists", .invalidRequest,
                original: "对象已经存在"),
            row(422, "NIMRemoteErrorAccountBlock", "Account disabled", .fatalCredentials, original: "账号被禁用"),
            row(500, "NIMRemoteErrorCodeUnknownError", "Unknown error", .serverError, original: "未知错误"),
            row(
                501, "NIMRemoteErrorCodeServerDataError", "Server data error", .serverError,
                original: "服务器数据错误"),
            row(507, "NIMRemoteErrorCodeNotEnough", "Insufficient", .invalidRequest, original: "不足"),
            row(
                508, "NIMRemoteErrorCodeDomainExpireOld",
                """
                Time limit exceeded (C: configured validity exceeded; \
                Web: deletion period passed; docs: recall time exceeded)
                """, .invalidRequest,
                original: "超过期限"),
            row(
                509, "NIMRemoteErrorCodeInvalidProtocol", "Invalid protocol", .invalidRequest,
                original: "无效协议"),
            row(510, "NIMRemoteErrorCodeUserNotExist", "User does not exist", .notFound, original: "用户不存在"),
            row(
                514, "NIMRemoteErrorCodeServiceUnavailable", "Service unavailable", .serverError,
                original: "服务不可用"),
            row(
                801, "NIMRemoteErrorCodeTeamMemberLimit", "Team member count over the limit", .invalidRequest,
                original: "群人数超过上限"),
            row(
                802, "NIMRemoteErrorCodeTeamAccessError", "No permission to operate on the team", .permissionDenied,
                original: "没有操作群的权限"),
            row(803, "NIMRemoteErrorCodeTeamNotExists", "Team does not exist", .notFound, original: "群组不存在"),
            row(
                804, "NIMRemoteErrorCodeNotInTeam", "User is not in the (interest) group", .notMember,
                original: "用户不在兴趣组内"),
            row(
                805, "NIMRemoteErrorCodeTeamInvaildType", "Wrong team type", .invalidRequest,
                original: "群类型错误"),
            row(
                806, "NIMRemoteErrorCodeTeamCountLimit", "Team count limit exceeded", .invalidRequest,
                original: "超出群个数限制"),
            row(
                809, "NIMRemoteErrorCodeTeamAlreadyIn", "Already in the team", .invalidRequest,
                original: "已经在群里"),
            row(
                810, "NIMRemoteErrorCodeTeamNotMember",
                "Not a team member (conflict: C, Web and docs read 810 as invited successfully)",
                .notMember, original: "不是群成员"),
            row(
                812, "NIMRemoteErrorCodeTeamBlackList",
                "In the team blacklist (conflict: Web and docs read 812 as team muted)",
                .permissionDenied, original: "在群黑名单中"),
            row(998, "NIMRemoteErrorCodeEUnpacket", "Unpacking error", .invalidRequest, original: "解包错误"),
            row(999, "NIMRemoteErrorCodeEPacket", "Packing error", .serverError, original: "打包错误"),
            row(
                7101, "NIMRemoteErrorCodeInBlackList", "In the peer's blacklist", .permissionDenied,
                original: "在对方的黑名单中"),
            row(
                13002, "NIMRemoteErrorCodeInvalidChatroom", "Chatroom state abnormal", .invalidRequest,
                original: "聊天室状态异常"),
            row(
                13003, "NIMRemoteErrorCodeInChatroomBlackList",
                "Account is in the blacklist; may not enter the chatroom",
                .permissionDenied, original: "账号在黑名单中,不允许进入聊天室"),
            row(
                13004, "NIMRemoteErrorCodeInChatroomMuteList", "In the mute list; may not speak", .permissionDenied,
                original: "在禁言列表中,不允许发言"),
            row(
                13006, "NIMRemoteErrorCodeInChatroomAllMute", "Chatroom is muted as a whole; only managers may speak",
                .permissionDenied, original: "聊天室处于整体禁言状态,只有管理员能发言"),
        ]
    }
}
