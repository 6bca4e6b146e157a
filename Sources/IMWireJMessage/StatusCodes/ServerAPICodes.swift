import IMWireCore

extension JMessageStatusCodes {
    /// 898xxx (HTTP/API server) and 899xxx (REST/admin API).
    static func serverAPIRows(_ row: StatusRowBuilder) -> [StatusCode] {
        [
            row(898000, "Server internal error", "Internal error", .serverError, original: "内部错误"),
            row(898001, "User exist", "User already exists", .invalidRequest, original: "用户已存在"),
            row(
                898002, "No such user", "User does not exist (the missing user names are given)", .notFound,
                original: "用户不存在, 并且指出了不存在的用户名称"),
            row(
                898003, "Parameter invalid!", "Illegal request parameters", .invalidRequest,
                original: "请求参数不合法"),
            row(
                898004, "Password error", "Updating the password: wrong user password", .invalidRequest,
                original: "更新密码操作，用户密码错误"),
            row(898006, "Group id invalid", "Group id does not exist", .notFound, original: "Group id不存在"),
            row(
                898007, "Missing authen info", "Authentication info is empty", .fatalCredentials,
                original: "校验信息为空"),
            row(
                898008, "Basic authentication failed.", "Authentication failed", .fatalCredentials,
                original: "校验失败"),
            row(898009, "Appkey not exists", "Appkey does not exist", .fatalCredentials, original: "appkey不存在"),
            row(
                898010, "Token expired", "API request token expired; normally the SDK fetches a new token by itself",
                .reauthenticate,
                original: "API请求 token 过期。正常情况下SDK会自动重新获取 token。"),
            row(
                898011, "no auth to query other appkey's user or appkey no exist",
                "The queried appkey has no cross-app permission, or does not exist",
                .permissionDenied, original: "查询的appkey不具备跨应用权限 或者appkey不存在"),
            row(
                898030, "Server response time out, please try again later", "System busy, try again later",
                .serverError,
                original: "系统繁忙，稍后重试"),
            row(
                898031, "project not exist",
                "Audio/video service not enabled yet; enable it as the docs and portal describe",
                .permissionDenied,
                original: "音视频服务还未开通，请参考doc和portal里的规则开通服务"),
            row(899000, "Server internal error", "System internal error", .serverError, original: "系统内部错误"),
            row(899001, "User exist", "User already exists", .invalidRequest, original: "用户已存在"),
            row(899002, "No such user", "User does not exist", .notFound, original: "用户不存在"),
            row(
                899003, "parameter invalid",
                "Parameter error: request body, resend value, user name or password, or group id not acceptable",
                .invalidRequest,
                original: """
                    参数错误，Request Body参数不符合要求;resend \
                    值不符合要求;用户名或者密码不合法;群组Group id不合法
                    """),
            row(899006, "Group id invalid", "Group id does not exist", .notFound, original: "Group id 不存在"),
            row(
                899007, "Missing authen info", "Authentication info is empty", .fatalCredentials,
                original: "校验信息为空"),
            row(
                899008, "Basic authentication failed", "Authentication failed", .fatalCredentials,
                original: "校验失败"),
            row(899009, "Appkey not exit", "Appkey does not exist", .fatalCredentials, original: "Appkey不存在"),
            row(
                899011, "Repeat to add the members", "Group members added twice", .invalidRequest,
                original: "重复添加群成员"),
            row(
                899012, "No enough space for members", "Not enough room for the requested members", .invalidRequest,
                original: "没有足够位置添加此次请求的成员"),
            row(
                899013, "User list is bigger than 500",
                "Registration list over 500 (batch registration takes at most 500)",
                .invalidRequest, original: "注册列表大于500，批量注册最大长度为500"),
            row(
                899014, "User list is bigger than 500",
                """
                Add succeeded; remove failed because some user names are not \
                in the discussion group (the English message repeats 899013's)
                """,
                .notMember,
                original: "添加操作操作成功 remove操作有username不存在讨论组中 remove失败"),
            row(
                899015, "User 's group are full can not continue",
                "The user has joined the maximum number of discussion groups",
                .invalidRequest, original: "用户加入讨论组达到上限"),
            row(
                899016, "No authority to send message", "The user lacks the admin permission to send",
                .permissionDenied,
                original: "用户没有管理员权限发送信息"),
            row(
                899017, "There are usernames exist in blacklist", "User already in the blacklist", .invalidRequest,
                original: "用户已经被添加进黑名单"),
            row(
                899018, "Admin can not be added into blacklist", "An admin cannot be blacklisted", .permissionDenied,
                original: "管理员不能被添加进黑名单"),
            row(
                899019, "Here are usernames not exist in blacklist", "The user to remove is not in the blacklist",
                .notFound,
                original: "删除目标黑名单用户不存在黑名单中"),
            row(
                899020, "no auth to operating other appkey", "Cross-app operation failed", .permissionDenied,
                original: "跨应用失败"),
            row(
                899021, "should use cross app api", "Query failed: use the cross-app API", .invalidRequest,
                original: "查询失败 应该使用跨应用api"),
            row(
                899043, "duplicate add user", "No-disturb already set for this user", .invalidRequest,
                original: "已经设置此用户为消息免打扰，重复设置错误"),
            row(
                899044, "user is not exist in setting", "Removing no-disturb: the user is not in the current setting",
                .notFound,
                original: "取消消息免打扰用户时，该用户不存在当前设置中"),
            row(
                899045, "group is not exist", "Setting group no-disturb: the group does not exist", .notFound,
                original: "设置群组消息免打扰时，群组不存在该系统中"),
            row(
                899046, "user is not in group", "Setting group no-disturb: the user is not in the group", .notMember,
                original: "设置群组消息免打扰时，设置的群组，用户不在该群组中"),
            row(
                899047, "duplicate add group", "No-disturb already set for this group", .invalidRequest,
                original: "已经设置此群组为消息免打扰，重复设置错误"),
            row(
                899048, "already open global", "Global no-disturb already on", .invalidRequest,
                original: "已经设置全局为消息免打扰，重复设置错误"),
            row(
                899049, "group is not exist in setting",
                "Removing group no-disturb: the group is not in the current setting", .notFound,
                original: "取消消息免打扰群组时，该群组不存在当前设置中"),
            row(
                899050, "already close global", "Global no-disturb already off (the Chinese text repeats 899048's)",
                .invalidRequest,
                original: "已经设置全局为消息免打扰，重复设置错误"),
            row(
                899070, "", "The friend to add is already in the friend list", .invalidRequest,
                original: "添加的好友已经存在好友列表中"),
            row(
                899071, "", "The friend to update is not in the friend list", .notFound,
                original: "更新的好友不存在好友列表中"),
            row(
                899030, "Server response time out, please try again later", "System busy, try again later",
                .serverError,
                original: "系统繁忙，稍后重试"),
            row(899081, "room id no exist", "Chatroom id does not exist", .notFound, original: "聊天室ID不存在"),
            row(
                899082, "user not in room", "User is not in the chatroom", .notMember,
                original: "用户不在聊天室中"),
        ]
    }
}
