import IMWireCore

extension NIMStatusCodes {
    static let chatroomHeader = "\(iOSHeaders)/NIMChatroomManagerProtocol.h"
    static let chatroomKickNote =
        """
        The Web chatroom SDK reads the `reason` of packet 13_3 (kicked) as 1 chatroomClosed, \
        2 managerKick, 3 samePlatformKick, 4 silentlyKick, 5 blacked; iOS has no 4, and C's \
        4 (IllegalState) is a local meaning that conflicts with the wire's 4 (nim.md §2.1).
        """

    /// iOS `NIMChatroomConnectionState`.
    public static let chatroomConnectionState = StatusTable(
        .nim, "NIMChatroomConnectionState", title: "iOS chatroom connection state", kind: .enumeration,
        source: chatroomHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMChatroomConnectionStateEntering", "Entering", original: "正在进入"),
            row(1, "NIMChatroomConnectionStateEnterOK", "Entered the chatroom", original: "进入聊天室成功"),
            row(
                2, "NIMChatroomConnectionStateEnterFailed", "Entering the chatroom failed",
                original: "进入聊天室失败"),
            row(
                3, "NIMChatroomConnectionStateLoseConnection", "Lost the connection to the chatroom",
                original: "和聊天室失去连接"),
        ]
    }

    /// iOS `NIMChatroomKickReason`.
    public static let chatroomKickReason = StatusTable(
        .nim, "NIMChatroomKickReason", title: "iOS chatroom kick reasons", kind: .codes, source: chatroomHeader,
        travel: .sdkEnum, notes: [chatroomKickNote]
    ) { row in
        [
            row(
                1, "NIMChatroomKickReasonInvalidRoom", "The chatroom was dissolved", .fatalConflict,
                original: "聊天室已经解散"),
            row(
                2, "NIMChatroomKickReasonByManager", "Kicked out by a chatroom manager", .fatalConflict,
                original: "被聊天室管理员踢出"),
            row(
                3, "NIMChatroomKickReasonByConflictLogin", "Kicked by a login elsewhere (multi-device)", .fatalConflict,
                original: "多端被踢"),
            row(5, "NIMChatroomKickReasonBlacklist", "Blacklisted", .fatalConflict, original: "被拉黑"),
        ]
    }

    /// The `reason` of packet 13_3 (chatroom kicked) as the Web chatroom SDK reads it.
    public static let webChatroomKickReason = StatusTable(
        .nim, "web-chatroom-kick-reason", title: "Web chatroom link: reason of packet 13_3 (kicked)", kind: .codes,
        source: "\(webChatroomBundle) kickedReasons", travel: .message,
        notes: ["Packet 13_3 carries r=[reason, custom] (nim.md §2.1, §3.6)."]
    ) { row in
        [
            row(1, "chatroomClosed", "The chatroom was closed", .fatalConflict, original: "聊天室关闭了"),
            row(
                2, "managerKick", "Kicked out by the owner or a manager", .fatalConflict,
                original: "被房主或者管理员踢出"),
            row(
                3, "samePlatformKick", "The same account may not be logged in at several places at once",
                .fatalConflict,
                original: "不允许同一个帐号在多个地方同时登录"),
            row(4, "silentlyKick", "Kicked silently", .fatalConflict, original: "悄悄被踢"),
            row(5, "blacked", "Blacklisted", .fatalConflict, original: "被拉黑了"),
        ]
    }

    /// C/Node `NIMChatRoomExitReason`: why the client left a chatroom (adds 0 for leaving by itself).
    public static let chatRoomExitReasonC = StatusTable(
        .nim, "NIMChatRoomExitReason", title: "C/Node chatroom exit reasons", kind: .codes, source: nodeEnums,
        travel: .sdkEnum, notes: [chatroomKickNote]
    ) { row in
        [
            row(
                0, "kNIMChatRoomExitReasonExit", "Left by itself; request entry again before logging in again",
                .success,
                original: "自行退出,重登前需要重新请求进入"),
            row(
                1, "kNIMChatRoomExitReasonRoomInvalid",
                "The chatroom was dissolved; request entry again before logging in again",
                .fatalConflict, original: "聊天室已经被解散,重登前需要重新请求进入"),
            row(
                2, "kNIMChatRoomExitReasonKickByManager",
                "Kicked out by a manager; request entry again before logging in again",
                .fatalConflict, original: "被管理员踢出,重登前需要重新请求进入"),
            row(
                3, "kNIMChatRoomExitReasonKickByMultiSpot", "Kicked by a login elsewhere (multi-device)",
                .fatalConflict,
                original: "多端被踢"),
            row(
                4, "kNIMChatRoomExitReasonIllegalState",
                "The current link is in an abnormal state (local meaning; the wire's 4 is silentlyKick)",
                .retry, original: "当前链接状态异常"),
            row(5, "kNIMChatRoomExitReasonBeBlacklisted", "Blacklisted", .fatalConflict, original: "被加黑了"),
        ]
    }

    /// iOS `NIMChatroomEventType`: chatroom notification events (C `NIMChatRoomNotificationId` shares 301–320).
    public static let chatroomEventType = StatusTable(
        .nim, "NIMChatroomEventType", title: "iOS chatroom event types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomNotificationContent.h", travel: .sdkEnum,
        notes: [
            """
            C `NIMChatRoomNotificationId` uses the same 301–320 and adds \
            321–324 (tag mute, recall, batch queue offer; nim.md §2.2).
            """
        ]
    ) { row in
        [
            row(301, "NIMChatroomEventTypeEnter", "Member entered the chatroom", original: "成员进入聊天室"),
            row(302, "NIMChatroomEventTypeExit", "Member left the chatroom", original: "成员离开聊天室"),
            row(303, "NIMChatroomEventTypeAddBlack", "Member blacklisted", original: "成员被拉黑"),
            row(
                304, "NIMChatroomEventTypeRemoveBlack", "Member removed from the blacklist",
                original: "成员被取消拉黑"),
            row(305, "NIMChatroomEventTypeAddMute", "Member muted", original: "成员被设置禁言"),
            row(306, "NIMChatroomEventTypeRemoveMute", "Member unmuted", original: "成员被取消禁言"),
            row(307, "NIMChatroomEventTypeAddManager", "Made a manager", original: "设置为管理员"),
            row(308, "NIMChatroomEventTypeRemoveManager", "Manager removed", original: "移除管理员"),
            row(309, "NIMChatroomEventTypeAddCommon", "Made a fixed member", original: "设置为固定成员"),
            row(310, "NIMChatroomEventTypeRemoveCommon", "Fixed membership removed", original: "取消固定成员"),
            row(311, "NIMChatroomEventTypeClosed", "Chatroom closed", original: "聊天室被关闭"),
            row(312, "NIMChatroomEventTypeInfoUpdated", "Chatroom info updated", original: "聊天室信息更新"),
            row(313, "NIMChatroomEventTypeKicked", "Chatroom member kicked", original: "聊天室成员被踢"),
            row(
                314, "NIMChatroomEventTypeAddMuteTemporarily", "Chatroom member muted temporarily",
                original: "聊天室成员被临时禁言"),
            row(
                315, "NIMChatroomEventTypeRemoveMuteTemporarily", "Chatroom member's temporary mute lifted",
                original: "聊天室成员被解除临时禁言"),
            row(
                316, "NIMChatroomEventTypeMemberUpdateInfo", "A member updated their chatroom role info",
                original: "聊天室成员主动更新了聊天室的角色信息"),
            row(
                317, "NIMChatroomEventTypeQueueChange", "Chatroom queue changed",
                original: "聊天室通用队列变更的通知"),
            row(
                318, "NIMChatroomEventTypeRoomMuted", "Chatroom muted: only managers may speak, everyone else is muted",
                original: "聊天室被禁言了，只有管理员可以发言,其他人都处于禁言状态"),
            row(
                319, "NIMChatroomEventTypeRoomUnMuted", "Chatroom no longer muted",
                original: "聊天室不在禁言状态"),
            row(
                320, "NIMChatroomEventTypeQueueBatchChange", "Chatroom queue changed in a batch",
                original: "聊天室通用队列批量变更的通知"),
        ]
    }

    /// C/Node `NIMChatRoomLoginState`.
    public static let chatRoomLoginStateC = StatusTable(
        .nim, "NIMChatRoomLoginState", title: "C/Node chatroom login state", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(1, "kNIMChatRoomLoginStateLogin", "Logged in", original: "登录状态"),
            row(2, "kNIMChatRoomLoginStateUnLogin", "Not logged in", original: "未登录状态"),
        ]
    }

    /// C/Node `NIMChatRoomEnterStep`.
    public static let chatRoomEnterStepC = StatusTable(
        .nim, "NIMChatRoomEnterStep", title: "C/Node chatroom entry steps", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(1, "kNIMChatRoomEnterStepInit", "Local service initialisation", original: "本地服务初始化"),
            row(2, "kNIMChatRoomEnterStepServerConnecting", "Connecting to the server", original: "服务器连接中"),
            row(
                3, "kNIMChatRoomEnterStepServerConnectOver",
                "Connecting to the server finished; the result is in error_code",
                original: "服务器连接结束,连接结果见error_code"),
            row(
                4, "kNIMChatRoomEnterStepRoomAuthing", "Chatroom authentication in progress",
                original: "聊天室鉴权中"),
            row(
                5, "kNIMChatRoomEnterStepRoomAuthOver",
                """
                Chatroom authentication finished; the result is in error_code; unless \
                error_code is 408 the developer must request the chatroom entry info again
                """,
                original: """
                    聊天室鉴权结束,鉴权结果见error_code, \
                    error_code非408则需要开发者重新请求聊天室进入信息
                    """),
        ]
    }

    /// C/Node `NIMChatRoomLinkCondition`.
    public static let chatRoomLinkConditionC = StatusTable(
        .nim, "NIMChatRoomLinkCondition", title: "C/Node chatroom link condition", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(0, "kNIMChatRoomLinkConditionAlive", "Link is fine", original: "链接正常"),
            row(
                1, "kNIMChatRoomLinkConditionDeadAndRetry", "Link failed; the SDK is trying to reconnect",
                original: "链接失败,sdk尝试重链"),
            row(
                2, "kNIMChatRoomLinkConditionDead",
                "Link failed; the developer must request the chatroom entry info again",
                original: "链接失败,开发者需要重新申请聊天室进入信息"),
        ]
    }

    /// C/Node `NIMChatRoomProxyType`.
    public static let chatRoomProxyTypeC = StatusTable(
        .nim, "NIMChatRoomProxyType", title: "C/Node chatroom proxy types", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(0, "kNIMChatRoomProxyNone", "No proxy", original: "不使用代理"),
            row(
                1, "kNIMChatRoomProxyHttp11", "HTTP 1.1 proxy (not supported yet)",
                original: "HTTP 1.1 Proxy（暂不支持）"),
            row(4, "kNIMChatRoomProxySocks4", "SOCKS4 proxy"),
            row(5, "kNIMChatRoomProxySocks4a", "SOCKS4a proxy"),
            row(6, "kNIMChatRoomProxySocks5", "SOCKS5 proxy"),
        ]
    }

    /// C/Node `NIMChatRoomClientType` (HarmonyOS 128).
    public static let chatRoomClientTypeC = StatusTable(
        .nim, "NIMChatRoomClientType", title: "C/Node chatroom client types", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum,
        notes: ["node-nim is inconsistent about HarmonyOS: 128 here, 65 in `NIMClientType` (nim.md §2.1)."]
    ) { row in
        [
            row(0, "kNIMChatRoomClientTypeDefault", "Default, unset"),
            row(1, "kNIMChatRoomClientTypeAndroid", "Android"),
            row(2, "kNIMChatRoomClientTypeiOS", "iOS"),
            row(4, "kNIMChatRoomClientTypePCWindows", "PC"),
            row(8, "kNIMChatRoomClientTypeWindowsPhone", "Windows Phone"),
            row(16, "kNIMChatRoomClientTypeWeb", "Web"),
            row(32, "kNIMChatRoomClientTypeRestAPI", "REST API"),
            row(64, "kNIMChatRoomClientTypeMacOS", "Mac"),
            row(128, "kNIMChatRoomClientTypeHarmonyOS", "HarmonyOS"),
        ]
    }

    /// C/Node `NIMChatRoomMsgType`.
    public static let chatRoomMsgTypeC = StatusTable(
        .nim, "NIMChatRoomMsgType", title: "C/Node chatroom message types", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum,
        notes: [
            """
            The numbers of `NIMMessageType-c` without 12 (G2 call record); \
            5 is a chatroom notification (see `NIMChatRoomNotificationId`).
            """
        ]
    ) { row in
        [
            row(0, "kNIMChatRoomMsgTypeText", "Text", original: "文本类型消息"),
            row(1, "kNIMChatRoomMsgTypeImage", "Image", original: "图片类型消息"),
            row(2, "kNIMChatRoomMsgTypeAudio", "Audio", original: "声音类型消息"),
            row(3, "kNIMChatRoomMsgTypeVideo", "Video", original: "视频类型消息"),
            row(4, "kNIMChatRoomMsgTypeLocation", "Location", original: "位置类型消息"),
            row(5, "kNIMChatRoomMsgTypeNotification", "Chatroom notification", original: "活动室通知"),
            row(6, "kNIMChatRoomMsgTypeFile", "File", original: "文件类型消息"),
            row(11, "kNIMChatRoomMsgTypeRobot", "Robot message", original: "波特机器人消息"),
            row(10, "kNIMChatRoomMsgTypeTips", "Tip", original: "提醒类型消息"),
            row(100, "kNIMChatRoomMsgTypeCustom", "Custom", original: "自定义消息"),
            row(
                1000, "kNIMChatRoomMsgTypeUnknown", "Unknown, used as the default",
                original: "未知类型消息，作为默认值"),
        ]
    }

    /// C/Node `NIMChatRoomNotificationId` (iOS `NIMChatroomEventType` shares 301–320).
    public static let chatRoomNotificationIdC = StatusTable(
        .nim, "NIMChatRoomNotificationId", title: "C/Node chatroom notification ids", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum,
        notes: [
            """
            301–320 are the numbers of iOS `NIMChatroomEventType`; 321–324 \
            (tag mute, recall, batch queue offer) are C/Node only (nim.md §2.2).
            """
        ]
    ) { row in
        [
            row(
                301, "kNIMChatRoomNotificationIdMemberIn", "Member entered the chatroom",
                original: "成员进入聊天室"),
            row(
                302, "kNIMChatRoomNotificationIdMemberExit", "Member left the chatroom",
                original: "成员离开聊天室"),
            row(303, "kNIMChatRoomNotificationIdAddBlack", "Member blacklisted", original: "成员被加黑"),
            row(
                304, "kNIMChatRoomNotificationIdRemoveBlack", "Member removed from the blacklist",
                original: "成员被取消黑名单"),
            row(305, "kNIMChatRoomNotificationIdAddMute", "Member muted", original: "成员被设置禁言"),
            row(306, "kNIMChatRoomNotificationIdRemoveMute", "Member unmuted", original: "成员被取消禁言"),
            row(307, "kNIMChatRoomNotificationIdAddManager", "Made a manager", original: "设置为管理员"),
            row(308, "kNIMChatRoomNotificationIdRemoveManager", "Manager removed", original: "取消管理员"),
            row(
                309, "kNIMChatRoomNotificationIdAddFixed", "Member made a fixed member",
                original: "成员设定为固定成员"),
            row(
                310, "kNIMChatRoomNotificationIdRemoveFixed", "Member's fixed membership removed",
                original: "成员取消固定成员"),
            row(311, "kNIMChatRoomNotificationIdClosed", "Chatroom closed", original: "聊天室被关闭了"),
            row(
                312, "kNIMChatRoomNotificationIdInfoUpdated", "Chatroom info updated",
                original: "聊天室信息被更新了"),
            row(313, "kNIMChatRoomNotificationIdMemberKicked", "Member kicked", original: "成员被踢了"),
            row(314, "kNIMChatRoomNotificationIdMemberTempMute", "Muted temporarily", original: "临时禁言"),
            row(
                315, "kNIMChatRoomNotificationIdMemberTempUnMute", "Temporary mute lifted",
                original: "主动解除临时禁言"),
            row(
                316, "kNIMChatRoomNotificationIdMyRoleUpdated",
                "A member updated their own chatroom role info (nick, avatar, ext only)",
                original: "成员主动更新了聊天室内的角色信息(仅指nick/avator/ext)"),
            row(
                317, "kNIMChatRoomNotificationIdQueueChanged",
                """
                The mic queue changed; "ext": \
                {"_e":"OFFER","key":"element_key","content":"element_value"}
                """,
                original: """
                    麦序队列中有变更 "ext" : {"_e":"OFFER", \
                    "key":"element_key", "content":"element_value"}
                    """),
            row(
                318, "kNIMChatRoomNotificationIdRoomMuted",
                "Chatroom muted: only managers may speak, everyone else is muted",
                original: "聊天室被禁言了,只有管理员可以发言,其他人都处于禁言状态"),
            row(
                319, "kNIMChatRoomNotificationIdRoomDeMuted", "Chatroom-wide mute lifted",
                original: "聊天室解除全体禁言状态"),
            row(
                320, "kNIMChatRoomNotificationIdQueueBatchChanged",
                """
                The mic queue changed in a batch, when an element's \
                submitter leaves the chatroom or drops off abnormally
                """,
                original: """
                    麦序队列中有批量变更，\
                    发生在元素提交者离开聊天室或者从聊天室异常掉线时
                    """),
            row(
                321, "kNIMChatRoomNotificationIdTagTempMuteAdd",
                "Tag mute added; fields muteDuration, targetTag, operator, opeNick",
                original: """
                    聊天室新增标签禁言，包括的字段是muteDuration、\
                    targetTag、operator、opeNick字段
                    """),
            row(
                322, "kNIMChatRoomNotificationIdTagTempMuteRemove",
                "Tag mute removed; fields muteDuration, targetTag, operator, opeNick",
                original: """
                    聊天室移除标签禁言，包括的字段是muteDuration、\
                    targetTag、operator、opeNick字段
                    """),
            row(
                323, "kNIMChatRoomNotificationIdRecallMessage",
                "Chatroom message recalled; fields operator, target, msgTime, msgId, ext",
                original: "聊天室消息撤回，包括的字段是operator、target、msgTime、msgId、ext字段"),
            row(
                324, "kNIMChatRoomNotificationIdQueueBatchOffer", "Elements added to the mic queue in a batch",
                original: "聊天室麦序队列中有批量增加通知消息"),
        ]
    }

    /// iOS `NIMChatroomUpdateTag`: which chatroom property an update request sets.
    public static let chatroomUpdateTag = StatusTable(
        .nim, "NIMChatroomUpdateTag", title: "iOS chatroom update tags", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomUpdateRequest.h", travel: .sdkEnum
    ) { row in
        [
            row(3, "NIMChatroomUpdateTagName", "Chatroom name", original: "聊天室名称"),
            row(4, "NIMChatroomUpdateTagAnnouncement", "Chatroom announcement", original: "聊天室公告"),
            row(
                5, "NIMChatroomUpdateTagBroadcastUrl", "Chatroom live-stream pull URL",
                original: "聊天室直播拉流地址"),
            row(12, "NIMChatroomUpdateTagExt", "Chatroom extension field", original: "聊天室扩展字段"),
            row(
                16, "NIMChatroomUpdateTagQueueModificationLevel",
                "Chatroom queue modification level; only managers and the owner may change it",
                original: "聊天室队列修改等级，只有管理员和房主可以修改"),
        ]
    }

    /// iOS `NIMChatroomQueueModificationLevel`.
    public static let chatroomQueueModificationLevel = StatusTable(
        .nim, "NIMChatroomQueueModificationLevel", title: "iOS chatroom queue modification levels", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroom.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMChatroomQueueModificationLevelAnyone", "Anyone may modify the chatroom queue",
                original: "所有人都可以修改聊天室队列"),
            row(
                1, "NIMChatroomQueueModificationLevelManager", "Only managers may modify the chatroom queue",
                original: "只有管理员可以修改聊天室队列"),
        ]
    }

    /// iOS `NIMChatroomQueueChangeType` (the change a `NIMChatroomEventTypeQueueChange` notification reports).
    public static let chatroomQueueChangeType = StatusTable(
        .nim, "NIMChatroomQueueChangeType", title: "iOS chatroom queue change types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomNotificationContent.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMChatroomQueueChangeTypeInvalid", "Invalid or unknown change type",
                original: "无效或未知变更类型"),
            row(1, "NIMChatroomQueueChangeTypeOffer", "Element added", original: "新增元素"),
            row(2, "NIMChatroomQueueChangeTypePoll", "Element taken out", original: "取出元素"),
            row(3, "NIMChatroomQueueChangeTypeDrop", "Queue cleared", original: "清空元素"),
        ]
    }

    /// iOS `NIMChatroomQueueBatchChangeType` (the change a `NIMChatroomEventTypeQueueBatchChange`
    /// notification reports).
    public static let chatroomQueueBatchChangeType = StatusTable(
        .nim, "NIMChatroomQueueBatchChangeType", title: "iOS chatroom queue batch change types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMChatroomNotificationContent.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMChatroomQueueBatchChangeTypeInvalid", "Invalid or unknown change type",
                original: "无效或未知变更类型"),
            row(
                4, "NIMChatroomQueueBatchChangeTypePartClear",
                "Partial batch clear (when the user who submitted elements drops off, that user's keys are cleared)",
                original: """
                    部分批量清理操作(发生在提交元素的用户掉线时，\
                    清理这个用户对应的key)
                    """),
        ]
    }
}
