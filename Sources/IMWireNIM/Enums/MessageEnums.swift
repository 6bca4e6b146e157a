import IMWireCore

extension NIMStatusCodes {
    static let messageHeader = "\(iOSHeaders)/NIMMessage.h"

    /// iOS `NIMMessageType`: the message types (the Web `typeMap` uses the same numbers).
    public static let messageType = StatusTable(
        .nim, "NIMMessageType", title: "iOS message types", kind: .enumeration, source: "\(iOSHeaders)/NIMGlobalDefs.h",
        travel: .message,
        notes: [
            """
            Web typeMap: text 0, image 1, audio 2, video 3, geo 4, notification 5, file 6, tip 10, robot 11, g2 12, \
            custom 100; its tag-level map also names 7 netcall_audio, 8 netcall_vedio, 9 datatunnel_new (nim.md §2.1).
            """
        ]
    ) { row in
        [
            row(0, "NIMMessageTypeText", "Text", original: "文本类型消息"),
            row(1, "NIMMessageTypeImage", "Image", original: "图片类型消息"),
            row(2, "NIMMessageTypeAudio", "Audio", original: "声音类型消息"),
            row(3, "NIMMessageTypeVideo", "Video", original: "视频类型消息"),
            row(4, "NIMMessageTypeLocation", "Location", original: "位置类型消息"),
            row(5, "NIMMessageTypeNotification", "Notification", original: "通知类型消息"),
            row(6, "NIMMessageTypeFile", "File", original: "文件类型消息"),
            row(10, "NIMMessageTypeTip", "Tip", original: "提醒类型消息"),
            row(11, "NIMMessageTypeRobot", "Robot", original: "机器人类型消息"),
            row(100, "NIMMessageTypeCustom", "Custom", original: "自定义类型消息"),
        ]
    }

    /// C/Node `NIMMessageType` (adds 12 G2 call record and the local 1000 Unknown).
    public static let messageTypeC = StatusTable(
        .nim, "NIMMessageType-c", title: "C/Node message types", kind: .enumeration, source: nodeEnums,
        travel: .message,
        notes: ["Later iOS SDKs name 12 NIMMessageTypeRtcCallRecord; its iOS value is not confirmed from a header."]
    ) { row in
        [
            row(0, "kNIMMessageTypeText", "Text", original: "文本类型消息"),
            row(1, "kNIMMessageTypeImage", "Image", original: "图片类型消息"),
            row(2, "kNIMMessageTypeAudio", "Audio", original: "声音类型消息"),
            row(3, "kNIMMessageTypeVideo", "Video", original: "视频类型消息"),
            row(4, "kNIMMessageTypeLocation", "Location", original: "位置类型消息"),
            row(
                5, "kNIMMessageTypeNotification",
                "System notification (team joins and leaves, …; see NIMNotificationId)",
                original: "系统类型通知（包括入群出群通知等） NIMNotificationId"),
            row(6, "kNIMMessageTypeFile", "File", original: "文件类型消息"),
            row(
                10, "kNIMMessageTypeTips", "Tip; its content goes into kNIMMsgKeyServerExt",
                original: """
                    提醒类型消息,Tip内容根据格式要求\
                    填入消息结构中的kNIMMsgKeyServerExt字段
                    """),
            row(11, "kNIMMessageTypeRobot", "Robot message", original: "波特机器人消息"),
            row(12, "kNIMMessageTypeG2NetCall", "G2 call record", original: "G2话单消息"),
            row(100, "kNIMMessageTypeCustom", "Custom", original: "自定义消息"),
            row(
                1000, "kNIMMessageTypeUnknown", "Unknown: local default only, never send it",
                original: "未知类型消息，本地使用，发送时勿使用，作为默认值",
                travel: .sdkEnum),
        ]
    }

