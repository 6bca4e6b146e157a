import IMWireCore

extension JMessageStatusCodes {
    /// iOS `JMSGSDKErrorCode` 86xxxx: made up by the iOS SDK. Where the iOS error-code doc lists
    /// a code, its English message is the meaning (the doc lists 34 of the 52).
    public static let sdkErrorCode = StatusTable(
        .jmessage, "JMSGSDKErrorCode", title: "iOS SDK local error codes 86xxxx", kind: .codes, source: iOSHeader,
        travel: .clientLocal,
        notes: [
            """
            English meanings in quotes are the messages of \
            \(docs)/im_errorcode_ios.md; `original` is the header's Chinese comment.
            """
        ]
    ) { row in
        let both = "\(iOSHeader); \(docs)/im_errorcode_ios.md"
        return [
            row(
                860015, "kJMSGErrorSDKNetworkDownloadFailed", "\"Network downloading media failed.\"", .clientLocal,
                original: "下载失败", sources: both),
            row(
                860016, "kJMSGErrorSDKNetworkOtherError", "Other network failure", .clientLocal,
                original: "其他网络原因"),
            row(
                860017, "kJMSGErrorSDKNetworkTokenFailed", "The server failed to get the user token", .clientLocal,
                original: "服务器获取用户Token失败"),
            row(
                860018, "kJMSGErrorSDKNetworkUploadFailed", "\"Network uploading media failed\"", .clientLocal,
                original: "上传资源文件失败",
                sources: both),
            row(
                860019, "kJMSGErrorSDKNetworkUploadTokenVerifyFailed", "Upload token verification failed", .clientLocal,
                original: "上传资源文件Token验证失败"),
            row(
                860020, "kJMSGErrorSDKNetworkUploadTokenGetFailed", "\"Getting upload token failed\"", .clientLocal,
                original: "获取服务器Token失败", sources: both),
            row(
                860021, "kJMSGErrorSDKNetworkResultUnexpected",
                "\"Network result is invalid\" (the server did not answer as agreed)",
                .clientLocal, original: "服务器返回数据错误（没有按约定返回）", sources: both),
            row(
                860030, "kJMSGErrorSDKNetworkDataFormatInvalid", "The server's data format is wrong", .clientLocal,
                original: "服务器端返回数据格式错误"),
            row(
                861000, "kJMSGErrorSDKDBDeleteFailed", "Database delete failed (expected to succeed)", .clientLocal,
                original: "数据库删除失败 (预期应该成功)"),
            row(
                861001, "kJMSGErrorSDKDBUpdateFailed", "Database update failed (expected to succeed)", .clientLocal,
                original: "数据库更新失败 (预期应该成功)"),
            row(
                861002, "kJMSGErrorSDKDBSelectFailed", "Database query failed (expected to succeed)", .clientLocal,
                original: "数据库查询失败 (预期应该成功)"),
            row(
                861003, "kJMSGErrorSDKDBInsertFailed", "Database insert failed (expected to succeed)", .clientLocal,
                original: "数据库插入失败 (预期应该成功)"),
            row(
                861004, "kJMSGErrorSDKDBMigrateFailed", "\"DB Migrating failed\"", .clientLocal,
                original: "数据库迁移失败",
                sources: both),
            row(
                861100, "kJMSGErrorSDKParamAppkeyInvalid", "\"Appkey is invalid\"", .clientLocal,
                original: "Appkey 不合法", sources: both),
            row(
                861101, "kJMSGErrorSDKParamInternalInvalid", "\"Internal param check failure\"", .clientLocal,
                original: "SDK 内部方法参数检查错误", sources: both),
            row(862001, "kJMSGQiniuTokenInvalid", "Qiniu (storage) related", .clientLocal, original: "七牛相关"),
            row(
                863001, "kJMSGErrorSDKParamUsernameInvalid", "\"Username is invalid\"", .clientLocal,
                original: "用户名不合法", sources: both),
            row(
                863002, "kJMSGErrorSDKParamPasswordInvalid", "\"Password is invalid\"", .clientLocal,
                original: "用户密码不合法", sources: both),
            row(
                863004, "kJMSGErrorSDKUserNotLogin", "\"User is not at Login state\"", .clientLocal,
                original: "用户未登录",
                sources: both),
            row(
                863005, "kJMSGErrorSDKUserNumberOverflow",
                "\"Request number over flow\" (at most 500 users per request)", .clientLocal,
                original: "请求用户数量超出限制（目前单次最大请求500个）", sources: both),
            row(
                863006, "kJMSGErrorSDKUserInvalidState", "\"User repeat Login fault\" (already logged in)",
                .clientLocal,
                original: "用户已登录", sources: both),
            row(
                863007, "kJMSGErrorSDKUserLogoutingState", "\"User is logouting\"", .clientLocal,
                original: "用户正在退出的过程中",
                sources: both),
            row(
                863008, "kJMSGErrorSDKUserAddFriendFailState", "\"Add friend fault\"", .clientLocal,
                original: "添加好友失败",
                sources: both),
            row(
                863009, "kJMSGErrorSDKUserDeleteFriendFailState", "\"Delete friend fault\"", .clientLocal,
                original: "删除好友失败",
                sources: both),
            row(
                864001, "kJMSGErrorSDKNotMediaMessage", "\"It is not a media message\"", .clientLocal,
                original: "这不是一条媒体消息",
                sources: both),
            row(
                864002, "kJMSGErrorSDKMediaResourceMissing",
                "\"Media resource is missing\" (download path or data lost)", .clientLocal,
                original: "下载媒体资源路径或者数据意外丢失", sources: both),
            row(
                864003, "kJMSGErrorSDKMediaCrcCodeIllegal", "\"Media crc32 code is invalid\"", .clientLocal,
                original: "媒体CRC码无效",
                sources: both),
            row(
                864004, "kJMSGErrorSDKMediaCrcVerifyFailed", "\"Media crc check failure\"", .clientLocal,
                original: "媒体CRC校验失败",
                sources: both),
            row(
                864005, "kJMSGErrorSDKMediaUploadEmptyFile",
                "\"Uploading media file is empty\" (the file does not exist)", .clientLocal,
                original: "上传媒体文件时, 发现文件不存在", sources: both),
            row(
                864006, "kJMSGErrorSDKMediaHashCodeIllegal", "Media hash code invalid", .clientLocal,
                original: "媒体HASH码无效"),
            row(
                864007, "kJMSGErrorSDKMediaHashVerifyFailed", "\"Media Hash value verify failure\"", .clientLocal,
                original: "媒体HASH校验失败",
                sources: both),
            row(
                864008, "kJMSGErrorSDKMessageNotSupportForward", "This message cannot be forwarded", .clientLocal,
                original: "这条消息不支持转发"),
            row(
                865001, "kJMSGErrorSDKParamContentInvalid", "\"Message content is invalid\"", .clientLocal,
                original: "无效的消息内容",
                sources: both),
            row(
                865002, "kJMSGErrorSDKParamMessageNil", "\"Message is nil\"", .clientLocal, original: "空消息",
                sources: both),
            row(
                865003, "kJMSGErrorSDKMessageNotPrepared", "\"Message is not prepared for sending\"", .clientLocal,
                original: "消息不符合发送的基本条件检查", sources: both),
            row(
                865004, "kJMSGErrorSDKMessageNotInGroup", "\"You are not in the group for sending message\"",
                .clientLocal,
                original: "你不是群组成员", sources: both),
            row(
                865005, "kJMSGErrorSDKMessageProtocolInvalidJsonFormat",
                "Illegal JSON: the message JSON protocol cannot be parsed",
                .clientLocal, original: "非法的 JSON 格式, 无法解析 Message JSON Protocol"),
            row(
                865006, "kJMSGErrorSDKMessageProtocolLackFields",
                "Wrong message protocol format, perhaps missing fields", .clientLocal,
                original: "消息协议格式不正确, 可能缺少了字段"),
            row(
                865007, "kJMSGErrorSDKMessageProtocolInvalidFieldValue",
                "Wrong message protocol format: illegal field value",
                .clientLocal, original: "消息协议格式不正确, 字段值非法"),
            row(
                865008, "kJMSGErrorSDKMessageProtocolUpgradeNeeded",
                "The local message protocol needs an upgrade (a newer version arrived)",
                .clientLocal, original: "本地消息协议需要升级(收到新版本)"),
            row(
                865009, "kJMSGErrorSDKMessageProtocolContentTypeNotSupport",
                "Received an unsupported content type (upgrade suggested)",
                .clientLocal, original: "收到不支持消息内容类型(建议升级)"),
            row(
                865010, "kJMSGErrorSDKMessageStatusNotLegal", "Illegal message status", .clientLocal,
                original: "消息状态不合法"),
            row(
                866001, "kJMSGErrorSDKParamConversationTypeUnknown", "\"Unknown conversation type\"", .clientLocal,
                original: "未知的会话类型", sources: both),
            row(
                866002, "kJMSGErrorSDKParamConversationUsernameInvalid", "\"Conversation username is invalid\"",
                .clientLocal,
                original: "会话 username 无效", sources: both),
            row(
                866003, "kJMSGErrorSDKParamConversationGroupIdInvalid", "\"Conversation groupId is invalid\"",
                .clientLocal,
                original: "会话 groupId 无效", sources: both),
            row(
                866004, "kJMSGErrorSDKparamConversationNotFound", "Conversation not found", .clientLocal,
                original: "会话没有找到"),
            row(
                866005, "kJMSGErrorSDKConversationAvatarNotFound", "\"This conversation has no avatar\"", .clientLocal,
                original: "会话头像没找到", sources: both),
            row(
                867001, "kJMSGErrorSDKParamGroupGroupIdInvalid", "\"GroupId is invalid\"", .clientLocal,
                original: "groupId 无效",
                sources: both),
            row(
                867002, "kJMSGErrorSDKParamGroupGroupInfoInvalid", "\"Group fields are invalid\"", .clientLocal,
                original: "group 相关字段无效", sources: both),
            row(
                868001, "kJMSGErrorSDKChatRoomNotSupport", "\"ChatRoom not support\"", .clientLocal,
                original: "ChatRoom 不支持",
                sources: both),
            row(
                868002, "kJMSGErrorSDKChatRoomNotExist", "\"ChatRoom not exist\"", .clientLocal,
                original: "ChatRoom 不存在", sources: both),
            row(
                869999, "kJMSGErrorSDKUnknownError", "\"Unknown SDK error\" (header comment: unknown)", .clientLocal,
                sources: both),
        ]
    }
}
