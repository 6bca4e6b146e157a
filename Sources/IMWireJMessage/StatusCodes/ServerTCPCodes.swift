import IMWireCore

extension JMessageStatusCodes {
    /// 8000xx (TCP generic), 801xxx login, 802xxx logout, 803xxx send message, 805xxx friends,
    /// 808xxx create group, 810/811xxx members, 812xxx update group, 818/819xxx blacklist.
    static func serverTCPRows(_ row: StatusRowBuilder) -> [StatusCode] {
        [
            row(800003, "appkey not exist", "Appkey not registered", .fatalCredentials, original: "appkey未注册"),
            row(
                800005, "user not exist", "User id not registered (the appkey has no such UID)", .notFound,
                original: "用户ID未注册（appkey无该UID）"),
            row(
                800006, "user not exist", "User id does not exist (no such UID in the database)", .notFound,
                original: "用户ID不存在（数据库中无该UID）"),
            row(
                800008, "invalid request", "Request type not recognised", .invalidRequest,
                original: "请求类型无法识别"),
            row(800009, "system error", "Server system error", .serverError, original: "服务器系统错误"),
            row(
                800012, "user never login",
                "The requesting user is logged out: registered but never logged in; log in first",
                .reauthenticate,
                original: "发起的用户处于登出状态，账号注册以后从未登录过，需要先登录"),
            row(
                800013, "user logout", "The requesting user has logged out; log in first", .reauthenticate,
                original: "发起的用户处于登出状态，请求的用户已经登出，需要先登录"),
            row(
                800014, "appkey not match", "The requesting user's appkey does not match the target's", .invalidRequest,
                original: "发起的用户appkey与目标不匹配"),
            row(
                800016, "device not match", "The request's device differs from the last login's; log in first",
                .reauthenticate,
                original: """
                    发起的用户设备不匹配,当前请求的设备与上次登录的设备不匹配导致，\
                    需要先登录
                    """),
            row(
                800017, "beyond the frequency limit", "Request rate over the system limit", .rateLimited,
                original: "发送请求频率超过系统限制"),
            row(800018, "group id not exist", "Group id does not exist", .notFound, original: "群组ID不存在"),
            row(
                800019, "req user not in group", "The requesting user is not in the group", .notMember,
                original: "请求用户不在群组中"),
            row(
                800020, "request user no permission", "The requesting user has no permission", .permissionDenied,
                original: "请求用户无操作权限"),
            row(
                801003, "user not exist", "Login failed: user name not registered", .fatalCredentials,
                original: "登录的用户名未注册，登录失败"),
            row(
                801004, "invalid password", "Login failed: wrong password", .fatalCredentials,
                original: "登录的用户密码错误，登录失败"),
            row(
                801005, "invalid device", "Login failed: wrong device", .fatalCredentials,
                original: "登录的用户设备有误，登录失败"),
            row(
                801006, "user disabled", "Login failed: user disabled", .fatalCredentials,
                original: "登录的用户被禁用，登录失败"),
            row(
                801007, "multi channel online error", "Login failed: logged in over several channels at once",
                .fatalConflict,
                original: "多通道同时登录错误，登录失败"),
            row(
                802002, "username not match", "Logout failed: the user name differs from the logged-in one",
                .invalidRequest,
                original: "登出用户名和登录用户名不匹配，登出失败"),
            row(
                803001, "system error", "Sending failed: state storage error", .serverError,
                original: "发送消息失败，状态存储异常"),
            row(
                803002, "system error", "Sending failed: system network error", .serverError,
                original: "发送消息失败，系统网络异常"),
            row(
                803003, "target user not exist", "Sending failed: target user not registered or missing", .notFound,
                original: "发送消息失败，目标用户未注册或不存在"),
            row(
                803004, "target group not exist", "Sending failed: target discussion group does not exist", .notFound,
                original: "发送消息失败，目标讨论组不存在"),
            row(
                803005, "user not in group", "Sending failed: the sender is not a member of the target group",
                .notMember,
                original: "发送消息失败，发起者不在目标讨论组中"),
            row(
                803006, "user not permitted",
                "Sending failed: the sender lacks permission or the category does not match", .permissionDenied,
                original: "发送消息失败，发起者权限不够或者类别不匹配"),
            row(
                803007, "length of message exceed limit", "Sending failed: message too long", .invalidRequest,
                original: "发送消息失败，消息长度超过限制"),
            row(
                803008, "user in blacklist",
                "Sending failed: the receiver blacklisted the sender (one-to-one chat only)", .permissionDenied,
                original: "发送消息失败，发送者已被接收者拉入黑名单，仅限单聊"),
            row(
                803009, "the message contains sensitive word: the word",
                "Sending failed: the content contains a sensitive word (named in the message)",
                .invalidRequest, original: "发送消息失败，消息内容包含敏感词汇：具体敏感词"),
            row(
                803010, "beyond the frequency limit",
                "Sending failed: rate over the system limit (the client limit is 60 messages a minute)",
                .rateLimited,
                original: """
                    发送消息失败，发送频率超过系统限制，\
                    无法发送，客户端限制每分钟60条
                    """),
            row(
                803011, "msg content json error", "Sending failed: message format wrong", .invalidRequest,
                original: "发送消息失败，消息格式配置错误"),
            row(
                803012, "can not chat while silent", "Sending failed: the sender was muted by an admin",
                .permissionDenied,
                original: "发送消息失败，请求用户被管理员禁言"),
            row(
                805001, "target user not exist", "Target user does not exist", .notFound,
                original: "目标用户不存在"),
            row(
                805002, "already is friend", "Adding a friend failed: already friends", .invalidRequest,
                original: "添加好友失败：双方已经是好友"),
            row(
                805003, "user not friend", "Deleting a friend failed: the target is not a friend", .notFound,
                original: "删除好友失败：目标用户并不是自己的好友"),
            row(
                805004, "invalid friend memo", "Changing a friend memo failed: invalid memo", .invalidRequest,
                original: "修改好友备注失败：备注内容无效，无法修改"),
            row(
                805006, "invitation event is not valid", "Adding a friend failed: invalid invitation event",
                .invalidRequest,
                original: "添加好友失败：邀请事件无效"),
            row(
                808001, "group name invalid", "Creating a group failed: empty group name", .invalidRequest,
                original: "创建群组时群名为空，创建群组失败"),
            row(
                808002, "user not permitted to create group", "Creating a group failed: no permission to create groups",
                .permissionDenied,
                original: "用户无创建群组权限，创建群组失败"),
            row(
                808003, "amount of group exceed limit", "The user owns the maximum number of groups", .invalidRequest,
                original: "用户拥有的群组数量已达上限,无法再创建"),
            row(
                808004, "length of group name exceed limit", "Creating a group failed: name too long", .invalidRequest,
                original: "群组名长度超出上限，创建群组失败"),
            row(
                808005, "length of group desc exceed limit", "Creating a group failed: description too long",
                .invalidRequest,
                original: "群组描述长度超出上限，创建群组失败"),
            row(
                808006, "max group member count error", "Creating a group: wrong member limit", .invalidRequest,
                original: "创建群组时指定成员人数上限错误"),
            row(
                810001, "target in group blacklist", "The target user is in the group blacklist and cannot join",
                .permissionDenied,
                original: "目标用户在群组黑名单中，无法加入"),
            row(
                810002, "add member list is null", "The member list to add is empty", .invalidRequest,
                original: "添加的成员列表为空"),
            row(
                810005, "have member not register", "The member list to add has unregistered members", .notFound,
                original: "添加的成员列表中包含未注册成员"),
            row(
                810007, "repeated added member", "The member list to add has members added twice", .invalidRequest,
                original: "添加的成员列表中有成员重复添加"),
            row(
                810008, "amount of member exceed group limit", "Adding exceeds the group's member limit",
                .invalidRequest,
                original: "添加的成员数量超出群组拥有的最大成员数上限"),
            row(
                810009, "amount of group exceed member limit",
                "A member to add already has the maximum number of groups", .invalidRequest,
                original: "添加的成员列表中有成员拥有的群组数量已达上限"),
            row(
                811002, "del member list is null", "The member list to remove is empty", .invalidRequest,
                original: "删除的成员列表为空"),
            row(
                811005, "have member not register", "The member list to remove has unregistered members", .notFound,
                original: "删除的成员列表中有成员未注册"),
            row(
                811006, "member of group not permitted deleted", "The user may not remove a member of the list",
                .permissionDenied,
                original: "删除的成员列表中有成员该用户没有权限进行删除"),
            row(
                811007, "repeated deleted member", "The member list to remove has members removed twice",
                .invalidRequest,
                original: "删除的成员列表中有成员重复删除"),
            row(
                811008, "have member not in group", "The member list to remove has members not in the group",
                .notMember,
                original: "删除的成员列表中有成员不在该群组中"),
            row(
                812003, "length of group name exceed limit", "Group name too long", .invalidRequest,
                original: "群组名超出长度上限"),
            row(
                812004, "length of group desc exceed limit", "Group description too long", .invalidRequest,
                original: "群组描述超出上限"),
            row(
                818001, "target list is null", "Adding to the blacklist failed: empty member list", .invalidRequest,
                original: "用户添加黑名单时，成员列表为空，添加失败"),
            row(
                818002, "member not exist", "Adding to the blacklist failed: a member does not exist", .notFound,
                original: "用户添加黑名单时，成员列表中有成员不存在，添加失败"),
            row(
                818003, "member not permitted added", "Adding to the blacklist failed: a member may not be added",
                .permissionDenied,
                original: "用户添加黑名单时，成员列表中有成员不能被添加，添加失败"),
            row(818004, "repeated added member", "Added twice", .invalidRequest, original: "重复添加"),
            row(
                818005, "exceed max blacklist count", "Blacklist limit exceeded", .invalidRequest,
                original: "超过黑名单最大限制"),
            row(
                818006, "target not allow to add blacklist", "The target list has users who may not be blacklisted",
                .permissionDenied,
                original: "目标用户列表中存在不允许加入黑名单的用户"),
            row(
                819001, "zero member", "Removing from the blacklist failed: empty member list", .invalidRequest,
                original: "用户移除好友出黑名单时，成员列表为空，操作失败"),
            row(
                819002, "member not exist", "Removing from the blacklist failed: a member does not exist", .notFound,
                original: "用户删除黑名单时，成员列表中有成员不存在，删除失败"),
            row(819003, "repeated deleted member", "Removed twice", .invalidRequest, original: "重复删除"),
            row(
                819004, "target not in blacklist", "The user to remove is not in the blacklist", .notFound,
                original: "待删除的黑名单用户不在黑名单中"),
        ]
    }
}
