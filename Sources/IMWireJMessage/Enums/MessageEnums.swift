import IMWireCore

extension JMessageStatusCodes {
    /// iOS `JMSGConversationType` (Android `ConversationType` names single, group, chatroom).
    public static let conversationType = StatusTable(
        .jmessage, "JMSGConversationType", title: "iOS conversation types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(1, "kJMSGConversationTypeSingle", "One-to-one chat", original: "单聊"),
            row(2, "kJMSGConversationTypeGroup", "Group chat", original: "群聊"),
            row(3, "kJMSGConversationTypeChatRoom", "Chatroom", original: "聊天室"),
        ]
    }

    /// iOS `JMSGContentType` 0–9 (the wire's `msg_type` is a string: text, voice, image, …).
    public static let contentType = StatusTable(
        .jmessage, "JMSGContentType", title: "iOS message content types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum,
        notes: [
            """
            On the wire the message protocol's `msg_type` is a string (text, \
            voice, image, file, video, location, custom; jmessage.md §3).
            """
        ]
    ) { row in
        [
            row(0, "kJMSGContentTypeUnknown", "Unknown message type", original: "不知道类型的消息"),
            row(1, "kJMSGContentTypeText", "Text", original: "文本消息"),
            row(2, "kJMSGContentTypeImage", "Image", original: "图片消息"),
            row(3, "kJMSGContentTypeVoice", "Voice", original: "语音消息"),
            row(4, "kJMSGContentTypeCustom", "Custom", original: "自定义消息"),
            row(
                5, "kJMSGContentTypeEventNotification",
                "Event notification: a server event shown locally as a message of this type",
                original: """
                    事件通知消息。服务器端下发的事件通知，\
                    本地展示为这个类型的消息展示出来
                    """),
            row(6, "kJMSGContentTypeFile", "File", original: "文件消息"),
            row(7, "kJMSGContentTypeLocation", "Location", original: "地理位置消息"),
            row(8, "kJMSGContentTypePrompt", "Prompt", original: "提示性消息"),
            row(9, "kJMSGContentTypeVideo", "Video", original: "视频消息"),
        ]
    }

    /// iOS `JMSGPromptContentType`.
    public static let promptContentType = StatusTable(
        .jmessage, "JMSGPromptContentType", title: "iOS prompt content types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kJMSGPromptContentTypeRetractMessage", "Message-retracted prompt", original: "消息撤回提示"),
            row(1, "kJMSGPromptContentTypeAPPRbag", "Custom prompt", original: "自定义提示"),
        ]
    }

    /// iOS `JMSGMessageStatus` 0–8.
    public static let messageStatus = StatusTable(
        .jmessage, "JMSGMessageStatus", title: "iOS message status", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(
                0, "kJMSGMessageStatusSendDraft", "Initial state of a new outgoing message",
                original: "发送息创建时的初始状态"),
            row(
                1, "kJMSGMessageStatusSending", "Sending (the UI usually shows progress)",
                original: "消息正在发送过程中. UI 一般显示进度条"),
            row(
                2, "kJMSGMessageStatusSendUploadFailed", "Media upload failed",
                original: "媒体类消息文件上传失败"),
            row(
                3, "kJMSGMessageStatusSendUploadSucceed", "Media uploaded",
                original: "媒体类消息文件上传成功"),
            row(4, "kJMSGMessageStatusSendFailed", "Sending failed", original: "消息发送失败"),
            row(5, "kJMSGMessageStatusSendSucceed", "Sent", original: "消息发送成功"),
            row(
                6, "kJMSGMessageStatusReceiving", "Receiving (still being processed)",
                original: "接收中的消息(还在处理)"),
            row(
                7, "kJMSGMessageStatusReceiveDownloadFailed", "Received, but the automatic media download failed",
                original: "接收消息时自动下载媒体失败"),
            row(8, "kJMSGMessageStatusReceiveSucceed", "Received", original: "接收消息成功"),
        ]
    }

    /// iOS `JMSGFileType`.
    public static let fileType = StatusTable(
        .jmessage, "JMSGFileType", title: "iOS file types", kind: .enumeration, source: iOSHeader, travel: .sdkEnum
    ) { row in
        [
            row(0, "kJMSGFileTypeUnknown", "Unknown file type", original: "未知的文件类型"),
            row(1, "kJMSGFileTypeImage", "Image", original: "图片类型"),
            row(2, "kJMSGFileTypeVoice", "Voice", original: "语音类型"),
            row(3, "kJMSGFileTypeFile", "File", original: "文件类型"),
            row(4, "kJMSGFileTypeVideo", "Video", original: "视频类型"),
        ]
    }

    /// iOS `JMSGTransMessageType`.
    public static let transMessageType = StatusTable(
        .jmessage, "JMSGTransMessageType", title: "iOS transparent message types", kind: .enumeration,
        source: iOSHeader,
        travel: .sdkEnum,
        notes: [
            "The Web `trans_msg_rec` uses type 3 single, 4 group, 5 own devices instead (see `web-trans-msg-type`)."
        ]
    ) { row in
        [
            row(1, "kJMSGTransMessageTypeSingle", "One-to-one transparent message", original: "单聊透传消息"),
            row(2, "kJMSGTransMessageTypeGroup", "Group transparent message", original: "群里透传消息"),
            row(
                3, "kJMSGTransMessageTypeCrossDevice", "Transparent message between own devices",
                original: "设备间透传消息"),
        ]
    }
}
