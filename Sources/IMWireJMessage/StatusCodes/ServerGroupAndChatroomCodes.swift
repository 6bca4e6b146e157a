import IMWireCore

extension JMessageStatusCodes {
    /// 831–836xxx no-disturb, 842/843xxx group shield, 847xxx chatroom send, 850–853xxx chatroom
    /// admin, 855xxx retract, 856xxx approval, 857xxx trans messages, 859xxx apply to join,
    /// 786/787xxx announcements, 765xxx member operations, 713xxxx chatroom admin, 7100xxx RTC.
    static func serverGroupAndChatroomRows(_ row: StatusRowBuilder) -> [StatusCode] {
        [
            row(
                831001, "member already set", "Adding member no-disturb: the member already has it", .invalidRequest,
                original: "用户添加成员消息免打扰时，该成员已处于免打扰状态"),
            row(
                832001, "member never set", "Removing member no-disturb: the member does not have it", .notFound,
                original: "用户删除成员消息免打扰时，该成员不处于免打扰状态"),
            row(
                833001, "group not exist", "Adding group no-disturb: the group does not exist", .notFound,
                original: "用户添加群组消息免打扰时，该群组不存在"),
            row(
                833002, "user not in group", "Adding group no-disturb: the user is not in the group", .notMember,
                original: "用户添加群组消息免打扰时，用户不存在该群组中"),
            row(
                833003, "group already set", "Adding group no-disturb: the group already has it", .invalidRequest,
                original: "用户添加群组消息免打扰时，该群组已处于免打扰状态"),
            row(
                834001, "group never set", "Removing group no-disturb: the group does not have it", .notFound,
                original: "用户删除群组消息免打扰时，该群组不处于免打扰状态"),
            row(
                835001, "already set", "Adding global no-disturb: already on", .invalidRequest,
                original: "用户添加全局消息免打扰时，该用户已处于全局免打扰状态"),
            row(
                836001, "never set", "Removing global no-disturb: not on", .notFound,
                original: "用户删除全局消息免打扰时，该用户不处于全局免打扰状态"),
            row(
                842001, "group not exist", "Adding a group shield: the group does not exist", .notFound,
                original: "用户添加群组消息屏蔽时，该群组不存在"),
            row(
                842002, "user not in group", "Adding a group shield: the user is not in the group", .notMember,
                original: "用户添加群组消息屏蔽时，用户不在该群组中"),
            row(
                842003, "group already set", "Adding a group shield: already shielded", .invalidRequest,
                original: "用户添加群组消息屏蔽时，该群组已处于消息屏蔽状态"),
            row(
                843001, "group never set", "Removing a group shield: not shielded", .notFound,
                original: "用户删除群组消息屏蔽时，该群组不处于消息屏蔽状态"),
            row(
                847001, "user not in chatroom", "Sending to a chatroom failed: the sender is not in the chatroom",
                .notMember,
                original: "发送聊天室消息失败，发起者不在该聊天室中"),
            row(
                847002, "user baned to post", "Sending to a chatroom failed: the sender is muted there",
                .permissionDenied,
                original: "发送聊天室消息失败，发起者在该聊天室中被禁言"),
            row(
                847003, "chatroom not exist", "Sending to a chatroom failed: the chatroom does not exist", .notFound,
                original: "发送聊天室消息失败，该聊天室不存在"),
            row(
                847004, "length of chatroom message exceed limit", "Sending to a chatroom failed: message too long",
                .invalidRequest,
                original: "发送聊天室消息失败，消息长度超过限制"),
            row(
                847005, "chatroom msg content json error", "Sending to a chatroom failed: wrong content format",
                .invalidRequest,
                original: "发送聊天室消息失败，消息内容格式错误"),
            row(
                850001, "chatroom not exist", "Deleting a chatroom that does not exist", .notFound,
                original: "删除不存在的聊天室"),
            row(
                851001, "repeated invit chatroom member",
                "Inviting to a chatroom failed: duplicate members in the list", .invalidRequest,
                original: "邀请成员到聊天室时，邀请的成员列表中有重复的成员，邀请失败"),
            row(
                851002, "invit member not exist", "Inviting to a chatroom failed: unregistered members in the list",
                .notFound,
                original: "邀请成员到聊天室时，邀请的成员列表中有未注册成员，邀请失败"),
            row(
                851003, "member has in the chatroom",
                "Inviting or joining failed: the member is already in the chatroom", .invalidRequest,
                original: """
                    邀请或加入到聊天室时，\
                    邀请或加入的成员已在聊天室中，邀请或加入失败
                    """),
            row(
                851004, "chatroom not exist", "Inviting to or joining a chatroom that does not exist", .notFound,
                original: "邀请或加入不存在的聊天室"),
            row(
                851005, "zero member", "Inviting to a chatroom failed: empty member list", .invalidRequest,
                original: "邀请成员到聊天室时，邀请的成员列表为空，邀请成员失败"),
            row(
                851006, "amount of member exceed chatroom limit",
                "Inviting or joining: more members than the chatroom has room for",
                .invalidRequest,
                original: "邀请或加入聊天时，邀请的人员数量超过聊天室剩余加入的人员数量"),
            row(
                851007, "members have been blacklisted", "Inviting or joining: the members are blacklisted",
                .permissionDenied,
                original: "邀请或加入聊天室时，邀请或加入的人员已被列入了黑名单"),
            row(
                852001, "user not in chatroom", "Kicking or leaving failed: the user is not in the chatroom",
                .notMember,
                original: """
                    踢出或退出聊天室时，该用户其实并不在该聊天室中，\
                    踢出或退出聊天室失败
                    """),
            row(
                852002, "chatroom not exist", "Kicking from or leaving a chatroom that does not exist", .notFound,
                original: "踢出或退出不存在的聊天室"),
            row(
                852003, "zero member", "Kicking from a chatroom failed: empty member list", .invalidRequest,
                original: "踢出成员到聊天室时，踢出的成员列表为空，踢出成员失败"),
            row(
                852004, "owner can not leave chatroom", "Kicking or leaving: the owner would leave the chatroom",
                .invalidRequest,
                original: "踢出或退出聊天室时，存在owner用户退出聊天室"),
            row(
                853001, "chatroom not exist", "Updating a chatroom that does not exist", .notFound,
                original: "更新不存在的聊天室信息"),
            row(
                853002, "owner not in chatroom", "Changing the owner: the new owner is not in the chatroom", .notMember,
                original: "更新聊天室owner时，新的owner并不在该聊天室中"),
            row(
                855001, "out of time", "Retract failed: retract time limit passed", .invalidRequest,
                original: "消息撤回失败，超出撤回时间"),
            row(
                855002, "request user is not message sender", "Retract failed: the requester is not the sender",
                .permissionDenied,
                original: "消息撤回失败，请求撤回方不是消息发送方"),
            row(
                855003, "request message not exist", "Retract failed: the message does not exist", .notFound,
                original: "消息撤回失败，请求撤回消息不存在"),
            row(
                855004, "message already retract", "Retract failed: already retracted", .invalidRequest,
                original: "消息撤回失败，该消息已经撤回"),
            row(
                856001, "this request already process", "Approval no longer valid: the invitation was already handled",
                .invalidRequest,
                original: "审批失效，该添加成员邀请已经被处理"),
            row(
                856002, "invalid request data", "Invalid request data", .invalidRequest,
                original: "请求数据无效"),
            row(
                857001, "target group not exist", "Target group does not exist", .notFound,
                original: "目标群组不存在"),
            row(857002, "target not online", "Target not online", .notFound, original: "目标不在线"),
            row(
                857003, "target user not exist", "Target user does not exist", .notFound,
                original: "目标用户不存在"),
            row(
                857004, "length of trans cmd exceed limit", "Transparent message too long", .invalidRequest,
                original: "透传消息长度超过限制"),
            row(
                857005, "user not in group", "The requesting user is not in the group", .notMember,
                original: "请求用户不在群组中"),
            row(
                857006, "target can't be self", "The target cannot be oneself", .invalidRequest,
                original: "目标不能为自己"),
            row(
                859001, "user already in the group", "User already in the target group", .invalidRequest,
                original: "用户已经在目标群组中"),
            row(
                859002, "group type not support", "The target group's type does not accept join requests",
                .invalidRequest,
                original: "目标群组类型不支持申请入群"),
            row(
                786001, "length of group announcement exceed limit", "Group announcement too long", .invalidRequest,
                original: "群公告长度超出上限"),
            row(
                787001, "announcement not exist", "The announcement to delete does not exist", .notFound,
                original: "待删除公告不存在"),
            row(
                765001, "target not in group", "Target user is not in the group", .notMember,
                original: "目标用户不在群组中"),
            row(
                765002, "request user no permission", "The requesting user has no permission", .permissionDenied,
                original: "请求用户无操作权限"),
            row(
                7_130_001, "request user no permission", "The user may not appoint admins", .permissionDenied,
                original: "用户没有权限设置管理员"),
            row(
                7_130_002, "set member is admin", "The member is already an admin", .invalidRequest,
                original: "设置为管理员的成员已经是管理员"),
            row(
                7_130_003, "set member is owner", "The member is the chatroom owner", .invalidRequest,
                original: "设置为管理员的成员是个聊天室owner"),
            row(
                7_130_004, "exceed admin max count", "Admin limit exceeded", .invalidRequest,
                original: "超过管理员最大数量"),
            row(7_130_005, "chatroom not exist", "Chatroom does not exist", .notFound, original: "聊天室不存在"),
            row(
                7_130_006, "set member not exist", "The member to appoint is not in the chatroom", .notMember,
                original: "设置为管理员的成员不在聊天室中"),
            row(7_130_007, "set target to null", "Empty target", .invalidRequest, original: "设置目标为空"),
            row(
                7_131_001, "request user no permission", "The user may not remove admins (only the owner may)",
                .permissionDenied,
                original: "用户没有权限删除管理员资格（只有owner才能删除管理员资格）"),
            row(
                7_131_002, "set member is not an admin", "Removing admin rights from a user who is not an admin",
                .invalidRequest,
                original: "对不是管理员的用户删除其管理员资格"),
            row(
                7_132_001, "request user no permission", "The user may not blacklist", .permissionDenied,
                original: "用户没有权限设置黑名单"),
            row(
                7_132_002, "owner can not be set to blacklist", "The owner cannot be blacklisted", .invalidRequest,
                original: "owner不能被设为黑名单"),
            row(
                7_132_003, "admin can not be set to blacklist", "An admin cannot be blacklisted", .invalidRequest,
                original: "管理员不能被设为黑名单"),
            row(7_132_004, "chatroom not exist", "Chatroom does not exist", .notFound, original: "聊天室不存在"),
            row(
                7_132_005, "exceed blacklist max count", "Blacklist limit exceeded", .invalidRequest,
                original: "超过黑名单最大数量"),
            row(
                7_132_006, "set member has in the blacklist", "The member is already in the blacklist", .invalidRequest,
                original: "添加黑名单的成员已在黑名单中"),
            row(7_132_007, "set target to null", "Empty target", .invalidRequest, original: "设置目标为空"),
            row(
                7_133_001, "delete target not in blacklist", "The member to remove is not in the blacklist", .notFound,
                original: "删除黑名单的成员不在黑名单中"),
            row(
                7_100_001, "notify target is null or target logout",
                "Audio/video signaling: the target is empty or all its devices logged out",
                .notFound, original: "音视频信令通知目标用户为空或者目标已全部登出"),
            row(
                7_100_002, "invite targe logout", "Audio/video: the invited user has logged out", .notFound,
                original: "音视频被邀请的用户已登出"),
            row(
                7_100_006, "not enough rtc trial time", "Audio/video trial time used up; service stopped",
                .permissionDenied,
                original: "音视频服务试用时长不够，停用"),
        ]
    }
}
