import IMWireCore

extension LeanCloudStatusCodes {
    /// objc `AVIMConversationOption`: how a conversation is created.
    public static let conversationOption = StatusTable(
        .leancloud, "AVIMConversationOption", title: "objc conversation creation options", kind: .options,
        source: common,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "AVIMConversationOptionNone", "Default conversation: at most 500 members"),
            row(
                1, "AVIMConversationOptionUnique",
                "Unique: the server returns the existing conversation with the same members (1 << 0)"),
            row(
                2, "AVIMConversationOptionTransient",
                "Transient: no member limit, no offline messages or notifications (1 << 1)"),
            row(4, "AVIMConversationOptionTemporary", "Temporary conversation (1 << 2)"),
        ]
    }

    /// objc `AVIMConversationMemberRole`.
    public static let conversationMemberRole = StatusTable(
        .leancloud, "AVIMConversationMemberRole", title: "objc conversation member role", kind: .enumeration,
        source: common, travel: .sdkEnum,
        notes: ["Privilege: Owner > Manager > Member. On the wire roles are strings (ConvMemberInfo.role)."]
    ) { row in
        [
            row(0, "AVIMConversationMemberRoleMember", "Member"),
            row(1, "AVIMConversationMemberRoleManager", "Manager"),
            row(2, "AVIMConversationMemberRoleOwner", "Owner"),
        ]
    }

    /// objc `AVIMConversationQueryOption`.
    public static let conversationQueryOption = StatusTable(
        .leancloud, "AVIMConversationQueryOption", title: "objc conversation query options", kind: .options,
        source: common,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "AVIMConversationQueryOptionNone", "Default"),
            row(1, "AVIMConversationQueryOptionCompact", "Conversations without members (1 << 0)"),
            row(2, "AVIMConversationQueryOptionWithMessage", "Conversations with their last message (1 << 1)"),
        ]
    }

    /// objc `AVIMCachePolicy`.
    public static let cachePolicy = StatusTable(
        .leancloud, "AVIMCachePolicy", title: "objc query cache policy", kind: .enumeration, source: common,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kAVIMCachePolicyIgnoreCache", "Query the server; do not save the result to the local cache"),
            row(1, "kAVIMCachePolicyCacheOnly", "Query the local cache only"),
            row(2, "kAVIMCachePolicyNetworkOnly", "Query the server only and save the result to the local cache"),
            row(3, "kAVIMCachePolicyCacheElseNetwork", "Query the local cache first; on failure, the server"),
            row(4, "kAVIMCachePolicyNetworkElseCache", "Query the server first; on failure, the local cache"),
            row(
                5, "kAVIMCachePolicyCacheThenNetwork",
                "Query the local cache, then the server (the callback runs twice)"),
        ]
    }

    /// objc `AVIMMessageQueryDirection` (the wire uses `LogsCommand.QueryDirection` OLD=1, NEW=2 instead).
    public static let messageQueryDirection = StatusTable(
        .leancloud, "AVIMMessageQueryDirection", title: "objc history query direction", kind: .enumeration,
        source: common,
        travel: .sdkEnum,
        notes: ["On the wire the direction is `LogsCommand.QueryDirection` (OLD = 1, NEW = 2) of the schema."]
    ) { row in
        [
            row(0, "AVIMMessageQueryDirectionFromNewToOld", "From new to old"),
            row(1, "AVIMMessageQueryDirectionFromOldToNew", "From old to new"),
        ]
    }

    /// objc `LCIMConvType`: the `convType` of DirectCommand, UnreadTuple and LogItem.
    public static let convType = StatusTable(
        .leancloud, "LCIMConvType", title: "conversation type (`convType`)", kind: .enumeration, source: commonInternal,
        travel: .message
    ) { row in
        [
            row(0, "LCIMConvTypeUnknown", "Unknown"),
            row(1, "LCIMConvTypeNormal", "Normal conversation"),
            row(2, "LCIMConvTypeTransient", "Transient conversation (chat room)"),
            row(3, "LCIMConvTypeSystem", "System conversation"),
            row(4, "LCIMConvTypeTemporary", "Temporary conversation"),
        ]
    }
}
