import IMWireCore

// Chatroom members: roles, member-list queries, member attributes, online state, guests.
extension NIMStatusCodes {
    /// iOS `NIMChatroomMemberType`.
    public static let chatroomMemberType = StatusTable(
        .nim, "NIMChatroomMemberType", title: "iOS chatroom member types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomMember.h", travel: .sdkEnum
    ) { row in
        [
            row(-2, "NIMChatroomMemberTypeGuest", "Ordinary guest", original: "普通游客"),
            row(-1, "NIMChatroomMemberTypeLimit", "Restricted user", original: "受限用户"),
            row(0, "NIMChatroomMemberTypeNormal", "Ordinary user", original: "普通用户"),
            row(1, "NIMChatroomMemberTypeCreator", "Creator", original: "创建者"),
            row(2, "NIMChatroomMemberTypeManager", "Manager", original: "管理员"),
            row(4, "NIMChatroomMemberTypeAnonymousGuest", "Anonymous guest", original: "匿名游客"),
        ]
    }

    /// iOS `NIMChatroomFetchMemberType`: which members a member-list request returns.
    public static let chatroomFetchMemberType = StatusTable(
        .nim, "NIMChatroomFetchMemberType", title: "iOS chatroom member fetch types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomMemberRequest.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMChatroomFetchMemberTypeRegular",
                """
                Fixed chatroom members: creator, managers, ordinary users and \
                restricted users (muted or blacklisted); limited in number
                """,
                original: """
                    聊天室固定成员，\
                    包括创建者,管理员,普通等级用户,受限用户(禁言+黑名单)，有数量上限
                    """),
            row(
                1, "NIMChatroomFetchMemberTypeTemp",
                "Temporary chatroom members: listed only while online; unlimited in number",
                original: "聊天室临时成员，只有在线时才能在列表中看到,数量无上限"),
            row(
                2, "NIMChatroomFetchMemberTypeRegularOnline", "Online fixed chatroom members",
                original: "聊天室在线的固定成员"),
        ]
    }

    /// iOS `NIMChatroomMemberInfoUpdateTag`.
    public static let chatroomMemberInfoUpdateTag = StatusTable(
        .nim, "NIMChatroomMemberInfoUpdateTag", title: "iOS chatroom member info update tags", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomMemberRequest.h", travel: .sdkEnum
    ) { row in
        [
            row(
                5, "NIMChatroomMemberInfoUpdateTagNick", "Chatroom member nickname",
                original: "聊天室成员昵称信息"),
            row(
                6, "NIMChatroomMemberInfoUpdateTagAvatar", "Chatroom member avatar",
                original: "聊天室成员头像信息"),
            row(
                7, "NIMChatroomMemberInfoUpdateTagExt", "Chatroom member extension",
                original: "聊天室成员扩展信息"),
        ]
    }

    /// C/Node `NIMChatRoomGetMemberType`.
    public static let chatRoomGetMemberTypeC = StatusTable(
        .nim, "NIMChatRoomGetMemberType", title: "C/Node chatroom member query types", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(
                0, "kNIMChatRoomGetMemberTypeSolid",
                """
                Fixed members: creator, managers, ordinary users and restricted users (muted or \
                blacklisted), listed even when offline; limited in number; queried by \"updatetime\"
                """,
                original: """
                    固定成员,固定成员,包括创建者,管理员,普通等级用户,\
                    受限用户(禁言+黑名单)即使非在线也可以在列表中看到,\
                    有数量限制,查询时时间戳使用\"updatetime\"
                    """),
            row(
                1, "kNIMChatRoomGetMemberTypeTemp",
                """
                Non-fixed (temporary) members: listed only while online; \
                unlimited in number; queried by the time they entered the chatroom
                """,
                original: """
                    非固定成员,非固定成员,又称临时成员,只有在线时才能在列表中看到,\
                    数量无上限,查询时时间戳使用\"进入聊天室时间\"
                    """),
            row(
                2, "kNIMChatRoomGetMemberTypeSolidOL", "Online fixed members; queried by \"updatetime\"",
                original: "在线固定成员 查询时时间戳使用\"updatetime\""),
            row(
                3, "kNIMChatRoomGetMemberTypeTempOL",
                "Non-fixed members (reverse query); queried by the time they entered the chatroom",
                original: "非固定成员(反向查询) 查询时时间戳使用\"进入聊天室时间\""),
        ]
    }

    /// C/Node `NIMChatRoomMemberAttribute`: the role an operator sets on a member (the source spells 2 `NomalMember`).
    public static let chatRoomMemberAttributeC = StatusTable(
        .nim, "NIMChatRoomMemberAttribute", title: "C/Node chatroom member attributes", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(
                1, "kNIMChatRoomMemberAttributeAdminister", "Manager; the operator must be the creator",
                original: "管理员,operator必须是创建者"),
            row(
                2, "kNIMChatRoomMemberAttributeNomalMember",
                "Ordinary member; the operator must be the creator or a manager",
                original: "普通成员,operator必须是创建者或管理员"),
            row(
                -1, "kNIMChatRoomMemberAttributeBlackList", "Blacklist; the operator must be the creator or a manager",
                original: "黑名单,operator必须是创建者或管理员"),
            row(
                -2, "kNIMChatRoomMemberAttributeMuteList", "Muted; the operator must be the creator or a manager",
                original: "禁言,operator必须是创建者或管理员"),
        ]
    }

    /// C/Node `NIMChatRoomOnlineState`.
    public static let chatRoomOnlineStateC = StatusTable(
        .nim, "NIMChatRoomOnlineState", title: "C/Node chatroom member online state", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(0, "kNIMChatRoomOnlineStateOffline", "Offline", original: "不在线"),
            row(1, "kNIMChatRoomOnlineStateOnline", "Online", original: "在线"),
        ]
    }

    /// C/Node `NIMChatRoomGuestFlag`.
    public static let chatRoomGuestFlagC = StatusTable(
        .nim, "NIMChatRoomGuestFlag", title: "C/Node chatroom guest flag", kind: .enumeration, source: nodeEnums,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kNIMChatRoomGuestFlagNoGuest", "Not a guest", original: "非游客"),
            row(1, "kNIMChatRoomGuestFlagGuest", "Guest", original: "游客"),
        ]
    }
}
