import IMWireCore

extension JMessageStatusCodes {
    /// Web SDK error codes 880xxx–882xxx (jmessage.md §1.2). Success is `code 0`.
    public static let webErrors = StatusTable(
        .jmessage, "web-error", title: "Web SDK error codes 880xxx–882xxx", kind: .codes,
        source: "\(docs)/im_errorcode_js.md", travel: .message,
        notes: [
            """
            The Web SDK maps server codes into this range (803003 → 880203, 803005 → \
            880205, 803012 → 880212); the rule is inferred from the numbering (UNCONFIRMED), \
            and whether the Web gateway or the SDK does the mapping is not stated.
            """,
            "`name` holds the doc's English message, spelling kept (\"signatu fail\").",
        ],
        ranges: [
            CodeRange(880000, 880099, "generic", source: "INFERRED from the entries"),
            CodeRange(880100, 880199, "login (server 801xxx)", source: "INFERRED from the entries"),
            CodeRange(
                880200, 880299, "send message (server 803xxx)",
                source: "jmessage.md §1.2 mapping examples (UNCONFIRMED)"),
            CodeRange(880400, 880499, "create group (server 808xxx)", source: "INFERRED from the entries"),
            CodeRange(880600, 880699, "add group members", source: "INFERRED from the entries"),
            CodeRange(880700, 880799, "remove group members", source: "INFERRED from the entries"),
            CodeRange(880900, 880999, "blacklist", source: "INFERRED from the entries"),
            CodeRange(881100, 881199, "no-disturb", source: "INFERRED from the entries"),
            CodeRange(881200, 881299, "group shield", source: "INFERRED from the entries"),
            CodeRange(881300, 881399, "friends", source: "INFERRED from the entries"),
            CodeRange(881400, 881499, "retract", source: "INFERRED from the entries"),
            CodeRange(881500, 881599, "chatroom", source: "INFERRED from the entries"),
            CodeRange(881600, 881699, "transparent messages", source: "INFERRED from the entries"),
            CodeRange(881700, 881799, "group admin", source: "INFERRED from the entries"),
            CodeRange(882000, 882099, "server", source: "INFERRED from the entries"),
        ]
    ) { row in
        [
            row(880001, "missing error", "Unknown error code", .serverError, original: "未知错误码"),
            row(880002, "invalid parameter", "Illegal parameter", .invalidRequest, original: "参数不合法"),
            row(880003, "invalid value", "Illegal content format", .invalidRequest, original: "非法内容格式"),
            row(880004, "invalid type", "Illegal content format", .invalidRequest, original: "非法内容格式"),
            row(880005, "file not exist", "File does not exist", .notFound, original: "文件不存在"),
            row(
                880006, "login out before register", "Log out before registering", .invalidRequest,
                original: "注册之前先退出"),
            row(880007, "register limit", "Registration restricted", .permissionDenied, original: "被限制注册"),
            row(880008, "msg_id not valid", "Illegal msg_id", .invalidRequest, original: "msg_id 非法"),
            row(880101, "appkey not exist", "Appkey does not exist", .fatalCredentials, original: "appkey 不存在"),
            row(880102, "signatu fail", "Signature error", .fatalCredentials, original: "签名错误"),
            row(880103, "user not exist", "User does not exist", .fatalCredentials, original: "用户不存在"),
            row(880104, "invalid password", "Wrong password", .fatalCredentials, original: "密码错误"),
            row(880106, "signatu is expire", "Signature expired", .reauthenticate, original: "签名过期"),
            row(
                880107, "already login,please login out before login", "Already logged in", .invalidRequest,
                original: "已经是登录状态"),
            row(880109, "repetitive operation", "Repeated login", .invalidRequest, original: "重复登录操作"),
            row(
                880110, "multi channel online error,please update your sdk version",
                "Multi-channel error; update the SDK", .fatalConflict,
                original: "多通道错误，更新sdk版本"),
            row(880111, "user disabled", "User disabled", .fatalCredentials, original: "用户被禁用"),
            row(
                880203, "target user not exist", "Target user does not exist", .notFound,
                original: "目标用户不存在"),
            row(
                880204, "target group not exist", "Target group does not exist", .notFound,
                original: "目标群组不存在"),
            row(880205, "user not in group", "User is not in the group", .notMember, original: "用户不在群组"),
            row(
                880206, "length of message exceed limit", "Message size over the limit", .invalidRequest,
                original: "消息大小超过限制"),
            row(
                880207, "user in blacklist", "Blacklisted by the peer", .permissionDenied,
                original: "用户被对方拉黑"),
            row(
                880208, "message is sensitive", "Message contains sensitive words", .invalidRequest,
                original: "消息包含敏感词汇"),
            row(
                880209, "beyond the frequency limit", "Sending rate over the limit", .rateLimited,
                original: "发送速度超过限制"),
            row(
                880210, "file size exceed the limit", "File size over the limit", .invalidRequest,
                original: "文件大小超过限制"),
            row(880212, "can not chat while silent", "Muted", .permissionDenied, original: "禁言中"),
            row(
                880402, "not permitted to create group", "No permission to create groups", .permissionDenied,
                original: "没有创建群组的权限"),
            row(
                880403, "amount of group exceed limit", "Group count at its limit", .invalidRequest,
                original: "群数量到达上限"),
            row(
                880404, "length of group name exceed limit", "Group name too long; creation failed", .invalidRequest,
                original: "群名字超过长度限制，创建失败"),
            row(
                880405, "length of group desc exceed limit", "Group description too long", .invalidRequest,
                original: "群描述长度超过限制"),
            row(880602, "zero member", "Empty target", .invalidRequest, original: "目标为空"),
            row(
                880604, "user not permitted add member to group", "No permission to add group members",
                .permissionDenied,
                original: "没权限添加群成员"),
            row(
                880606, "member not permitted added to group", "Some users in the list may not be added to the group",
                .permissionDenied,
                original: "成员列表中有用户没有被添加到群组的权限"),
            row(880607, "repeated added", "Added twice", .invalidRequest, original: "重复添加"),
            row(880608, "num exceed  limit", "Count over the limit", .invalidRequest, original: "数量超过限制"),
            row(
                880609, "amount of group exceed member limit", "A member in the list is over its group count limit",
                .invalidRequest,
                original: "成员列表中存在成员的群组数量超过限制"),
            row(
                880610, "user already in the group", "User already in the group", .invalidRequest,
                original: "用户已经在群里面"),
            row(
                880611, "group type not support", "The group type does not support this operation", .invalidRequest,
                original: "群类型不支持该操作"),
            row(880612, "this request already process", "Already handled", .invalidRequest, original: "已经处理"),
            row(880614, "no permission", "No permission", .permissionDenied, original: "无权限操作"),
            row(
                880704, "user not permitted delete member of group", "No permission to remove group members",
                .permissionDenied,
                original: "用户没有删除群成员的权限"),
            row(
                880705, "member of group not permitted deleted",
                "Some members in the list may not be removed by this user",
                .permissionDenied, original: "成员列表中存在成员用户没权限删除"),
            row(
                880903, "member not permitted added", "Some members in the list may not be added; adding failed",
                .permissionDenied,
                original: "成员列表中有成员不能被添加，添加失败"),
            row(880904, "repeated added member", "Added twice", .invalidRequest, original: "重复添加"),
            row(
                881101, "member already set", "The member already has no-disturb", .invalidRequest,
                original: "该成员已处于免打扰状态"),
            row(
                881102, "member never set", "The member does not have no-disturb", .notFound,
                original: "该成员不处于免打扰状态"),
            row(
                881105, "group already set", "The group already has no-disturb", .invalidRequest,
                original: "该群组已处于免打扰状态"),
            row(
                881106, "group never set", "The group does not have no-disturb", .notFound,
                original: "该群组不处于免打扰状态"),
            row(881107, "already set", "No-disturb already set", .invalidRequest, original: "已经设置免打扰"),
            row(881108, "never set", "No-disturb not set", .notFound, original: "没有设置免打扰"),
            row(881203, "group already set", "Shield already set", .invalidRequest, original: "已经设置了屏蔽"),
            row(881204, "group never set", "The group is not shielded", .notFound, original: "群未设置屏蔽"),
            row(881302, "already is friend", "Already friends", .invalidRequest, original: "已经是好友"),
            row(881303, "user not friend", "Not friends", .notFound, original: "非好友关系"),
            row(881304, "invalid friend memo", "Illegal memo", .invalidRequest, original: "非法备注"),
            row(
                881305, "Invitation event is not valid", "Adding a friend failed: invalid invitation event",
                .invalidRequest,
                original: "添加好友失败：邀请事件无效"),
            row(881401, "out of time", "Retract time limit passed", .invalidRequest, original: "超出撤回时间"),
            row(
                881402, "request user is not message sender", "The requester is not the sender", .permissionDenied,
                original: "请求撤回方不是消息发送方"),
            row(881403, "request message not exist", "Message does not exist", .notFound, original: "消息不存在"),
            row(881404, "message already retract", "Already retracted", .invalidRequest, original: "已经撤回"),
            row(
                881501, "user not in chatroom", "User is not in the chatroom", .notMember,
                original: "用户不在聊天室"),
            row(
                881502, "user baned to post", "User may not send messages", .permissionDenied,
                original: "用户被禁止发消息"),
            row(881503, "chatroom not exist", "Chatroom does not exist", .notFound, original: "聊天室不存在"),
            row(
                881504, "length of chatroom message exceed limit", "Message too long", .invalidRequest,
                original: "消息长度超出限制"),
            row(
                881507, "member has in the chatroom", "User already in the chatroom", .invalidRequest,
                original: "用户已经在聊天室"),
            row(
                881508, "amount of member exceed chatroom limit", "Chatroom member limit exceeded", .invalidRequest,
                original: "超过聊天室人数限制"),
            row(881509, "msg format err", "Wrong message format", .invalidRequest, original: "消息格式错误"),
            row(
                881602, "target user not login", "Target user not logged in", .notFound,
                original: "目标用户未登录"),
            row(
                881604, "length of trans cmd exceed limit", "Message too long", .invalidRequest,
                original: "消息长度超出限制"),
            row(
                881701, "user not admin", "User is not a group admin", .permissionDenied,
                original: "用户不是群管理员"),
            row(882001, "server internal error", "System internal error", .serverError, original: "系统内部错误"),
            row(
                882002, "user exit，no such user，password error，uid invalid，gid invalid",
                "Depends on the operation (user exists, no such user, wrong password, invalid uid or gid)",
                .invalidRequest, original: "视操作而定"),
            row(882003, "invalid parameter", "Illegal parameter", .invalidRequest, original: "参数不合法"),
            row(882004, "auth fail", "Invalid authorisation", .fatalCredentials, original: "无效授权"),
            row(
                882005, "response time out，try again later", "System busy, try again later", .serverError,
                original: "系统繁忙，稍后重试"),
        ]
    }
}
