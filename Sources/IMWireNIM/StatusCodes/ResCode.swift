import IMWireCore

extension NIMStatusCodes {
    static let csharpResCode = "NIM-CSharp-SDK@fcc7582 sdk/Src/Utility/NIMResponseCode.cs"
    static let nodeOnly = "\(nodeNIM)/client_def.ts (not in C#)"
    static let cLocal = "client-defined (kNIMLocalRes: numbers above 10000 are client-defined)"

    /// C/Node/C# `NIMResCode` (nim.md §1.3): the server codes as the native C SDK names them,
    /// plus its client-local codes ≥ 10000 and the independent-signaling server codes.
    public static let resCode = StatusTable(
        .nim, "NIMResCode", title: "C/Node/C# result codes (server and client-local)", kind: .codes,
        source: "\(nodeNIM)/client_def.ts; \(csharpResCode)", travel: .message,
        notes: [
            """
            Two numbers are defined twice in node-nim's enum: 10404 (kNIMResRoomNotExists, signaling \
            server; kNIMLocalResMsgFileNotExist, local) and 10417 (kNIMResRoomUidConflict, signaling \
            server; kNIMLocalResExist, local). Only the API context tells them apart.
            """,
            """
            C# lacks 508, 816, 10201, 10202, 10207, 10403, 10405–10410, 10416, 10419, 10420, 10508, 10602 \
            and 20005–20007; C# has kNIMLocalResAPIErrorChatroomMixError at 20004 where Node has 20005.
            """,
            """
            Conflicts with other sources: 406 (C: unchanged since \
            the last query), 508, 810 (C: invited successfully).
            """,
        ],
        ranges: serverRanges + [CodeRange(10000, nil, cLocal, source: "\(nodeNIM)/client_def.ts kNIMLocalRes comment")]
    ) { row in
        [
            row(0, "kNIMResError", "Unknown error", .serverError, original: "未知错误"),
            row(200, "kNIMResSuccess", "No error, all is well", .success, original: "没有错误，一切正常"),
            row(
                201, "kNIMResVersionError", "Incorrect client version", .invalidRequest,
                original: "客户端版本不正确"),
            row(
                302, "kNIMResUidPassError", "Wrong user name or password", .fatalCredentials,
                original: "用户名或密码错误"),
            row(403, "kNIMResForbidden", "Operation forbidden", .permissionDenied, original: "禁止操作"),
            row(
                404, "kNIMResNotExist", "The requested target (user or object) does not exist", .notFound,
                original: "请求的目标（用户或对象）不存在"),
            row(
                406, "kNIMResNoModify",
                "Data unchanged since the last query, for incremental updates (conflict: iOS reads 406 as read-only)",
                .success, original: "数据自上次查询以来未发生变化（用于增量更新）"),
            row(408, "kNIMResTimeoutError", "Request timed out", .retry, original: "请求过程超时"),
            row(414, "kNIMResParameterError", "Parameter error", .invalidRequest, original: "参数错误"),
            row(
                415, "kNIMResConnectionError", "Network connection error", .retry,
                original: "网络连接出现错误"),
            row(416, "kNIMResFrequently", "Operation too frequent", .rateLimited, original: "操作太过频繁"),
            row(
                417, "kNIMResExist",
                """
                Object already exists / repeated operation. Answering an automatic re-login: \
                reconnecting cannot continue, the app must log out to the login screen (a PC \
                demo shows 你在其他设备上登录过，请重新登录, "you logged in \
                on another device, log in again": UNCONFIRMED, repository not identified)
                """,
                .invalidRequest, original: "对象已经存在/重复操作",
                sources:
                    """
                    \(nodeNIM)/client_def.ts; login meaning: NIM-CSharp-SDK@fcc7582 \
                    sdk/Src/Core/api/Core/Client/NIMClientAPI.cs:304 RegAutoReloginCb
                    """,
                atLogin: .fatalConflict),
            row(419, "kNIMResOverrun", "Limit exceeded", .invalidRequest, original: "超限"),
            row(422, "kNIMResAccountBlock", "Account disabled", .fatalCredentials, original: "帐号被禁用"),
            row(
                500, "kNIMResUnknownError", "Unknown error, or one the server prefers not to tell", .serverError,
                original: "未知错误，或者不方便告诉你"),
            row(501, "kNIMResServerDataError", "Server data error", .serverError, original: "服务器数据错误"),
            row(503, "kNIMResTooBuzy", "Server too busy", .serverError, original: "服务器太忙"),
            row(
                508, "kNIMResExceedLimit", "Configured validity period exceeded", .invalidRequest,
                original: "超过配置有效期",
                sources: nodeOnly),
            row(
                509, "kNIMResInvalid", "Invalid protocol; protocol not allowed", .invalidRequest,
                original: "协议无效, 不允许访问的协议"),
            row(
                801, "kNIMResTeamECountLimit", "Team member limit reached", .invalidRequest,
                original: "已达到人数限制"),
            row(802, "kNIMResTeamENAccess", "No permission", .permissionDenied, original: "没有权限"),
            row(803, "kNIMResTeamENotExist", "Team does not exist", .notFound, original: "群不存在"),
            row(
                804, "kNIMResTeamEMemberNotExist", "User is not in the (interest) group", .notMember,
                original: "用户不在兴趣组里面"),
            row(805, "kNIMResTeamErrType", "Wrong team type", .invalidRequest, original: "群类型不对"),
            row(
                806, "kNIMResTeamLimit", "Team creation count limit", .invalidRequest,
                original: "创建群数量限制"),
            row(
                807, "kNIMResTeamUserStatusErr", "Team member in the wrong state", .invalidRequest,
                original: "群成员状态不对"),
            row(808, "kNIMResTeamApplySuccess", "Application succeeded", .success, original: "申请成功"),
            row(809, "kNIMResTeamAlreadyIn", "Already in the team", .invalidRequest, original: "已经在群里"),
            row(
                810, "kNIMResTeamInviteSuccess", "Invitation succeeded (conflict: iOS reads 810 as not a team member)",
                .success,
                original: "邀请成功"),
            row(
                811, "kNIMResForcePushCountLimit", "Too many accounts in the forced-push list", .invalidRequest,
                original: "强推列表账号数量超限"),
            row(
                813, "kNIMResTeamMemberLimit", "Succeeded, but some members are over their team count limit", .success,
                original: "操作成功，但部分成员的群数量超限"),
            row(
                816, "kNIMResTeamGetInfoListPartSuccess", "Batch team info query partly succeeded", .success,
                original: "批量查询群信息部分成功", sources: nodeOnly),
            row(
                997, "kNIMResInvalidProtocol", "Data (un)marshalling error: protocol expired", .invalidRequest,
                original: "数据解编错误代码 协议已失效"),
            row(998, "kNIMResEUnpacket", "Unpacking error", .invalidRequest, original: "解包错误"),
            row(999, "kNIMResEPacket", "Packing error", .serverError, original: "打包错误"),
            row(
                7101, "kNIMResInBlack", "Blacklisted by the receiver (SDK versions above 2.5.0)", .permissionDenied,
                original: "被接收方加入黑名单 SDK版本大于2.5.0支持"),
            row(
                10404, "kNIMResRoomNotExists",
                "Independent signaling: room does not exist (10404 is also kNIMLocalResMsgFileNotExist)",
                .notFound, original: "独立信令错误代码 房间不存在"),
            row(
                10405, "kNIMResRoomHasExists", "Signaling: room already exists", .invalidRequest,
                original: "房间已存在",
                sources: nodeOnly),
            row(
                10406, "kNIMResRoomMemberNotExists", "Signaling: not in the room", .notMember,
                original: "不在房间内",
                sources: nodeOnly),
            row(
                10407, "kNIMResRoomMemberHasExists", "Signaling: already in the room", .invalidRequest,
                original: "已经在房间内",
                sources: nodeOnly),
            row(
                10408, "kNIMResRoomInviteNotExists", "Signaling: invitation missing or expired", .notFound,
                original: "邀请不存在或已过期",
                sources: nodeOnly),
            row(
                10409, "kNIMResRoomInviteHasReject", "Signaling: invitation already rejected", .invalidRequest,
                original: "邀请已经拒绝",
                sources: nodeOnly),
            row(
                10410, "kNIMResRoomInviteHasAccept", "Signaling: invitation already accepted", .invalidRequest,
                original: "邀请已经接受了",
                sources: nodeOnly),
            row(
                10201, "kNIMResPeerNimOffline", "Peer is not online on NIM", .notFound,
                original: "对方云信不在线",
                sources: nodeOnly),
            row(
                10202, "kNIMResPeerPushOffline", "Peer is not reachable by push either", .notFound,
                original: "对方推送亦不可达",
                sources: nodeOnly),
            row(
                10417, "kNIMResRoomUidConflict", "Signaling: uid conflict (10417 is also kNIMLocalResExist)",
                .invalidRequest,
                original: "uid冲突"),
            row(
                10419, "kNIMResRoomMemberExceed", "Signaling: room member limit exceeded", .invalidRequest,
                original: "房间人数超限",
                sources: nodeOnly),
            row(
                10420, "kNIMResRoomMemberHasExistsOtherClient",
                "Signaling: already in the room (on another own client)",
                .invalidRequest, original: "已经在房间内（自己的其他端）", sources: nodeOnly),
            row(
                10000, "kNIMLocalRes", "Marker: every number above is client-defined; its value must not change",
                .clientLocal,
                original: """
                    客户端自定义的错误号 值大于该错误号的都是客户端自定义的错误号。\
                    不能随意更改其值！
                    """, travel: .clientLocal),
            row(
                10001, "kNIMResRoomLocalNeedRequestAgain",
                "Local: request chatroom entry permission from the IM server again",
                .clientLocal,
                original: "客户端本地错误号，需要重新向IM服务器获取进入聊天室权限",
                travel: .clientLocal),
            row(
                10010, "kNIMLocalResNetworkError", "Local: local network error; check the network", .clientLocal,
                original: "客户端本地错误号，本地网络错误，需要检查本地网络",
                travel: .clientLocal),
            row(
                10200, "kNIMLocalResMsgNosUploadCancel", "Local: NOS upload paused (file message or stop_upload_ex)",
                .clientLocal,
                original: """
                    客户端自定义的消息错误号 \
                    (发送文件消息或者stop_upload_ex)HTTP upload to NOS上传暂停
                    """, travel: .clientLocal),
            row(
                10206, "kNIMLocalResMsgNosDownloadCancel",
                "Local: NOS download paused (file message or stop_download_ex)",
                .clientLocal, original: "(收到文件消息或者stop_download_ex)HTTP download from NOS下载暂停",
                travel: .clientLocal),
            row(
                10207, "kNIMLocalResMsgNosDownloadCheckError",
                "Local: downloaded file failed the check (size differs from the file info)",
                .clientLocal,
                original: """
                    收到文件消息，NOS下载完成后本地文件检查错误，\
                    一般为下载的文件大小与文件信息不符
                    """,
                sources: nodeOnly, travel: .clientLocal),
            row(
                10403, "kNIMLocalResMsgAccessDenied", "Local: no access to the local file", .clientLocal,
                original: "本地文件无访问权限",
                sources: nodeOnly, travel: .clientLocal),
            row(
                10404, "kNIMLocalResMsgFileNotExist",
                "Local: local resource does not exist (10404 is also kNIMResRoomNotExists)",
                .clientLocal, original: "本地资源不存在", travel: .clientLocal),
            row(
                10414, "kNIMLocalResParameterError",
                """
                Local: parameter error (received message: resource URL \
                invalid, cannot download); C# name kNIMLocalResMsgUrlInvalid
                """,
                .clientLocal,
                original: "本地错误码，参数错误，(收到消息，资源下载地址无效，无法下载)",
                travel: .clientLocal),
            row(
                10416, "kNIMLocalResFrequently", "Local: operation too frequent", .clientLocal,
                original: "本地错误码，操作太过频繁",
                sources: nodeOnly, travel: .clientLocal),
            row(
                10417, "kNIMLocalResExist",
                """
                Local: object exists / repeated operation (resource already downloaded); \
                C# name kNIMLocalResMsgFileExist (10417 is also kNIMResRoomUidConflict)
                """,
                .clientLocal,
                original: """
                    本地错误码，对象已经存在/重复操作，\
                    (收到消息，本地资源已存在，不需要重复下载)
                    """, travel: .clientLocal),
            row(
                10450, "kNIMLocalResParaError", "Local: wrong API arguments", .clientLocal,
                original: "调用api，传入的参数有误",
                travel: .clientLocal),
            row(
                10502, "kNIMLocalResMsgSendNosError", "Local: sending a message, the NOS upload failed", .clientLocal,
                original: "发送消息，上传NOS失败", travel: .clientLocal),
            row(
                10508, "kNIMLocalResExceedLimit", "Local: configured validity exceeded or a required parameter missing",
                .clientLocal,
                original: "本地错误码,超过配置有效期或者所需参数不存在", sources: nodeOnly,
                travel: .clientLocal),
            row(
                10600, "kNIMLocalResCheckMsgDBFailed",
                "Local: importing history, identity or encryption key check failed",
                .clientLocal, original: "导入消息历史时验证身份和加密密钥不通过",
                travel: .clientLocal),
            row(
                10601, "kNIMLocalResImportMsgDBFailed", "Local: importing history, writing records failed",
                .clientLocal,
                original: "导入消息历史时写记录失败", travel: .clientLocal),
            row(
                10602, "kNIMLocalResTMembersSyncUndone", "Local: team members not yet synchronised", .clientLocal,
                original: "群成员尚同步完成", sources: nodeOnly, travel: .clientLocal),
            row(
                11100, "kNIMLocalResRtsError", "Local RTS session: unknown error", .clientLocal,
                original: "客户端自定义的RTS错误号 rts会话 未知错误", travel: .clientLocal),
            row(
                11101, "kNIMLocalResRtsIdNotExist", "Local RTS session: id does not exist", .clientLocal,
                original: "rts会话 id不存在",
                travel: .clientLocal),
            row(
                11417, "kNIMLocalResRtsVChatExist", "Local RTS session: audio/video already exists", .clientLocal,
                original: "rts会话 音视频已存在", travel: .clientLocal),
            row(
                11501, "kNIMLocalResRtsStatusError", "Local RTS session: channel in the wrong state", .clientLocal,
                original: "rts会话 通道状态不正确", travel: .clientLocal),
            row(
                11510, "kNIMLocalResRtsChannelNotExist", "Local RTS session: channel does not exist", .clientLocal,
                original: "rts会话 通道不存在", travel: .clientLocal),
            row(13001, "kNIMResRoomLinkError", "Chatroom: main (IM) link error", .retry, original: "主链接错误"),
            row(
                13002, "kNIMResRoomError", "Chatroom state abnormal", .invalidRequest,
                original: "聊天室状态异常"),
            row(
                13003, "kNIMResRoomBlackBeOut", "Blacklisted users may not enter", .permissionDenied,
                original: "黑名单用户禁止进入"),
            row(13004, "kNIMResRoomBeMuted", "Muted", .permissionDenied, original: "被禁言"),
            row(
                13006, "kNIMResRoomAllMuted", "Chatroom is muted as a whole; only managers may speak",
                .permissionDenied,
                original: "聊天室处于整体禁言状态,只有管理员能发言"),
            row(
                20000, "kNIMLocalResAPIErrorInitUndone",
                "Local API misuse: not initialised, or initialisation did not complete",
                .clientLocal,
                original: "客户端自定义的api调用问题 还未初始化或初始化未正常完成",
                travel: .clientLocal),
            row(
                20001, "kNIMLocalResAPIErrorLoginUndone",
                "Local API misuse: not logged in or login not complete (C# …EnterUndone)",
                .clientLocal, original: "还未登陆或登录未完成", travel: .clientLocal),
            row(
                20002, "kNIMLocalResAPIErrorLogined", "Local API misuse: already logged in (C# …Entered)",
                .clientLocal,
                original: "已经登录", travel: .clientLocal),
            row(
                20003, "kNIMLocalResAPIErrorVersionError", "Local: wrong SDK version, may cause other problems",
                .clientLocal,
                original: "SDK版本不对，可能会引发其他问题", travel: .clientLocal),
            row(
                20004, "kNIMLocalResAPIErrorChatroomMixError",
                "Local: chatroom modes mixed; the C# value of the name Node defines as 20005",
                .clientLocal, sources: "\(csharpResCode) (nim.md §1.3 prose)", travel: .clientLocal),
            row(
                20005, "kNIMLocalResAPIErrorChatroomMixError",
                "Local: chatroom modes mixed (logged-in and anonymous at once); C# defines this name as 20004",
                .clientLocal,
                original: "聊天室模式混用错误，不支持同时以登陆状态和匿名状态登陆聊天室",
                sources: nodeOnly, travel: .clientLocal),
            row(
                20006, "kNIMLocalResAPIErrorLoginExceedRetryCount", "Local: login failed, retry count exceeded",
                .clientLocal,
                original: "登录失败，超过重试次数", sources: nodeOnly, travel: .clientLocal),
            row(
                20007, "kNIMLocalResAPIErrorRunOutOfLinkAddress", "Local: ran out of link addresses", .clientLocal,
                original: "连接地址用完了", sources: nodeOnly, travel: .clientLocal),
        ]
    }
}
