import IMWireCore

extension NIMStatusCodes {
    /// Web SDK 8.5.0 error-message table (nim.md §1.4): `genError(code)` returns no error for
    /// 200, 406, 808 and 810, the table's message for listed codes, and "操作失败" for any other.
    public static let webErrors = StatusTable(
        .nim, "web-error", title: "Web SDK 8.5.0 error messages and success set", kind: .codes,
        source: "\(webBundle) error table `a`", travel: .message,
        notes: [
            "Unlisted numeric codes get the message 操作失败 (operation failed).",
            """
            The table's 18 string-keyed SDK-local errors (Connect_Failed, \
            Error_Timeout, …) have no number and are not in the registry.
            """,
            "sendMsg (7_1) declares trivialErrorCodes [7101]: its response body is still parsed when 7101 comes back.",
        ],
        ranges: serverRanges
    ) { row in
        [
            row(200, "", "Success: the Web SDK reports no error", .success),
            row(
                201, "", "Wrong client version, upgrade the SDK", .invalidRequest,
                original: "客户端版本不对, 需升级sdk"),
            row(
                302, "",
                "Wrong user name or password: check that appKey and token are valid and that account and token match",
                .fatalCredentials,
                original: "用户名或密码错误, 请检查appKey和token是否有效, account和token是否匹配"),
            row(
                403, "", "Illegal operation or no permission", .permissionDenied,
                original: "非法操作或没有权限"),
            row(
                404, "", "Object (user, team, chatroom) does not exist", .notFound,
                original: "对象(用户/群/聊天室)不存在"),
            row(405, "", "Parameter too long", .invalidRequest, original: "参数长度过长"),
            row(406, "", "Success: the Web SDK reports no error (conflict: iOS reads 406 as read-only)", .success),
            row(408, "", "Client request timed out", .retry, original: "客户端请求超时"),
            row(414, "", "Parameter error", .invalidRequest, original: "参数错误"),
            row(
                415, "",
                """
                Service unavailable / no chatroom server to allocate \
                (conflict: iOS and C read 415 as a network error)
                """,
                .serverError, original: "服务不可用/没有聊天室服务器可分配"),
            row(
                416, "", "Frequency control: the command is blocked for r[0] seconds", .rateLimited,
                original: "频率控制",
                sources: "\(webBundle) parseResponse",
                wait: WaitHint(
                    field: "r[0] of the response", unit: .seconds,
                    scope: "the command that got 416; the Web SDK blocks it for 1000*r[0] ms (frequencyControlDuration)"
                )),
            row(417, "", "Repeated operation", .invalidRequest, original: "重复操作"),
            row(422, "", "Account disabled", .fatalCredentials, original: "帐号被禁用"),
            row(500, "", "Server internal error", .serverError, original: "服务器内部错误"),
            row(501, "", "Database operation failed", .serverError, original: "数据库操作失败"),
            row(503, "", "Server busy", .serverError, original: "服务器繁忙"),
            row(508, "", "Deletion period has passed", .invalidRequest, original: "删除有效期过了"),
            row(509, "", "No longer valid", .invalidRequest, original: "已失效"),
            row(700, "", "Batch operation partly failed", .success, original: "批量操作部分失败"),
            row(801, "", "Team member limit reached", .invalidRequest, original: "群人数达到上限"),
            row(802, "", "No permission", .permissionDenied, original: "没有权限"),
            row(
                803, "", "Team does not exist or has not changed", .notFound,
                original: "群不存在或未发生变化"),
            row(804, "", "User is not in the team", .notMember, original: "用户不在群里面"),
            row(805, "", "Team type does not match", .invalidRequest, original: "群类型不匹配"),
            row(806, "", "Team creation count limit reached", .invalidRequest, original: "创建群数量达到限制"),
            row(807, "", "Team member in the wrong state", .invalidRequest, original: "群成员状态不对"),
            row(808, "", "Success: the Web SDK reports no error (C: application succeeded)", .success),
            row(809, "", "Already in the team", .invalidRequest, original: "已经在群里"),
            row(
                810, "",
                """
                Success: the Web SDK reports no error (C: invitation \
                succeeded; conflict: iOS reads 810 as not a member)
                """, .success),
            row(
                811, "", "Too many accounts in the forced-push list", .invalidRequest,
                original: "强推列表中帐号数量超限"),
            row(
                812, "", "Team is muted (conflict: iOS reads 812 as in the team blacklist)", .permissionDenied,
                original: "群被禁言"),
            row(
                813, "", "Team count limit: only some members were added", .success,
                original: "因群数量限制，部分拉人成功"),
            row(
                814, "", "Team read receipts are not allowed", .permissionDenied,
                original: "禁止使用群组消息已读服务"),
            row(815, "", "Team manager count limit", .invalidRequest, original: "群管理员人数上限"),
            row(816, "", "Batch operation partly failed", .success, original: "批量操作部分失败"),
            row(997, "", "Protocol no longer valid", .invalidRequest, original: "协议已失效"),
            row(998, "", "Unpacking error", .invalidRequest, original: "解包错误"),
            row(999, "", "Packing error", .serverError, original: "打包错误"),
            row(7101, "", "Blacklisted by the peer", .permissionDenied, original: "被拉黑"),
            row(9102, "", "Channel no longer valid (net call)", .invalidRequest, original: "通道失效"),
            row(
                9103, "", "The call was already answered or rejected on another device", .invalidRequest,
                original: "已经在其他端接听/拒绝过这通电话"),
            row(
                11001, "", "Peer offline, the call cannot be delivered", .notFound,
                original: "对方离线, 通话不可送达"),
            row(13002, "", "Chatroom state abnormal", .invalidRequest, original: "聊天室状态异常"),
            row(13003, "", "In the blacklist", .permissionDenied, original: "在黑名单中"),
            row(13004, "", "In the mute list", .permissionDenied, original: "在禁言名单中"),
            row(
                13006, "", "Chatroom is muted as a whole; only managers may speak", .permissionDenied,
                original: "聊天室处于整体禁言状态,只有管理员能发言"),
        ]
    }
}
