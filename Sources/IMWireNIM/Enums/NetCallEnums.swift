import IMWireCore

// Net calls (audio/video calls) and RTS sessions: call types, states, control messages, events.
extension NIMStatusCodes {
    /// iOS `NIMNetCallType`.
    public static let netCallType = StatusTable(
        .nim, "NIMNetCallType", title: "iOS net-call types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMGlobalDefs.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMNetCallTypeAudio", "Audio call", original: "音频通话"),
            row(2, "NIMNetCallTypeVideo", "Video call", original: "视频通话"),
        ]
    }

    /// iOS `NIMNetCallEventType`: the event of a net-call notification message.
    public static let netCallEventType = StatusTable(
        .nim, "NIMNetCallEventType", title: "iOS net-call event types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMNetCallNotificationContent.h", travel: .sdkEnum,
        notes: ["C/Node `NIMNotificationId` uses 101 and 102 for the same missed call and call record (nim.md §2.2)."]
    ) { row in
        [
            row(-1, "NIMNetCallEventTypeReject", "The peer rejected the call", original: "对方拒接电话"),
            row(-2, "NIMNetCallEventTypeNoResponse", "The peer did not answer", original: "对方无人接听"),
            row(101, "NIMNetCallEventTypeMiss", "Missed call", original: "未接电话"),
            row(102, "NIMNetCallEventTypeBill", "Call record (bill)", original: "电话回单"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallStatus`.
    public static let netCallStatus = StatusTable(
        .nim, "NIMNetCallStatus", title: "iOS net-call status", kind: .enumeration,
        source: "\(iOSAVFramework)/NIMNetCallManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMNetCallStatusConnect", "Connected", original: "已连接"),
            row(1, "NIMNetCallStatusDisconnect", "Disconnected", original: "已断开"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallControlType` (the source spells 12 `NIMNetCallControlTypeFeedabck`).
    public static let netCallControlType = StatusTable(
        .nim, "NIMNetCallControlType", title: "iOS net-call control types", kind: .enumeration,
        source: "\(iOSAVFramework)/NIMNetCallManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMNetCallControlTypeOpenAudio", "Audio turned on", original: "开启了音频"),
            row(2, "NIMNetCallControlTypeCloseAudio", "Audio turned off", original: "关闭了音频"),
            row(3, "NIMNetCallControlTypeOpenVideo", "Video turned on", original: "开启了视频"),
            row(4, "NIMNetCallControlTypeCloseVideo", "Video turned off", original: "关闭了视频"),
            row(5, "NIMNetCallControlTypeToVideo", "Switch to video mode", original: "切换到视频模式"),
            row(
                6, "NIMNetCallControlTypeAgreeToVideo",
                "Agree to switch to video mode (when switching needs the peer's consent)",
                original: "同意切换到视频模式，用于切到视频模式需要对方同意的场景"),
            row(
                7, "NIMNetCallControlTypeRejectToVideo",
                "Refuse to switch to video mode (when switching needs the peer's consent)",
                original: "拒绝切换到视频模式，用于切到视频模式需要对方同意的场景"),
            row(8, "NIMNetCallControlTypeToAudio", "Switch to audio mode", original: "切换到音频模式"),
            row(9, "NIMNetCallControlTypeBusyLine", "Line busy", original: "占线"),
            row(10, "NIMNetCallControlTypeNoCamera", "No camera available", original: "没有可用摄像头"),
            row(
                11, "NIMNetCallControlTypeBackground", "The app went to the background",
                original: "应用切换到了后台"),
            row(
                12, "NIMNetCallControlTypeFeedabck",
                """
                Feedback on receiving the call request; usually the \
                callee telling the caller to play the ringback tone
                """,
                original: "收到呼叫请求的反馈，通常用于被叫告诉主叫可以播放回铃音了"),
            row(13, "NIMNetCallControlTypeStartRecord", "Recording started", original: "开始录制"),
            row(14, "NIMNetCallControlTypeStopRecord", "Recording stopped", original: "结束录制"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallNetStatus`.
    public static let netCallNetStatus = StatusTable(
        .nim, "NIMNetCallNetStatus", title: "iOS net-call network quality", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(
                -1, "NIMNetCallNetStatusVideoClosed", "Network extremely poor; video sending turned off",
                original: "网络极差,视频发送被关闭"),
            row(0, "NIMNetCallNetStatusVeryGood", "Network very good", original: "网络非常好"),
            row(1, "NIMNetCallNetStatusGood", "Network good", original: "网络好"),
            row(2, "NIMNetCallNetStatusPoor", "Network weak", original: "网络弱"),
            row(3, "NIMNetCallNetStatusBad", "Network bad", original: "网络差"),
            row(
                4, "NIMNetCallNetStatusVeryBad", "Network extremely poor; stopping video sending is advised",
                original: "网络极差, 建议停止视频发送"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallMediaType`.
    public static let netCallMediaType = StatusTable(
        .nim, "NIMNetCallMediaType", title: "iOS net-call media types", kind: .enumeration, source: iOSAVHeaders,
        travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMNetCallMediaTypeAudio", "Audio call", original: "音频通话"),
            row(2, "NIMNetCallMediaTypeVideo", "Video call", original: "视频通话"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallCamera`.
    public static let netCallCamera = StatusTable(
        .nim, "NIMNetCallCamera", title: "iOS net-call cameras", kind: .enumeration,
        source: "\(iOSAVFramework)/NIMNetCallManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMNetCallCameraFront", "Front camera", original: "前置摄像头"),
            row(1, "NIMNetCallCameraBack", "Back camera", original: "后置摄像头"),
        ]
    }

    /// iOS NIMAVChat `NIMRTSStatus`.
    public static let rtsStatus = StatusTable(
        .nim, "NIMRTSStatus", title: "iOS RTS session status", kind: .enumeration,
        source: "\(iOSAVFramework)/NIMRTSManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMRTSStatusConnect", "Connected", original: "已连接"),
            row(1, "NIMRTSStatusDisconnect", "Disconnected", original: "已断开"),
        ]
    }

    /// iOS NIMAVChat `NIMRTSService`.
    public static let rtsService = StatusTable(
        .nim, "NIMRTSService", title: "iOS RTS services", kind: .enumeration,
        source: "\(iOSAVFramework)/NIMRTSManagerProtocol.h", travel: .sdkEnum,
        notes: [
            """
            An NS_ENUM, but `requestRTS` takes a combination of services \
            (NIMRTSServiceReliableTransfer | NIMRTSServiceAudio) as an NSUInteger (header comment).
            """
        ]
    ) { row in
        [
            row(
                1, "NIMRTSServiceReliableTransfer", "Includes the reliable data transfer service",
                original: "包含可靠数据传输服务"),
            row(
                4, "NIMRTSServiceAudio", "Includes the real-time voice service",
                original: "包含实时语音沟通服务"),
        ]
    }

    /// iOS NIMAVChat `NIMRTSConferenceUserLeaveReason`.
    public static let rtsConferenceUserLeaveReason = StatusTable(
        .nim, "NIMRTSConferenceUserLeaveReason", title: "iOS RTS conference leave reasons", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMRTSConferenceUserLeaveReasonNormal", "Left normally", original: "正常离开"),
            row(1, "NIMRTSConferenceUserLeaveReasonTimeout", "Left after a timeout", original: "超时离开"),
        ]
    }
}