    /// iOS `NIMMessageDeliveryState`.
    public static let messageDeliveryState = StatusTable(
        .nim, "NIMMessageDeliveryState", title: "iOS message delivery state", kind: .enumeration, source: messageHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMMessageDeliveryStateFailed", "Sending failed", original: "消息发送失败"),
            row(1, "NIMMessageDeliveryStateDelivering", "Sending", original: "消息发送中"),
            row(2, "NIMMessageDeliveryStateDeliveried", "Sent", original: "消息发送成功"),
        ]
    }

    /// iOS `NIMMessageAttachmentDownloadState`.
    public static let messageAttachmentDownloadState = StatusTable(
        .nim, "NIMMessageAttachmentDownloadState", title: "iOS attachment download state", kind: .enumeration,
        source: messageHeader, travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMMessageAttachmentDownloadStateNeedDownload", "Attachment needs downloading (never downloaded)",
                original: "附件需要进行下载 (有附件但并没有下载过)"),
            row(
                1, "NIMMessageAttachmentDownloadStateFailed", "Download failed (tried once and failed)",
                original: "附件收取失败 (尝试下载过一次并失败)"),
            row(2, "NIMMessageAttachmentDownloadStateDownloading", "Downloading", original: "附件下载中"),
            row(
                3, "NIMMessageAttachmentDownloadStateDownloaded", "Downloaded, or no attachment",
                original: "附件下载成功/无附件"),
        ]
    }

    /// iOS `NIMSessionType` (Chatroom 2 is an iOS API value; the wire `scene` is p2p 0, team 1, superTeam 5).
    public static let sessionType = StatusTable(
        .nim, "NIMSessionType", title: "iOS session types", kind: .enumeration, source: "\(iOSHeaders)/NIMSession.h",
        travel: .sdkEnum,
        notes: [
            "On the wire `scene` is {p2p: 0, team: 1, superTeam: 5} (NIM_Web_NIM_v8.5.0.js); see `NIMSessionType-c`."
        ]
    ) { row in
        [
            row(0, "NIMSessionTypeP2P", "Point to point", original: "点对点"),
            row(1, "NIMSessionTypeTeam", "Team", original: "群组"),
            row(2, "NIMSessionTypeChatroom", "Chatroom", original: "聊天室"),
        ]
    }

    /// C/Node `NIMSessionType`: the same numbers as the wire `scene`.
    public static let sessionTypeC = StatusTable(
        .nim, "NIMSessionType-c", title: "C/Node session types (wire `scene`)", kind: .enumeration,
        source: "\(nodeEnums); scene map in \(webBundle)", travel: .message
    ) { row in
        [
            row(0, "kNIMSessionTypeP2P", "Person to person", original: "个人，即点对点"),
            row(1, "kNIMSessionTypeTeam", "Team", original: "群组"),
            row(5, "kNIMSessionTypeSuperTeam", "Super team", original: "超大群组"),
        ]
    }

    /// C/Node `NIMMessageFeature`: how a message reached the client.
    public static let messageFeatureC = StatusTable(
        .nim, "NIMMessageFeature", title: "C/Node message features", kind: .enumeration, source: nodeEnums,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kNIMMessageFeatureDefault", "Default", original: "默认"),
            row(1, "kNIMMessageFeatureLeaveMsg", "Offline message", original: "离线消息"),
            row(2, "kNIMMessageFeatureRoamMsg", "Roaming message", original: "漫游消息"),
            row(3, "kNIMMessageFeatureSyncMsg", "Synchronised message", original: "同步消息"),
            row(4, "kNIMMessageFeatureCustomizedMsg", "Pass-through message", original: "透传消息"),
        ]
    }

    /// C/Node `NIMMsgLogStatus`: the state of a stored message.
    public static let msgLogStatusC = StatusTable(
        .nim, "NIMMsgLogStatus", title: "C/Node message log status", kind: .enumeration, source: nodeEnums,
        travel: .sdkEnum
    ) { row in
        [
            row(
                0, "kNIMMsgLogStatusNone", "Default; not usable as a query condition (too many meanings)",
                original: "默认,不能当查询条件,意义太多"),
            row(1, "kNIMMsgLogStatusUnread", "Received, unread", original: "收到消息,未读"),
            row(2, "kNIMMsgLogStatusRead", "Received, read", original: "收到消息,已读"),
            row(3, "kNIMMsgLogStatusDeleted", "Deleted", original: "已删"),
            row(4, "kNIMMsgLogStatusSending", "Sending", original: "发送中"),
            row(5, "kNIMMsgLogStatusSendFailed", "Sending failed", original: "发送失败"),
            row(6, "kNIMMsgLogStatusSent", "Sent", original: "已发送"),
            row(
                7, "kNIMMsgLogStatusReceipt", "The peer has read what was sent",
                original: "对方已读发送的内容"),
            row(8, "kNIMMsgLogStatusDraft", "Draft", original: "草稿"),
            row(9, "kNIMMsgLogStatusSendCancel", "Sending cancelled", original: "发送取消"),
            row(
                10, "kNIMMsgLogStatusRefused", "Refused by the peer, e.g. because the peer blacklisted the sender",
                original: "被对方拒绝,比如被对方加入黑名单等等"),
        ]
    }

    /// C/Node `NIMMsgLogSubStatus` (whether an audio message was played).
    public static let msgLogSubStatusC = StatusTable(
        .nim, "NIMMsgLogSubStatus", title: "C/Node message log sub-status", kind: .enumeration,
        source: nodeEnums, travel: .sdkEnum
    ) { row in
        [
            row(0, "kNIMMsgLogSubStatusNone", "Default state", original: "默认状态"),
            row(20, "kNIMMsgLogSubStatusNotPlaying", "Not played", original: "未播放"),
            row(21, "kNIMMsgLogSubStatusPlayed", "Played", original: "已播放"),
        ]
    }

    /// iOS `NIMMessageSearchOrder`.
    public static let messageSearchOrder = StatusTable(
        .nim, "NIMMessageSearchOrder", title: "iOS message search order", kind: .enumeration,
        source: "\(iOSHeaders)/NIMMessageSearchOption.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMMessageSearchOrderDesc", "Search from newer to older messages",
                original: "从新消息往旧消息查询"),
            row(
                1, "NIMMessageSearchOrderAsc", "Search from older to newer messages",
                original: "从旧消息往新消息查询"),
        ]
    }
}
