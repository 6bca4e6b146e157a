import IMWireCore

// NIMAVChat audio/video settings: capture, quality, codecs, frame rates, live-streaming mix and status.
extension NIMStatusCodes {
    /// iOS NIMAVChat `NIMVideoOrientation`.
    public static let videoOrientation = StatusTable(
        .nim, "NIMVideoOrientation", title: "iOS video orientations", kind: .enumeration, source: iOSAVHeaders,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMVideoOrientationDefault", "Default orientation", original: "默认方向"),
            row(
                1, "NIMVideoOrientationPortrait", "Portrait, home button at the bottom",
                original: "垂直方向, home 键朝下"),
            row(
                2, "NIMVideoOrientationPortraitUpsideDown", "Portrait, home button at the top",
                original: "垂直方向, home 键朝上"),
            row(
                3, "NIMVideoOrientationLandscapeRight", "Landscape, home button on the right",
                original: "水平方向, home 键在右边"),
            row(
                4, "NIMVideoOrientationLandscapeLeft", "Landscape, home button on the left",
                original: "水平方向, home 键在左边"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallVideoCaptureFormat`.
    public static let netCallVideoCaptureFormat = StatusTable(
        .nim, "NIMNetCallVideoCaptureFormat", title: "iOS video capture formats", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMNetCallVideoCaptureFormat420f",
                "NV12, full range (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)",
                original: "NV12 格式, full range, 对应 kCVPixelFormatType_420YpCbCr8BiPlanarFullRange"),
            row(
                1, "NIMNetCallVideoCaptureFormat420v",
                "NV12, video range (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)",
                original: "NV12 格式, video range, 对应 kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange"),
            row(
                2, "NIMNetCallVideoCaptureFormatBGRA", "ARGB (kCVPixelFormatType_32BGRA)",
                original: "ARGB 格式, 对应 kCVPixelFormatType_32BGRA"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallVideoQuality`.
    public static let netCallVideoQuality = StatusTable(
        .nim, "NIMNetCallVideoQuality", title: "iOS video quality", kind: .enumeration, source: iOSAVHeaders,
        travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMNetCallVideoQualityDefault", "Default video quality, usually the 480p level",
                original: "默认视频质量. 一般是 480P 等级"),
            row(1, "NIMNetCallVideoQualityLow", "Low video quality", original: "低视频质量"),
            row(2, "NIMNetCallVideoQualityMedium", "Medium video quality", original: "中等视频质量"),
            row(3, "NIMNetCallVideoQualityHigh", "High video quality", original: "高视频质量"),
            row(4, "NIMNetCallVideoQuality480pLevel", "480p-level video quality", original: "480P 等级视频质量"),
            row(5, "NIMNetCallVideoQuality540pLevel", "540p-level video quality", original: "540P 等级视频质量"),
            row(6, "NIMNetCallVideoQuality720pLevel", "720p-level video quality", original: "720P 等级视频质量"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallVideoCrop`.
    public static let netCallVideoCrop = StatusTable(
        .nim, "NIMNetCallVideoCrop", title: "iOS video crop ratios", kind: .enumeration, source: iOSAVHeaders,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMNetCallVideoCrop16x9", "Crop to 16:9", original: "16:9 裁剪"),
            row(1, "NIMNetCallVideoCrop4x3", "Crop to 4:3", original: "4:3 裁剪"),
            row(2, "NIMNetCallVideoCrop1x1", "Crop to 1:1", original: "1:1 裁剪"),
            row(3, "NIMNetCallVideoCropNoCrop", "No cropping", original: "不裁剪"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallVideoCodec`.
    public static let netCallVideoCodec = StatusTable(
        .nim, "NIMNetCallVideoCodec", title: "iOS video codecs", kind: .enumeration, source: iOSAVHeaders,
        travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMNetCallVideoCodecDefault", "Default codec: the SDK picks a suitable encoder",
                original: "默认编解码器, SDK 自己选择合适的编码器"),
            row(1, "NIMNetCallVideoCodecSoftware", "Software encoding and decoding", original: "软件编解码"),
            row(
                2, "NIMNetCallVideoCodecHardware", "Hardware encoding and decoding (iOS 8.0 and later only)",
                original: "硬件编解码. 注意: 硬件编解码只在 iOS 8.0 及以上系统适用"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallVideoFrameRate`.
    public static let netCallVideoFrameRate = StatusTable(
        .nim, "NIMNetCallVideoFrameRate", title: "iOS video frame rates", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMNetCallVideoFrameRateMin", "The lowest frame rate the SDK supports",
                original: "SDK 支持的最小帧率"),
            row(1, "NIMNetCallVideoFrameRate5FPS", "5 FPS"),
            row(2, "NIMNetCallVideoFrameRate10FPS", "10 FPS"),
            row(3, "NIMNetCallVideoFrameRate15FPS", "15 FPS"),
            row(4, "NIMNetCallVideoFrameRate20FPS", "20 FPS"),
            row(5, "NIMNetCallVideoFrameRate25FPS", "25 FPS"),
            row(6, "NIMNetCallVideoFrameRateDefault", "Default frame rate: 15 FPS", original: "缺省帧率. 15 FPS"),
            row(
                7, "NIMNetCallVideoFrameRateMax", "The highest frame rate the SDK supports",
                original: "SDK 支持的最大帧率"),
        ]
    }

    /// iOS NIMAVChat `NIMAVChatScene`.
    public static let avChatScene = StatusTable(
        .nim, "NIMAVChatScene", title: "iOS audio scenes", kind: .enumeration, source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMAVChatSceneDefault", "Default scene", original: "默认场景"),
            row(
                1, "NIMAVChatSceneHighQualityMusic", "High-quality music scene; only with preferHDAudio on",
                original: "高清音乐场景. 只在 preferHDAudio 开启时生效"),
            row(
                2, "NIMAVChatSceneHighQualityMusicAdaptive",
                """
                Adaptive high-quality music scene; only with preferHDAudio on. In a multi-party meeting it switches \
                to HD music while no one else (or only audience) is present, and to VoIP when another party speaks
                """,
                original: """
                    自适应高清音乐场景. 只在 preferHDAudio 开启时生效. \
                    该场景在多人会议中无其他端或者其他端都是观众时适时自\
                    动适配高清音乐，当其他端有发言者时自动适配 VoIP 通话
                    """),
        ]
    }

    /// iOS NIMAVChat `NIMAVChatVideoAdaptiveStrategy`.
    public static let avChatVideoAdaptiveStrategy = StatusTable(
        .nim, "NIMAVChatVideoAdaptiveStrategy", title: "iOS video adaptive strategies", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMAVChatVideoAdaptiveStrategySmooth", "Smoothness first", original: "流畅优先"),
            row(2, "NIMAVChatVideoAdaptiveStrategyQuality", "Clarity first", original: "清晰优先"),
            row(3, "NIMAVChatVideoAdaptiveStrategyScreenRecord", "Screen-recording mode", original: "录屏模式"),
        ]
    }

    /// iOS NIMAVChat `NIMAVChatAcousticEchoCanceler`.
    public static let avChatAcousticEchoCanceler = StatusTable(
        .nim, "NIMAVChatAcousticEchoCanceler", title: "iOS echo cancellation modes", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMAVChatAcousticEchoCancelerDefault", "Default echo cancellation", original: "默认回声抑制"),
            row(
                1, "NIMAVChatAcousticEchoCancelerSDKBuiltin", "The SDK's built-in echo cancellation",
                original: "SDK 内建回声抑制"),
            row(2, "NIMAVChatAcousticEchoCancelerClose", "Echo cancellation off", original: "关闭回声抑制"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallBypassStreamingMixMode`.
    public static let netCallBypassStreamingMixMode = StatusTable(
        .nim, "NIMNetCallBypassStreamingMixMode", title: "iOS interactive live-streaming mix modes", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMNetCallBypassStreamingMixModeFloatingRightVertical",
                "Floating windows stacked on the right (picture in picture)",
                original: "右侧纵排浮窗(画中画)"),
            row(
                1, "NIMNetCallBypassStreamingMixModeFloatingLeftVertical",
                "Floating windows stacked on the left (picture in picture)",
                original: "左侧纵排浮窗(画中画)"),
            row(
                2, "NIMNetCallBypassStreamingMixModeLatticeAspectFit", "Tiled grid, whole picture shown, no cropping",
                original: "分格平铺, 显示完整画面, 不裁剪"),
            row(
                3, "NIMNetCallBypassStreamingMixModeLatticeAspectFill", "Tiled grid, area filled, may crop",
                original: "分格平铺, 填满区域, 可能裁剪"),
            row(
                4, "NIMNetCallBypassStreamingMixModeCustomVideoLayout", "Custom video layout",
                original: "自定义视频布局"),
            row(
                5, "NIMNetCallBypassStreamingMixModeCustomAudioLayout", "Custom audio layout (number of people mixed)",
                original: "自定义音频布局（混屏人数）"),
        ]
    }

    /// iOS NIMAVChat `NIMBypassStreamingStatus`.
    public static let bypassStreamingStatus = StatusTable(
        .nim, "NIMBypassStreamingStatus", title: "iOS interactive live-streaming status", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum,
        notes: [
            """
            The header comments 505 and 506 alike (推流中, \
            "pushing"); 506 is read as push failed from its name.
            """
        ]
    ) { row in
        [
            row(500, "NIMBypassStreamingStatusInitial", "Initial state", original: "初始状态"),
            row(
                501, "NIMBypassStreamingStatusLayoutError", "The host's custom layout parameters are wrong",
                original: "主播设置定制布局参数错误"),
            row(502, "NIMBypassStreamingStatusConnecting", "Connecting", original: "开始连接"),
            row(503, "NIMBypassStreamingStatusConnected", "Connected", original: "连接成功"),
            row(504, "NIMBypassStreamingStatusConnectFailed", "Connecting failed", original: "连连接失败"),
            row(505, "NIMBypassStreamingStatusPushing", "Pushing the stream", original: "推流中"),
            row(
                506, "NIMBypassStreamingStatusPushFailed",
                "Pushing the stream failed (read from the name; the header comment repeats 505's \"pushing\")",
                original: "推流中"),
            row(
                507, "NIMBypassStreamingStatusInternalError", "Interactive live-streaming server internal error",
                original: "互动直播服务器内部错误"),
            row(508, "NIMBypassStreamingStatusUserCountLimit", "Too many people", original: "人数超出限制"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallFilterType`.
    public static let netCallFilterType = StatusTable(
        .nim, "NIMNetCallFilterType", title: "iOS video filters", kind: .enumeration, source: iOSAVHeaders,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMNetCallFilterTypeNormal", "No filter", original: "无滤镜"),
            row(1, "NIMNetCallFilterTypeSepia", "Black and white", original: "黑白"),
            row(2, "NIMNetCallFilterTypeZiran", "Natural", original: "自然"),
            row(3, "NIMNetCallFilterTypeMeiyan1", "Pink", original: "粉嫩"),
            row(4, "NIMNetCallFilterTypeMeiyan2", "Nostalgic", original: "怀旧"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallWaterMarkLocation`.
    public static let netCallWaterMarkLocation = StatusTable(
        .nim, "NIMNetCallWaterMarkLocation", title: "iOS watermark positions", kind: .enumeration,
        source: iOSAVHeaders, travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMNetCallWaterMarkLocationRect", "Positioned by the rect's origin",
                original: "由rect的origin定位置"),
            row(1, "NIMNetCallWaterMarkLocationLeftUp", "Top left", original: "左上"),
            row(2, "NIMNetCallWaterMarkLocationLeftDown", "Bottom left", original: "左下"),
            row(3, "NIMNetCallWaterMarkLocationRightUp", "Top right", original: "右上"),
            row(4, "NIMNetCallWaterMarkLocationRightDown", "Bottom right", original: "右下"),
            row(5, "NIMNetCallWaterMarkLocationCenter", "Centre", original: "中间"),
        ]
    }

    /// iOS NIMAVChat `NIMNetCallFocusMode`.
    public static let netCallFocusMode = StatusTable(
        .nim, "NIMNetCallFocusMode", title: "iOS camera focus modes", kind: .enumeration, source: iOSAVHeaders,
        travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMNetCallFocusModeManual", "Manual focus", original: "手动对焦"),
            row(2, "NIMNetCallFocusModeAuto", "Auto focus", original: "自动对焦"),
        ]
    }

    /// iOS NIMAVChat `NIMAVChatNetDetectType`.
    public static let avChatNetDetectType = StatusTable(
        .nim, "NIMAVChatNetDetectType", title: "iOS network probe types", kind: .enumeration,
        source: "\(iOSAVFramework)/NIMAVChatNetDetectManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMAVChatNetDetectTypeAudio", "Audio probe", original: "音频探测"),
            row(
                1, "NIMAVChatNetDetectTypeDefault", "Default definition (video probe)",
                original: "默认清晰度 （视频探测）"),
            row(
                2, "NIMAVChatNetDetectTypeLow", "Low video quality (video probe)",
                original: "低视频质量 （视频探测）"),
            row(
                3, "NIMAVChatNetDetectTypeMedium", "Medium video quality (video probe)",
                original: "中等视频质量 （视频探测）"),
            row(
                4, "NIMAVChatNetDetectTypeHigh", "High video quality (video probe)",
                original: "高视频质量 （视频探测）"),
            row(5, "NIMAVChatNetDetectType480P", "480P (video probe)", original: "480P （视频探测）"),
            row(6, "NIMAVChatNetDetectType540P", "540P (video probe)", original: "540P （视频探测）"),
            row(7, "NIMAVChatNetDetectType720P", "720P (video probe)", original: "720P （视频探测）"),
        ]
    }
}
