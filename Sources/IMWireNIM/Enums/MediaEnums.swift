import IMWireCore

// Images, audio recording and playback, and document transcoding.
extension NIMStatusCodes {
    /// iOS `NIMImageFormat`.
    public static let imageFormat = StatusTable(
        .nim, "NIMImageFormat", title: "iOS image formats", kind: .enumeration,
        source: "\(iOSHeaders)/NIMImageObject.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMImageFormatJPEG", "JPEG", original: "Jpeg格式"),
            row(1, "NIMImageFormatPNG", "PNG", original: "Png格式"),
        ]
    }

    /// iOS `NIMAudioOutputDevice`.
    public static let audioOutputDevice = StatusTable(
        .nim, "NIMAudioOutputDevice", title: "iOS audio output devices", kind: .enumeration,
        source: "\(iOSHeaders)/NIMMediaManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMAudioOutputDeviceReceiver", "Earpiece (receiver)", original: "听筒"),
            row(1, "NIMAudioOutputDeviceSpeaker", "Speaker", original: "扬声器"),
        ]
    }

    /// iOS `NIMAudioType`.
    public static let audioType = StatusTable(
        .nim, "NIMAudioType", title: "iOS audio recording types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMMediaManagerProtocol.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMAudioTypeAAC", "aac"),
            row(1, "NIMAudioTypeAMR", "amr"),
        ]
    }

    /// iOS `NIMDocTranscodingFileType`.
    public static let docTranscodingFileType = StatusTable(
        .nim, "NIMDocTranscodingFileType", title: "iOS document transcoding file types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMDocTranscodingInfo.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMDocTranscodingFileTypePPT", "ppt"),
            row(2, "NIMDocTranscodingFileTypePPTX", "pptx"),
            row(3, "NIMDocTranscodingFileTypePDF", "pdf"),
        ]
    }

    /// iOS `NIMDocTranscodingImageType`.
    public static let docTranscodingImageType = StatusTable(
        .nim, "NIMDocTranscodingImageType", title: "iOS document transcoding image types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMDocTranscodingInfo.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMDocTranscodingImageTypeUnknown", "Unknown image file type",
                original: "未知图像文件类型"),
            row(10, "NIMDocTranscodingImageTypeJPG", "Transcode to jpg images", original: "转码为 jpg 图片"),
            row(11, "NIMDocTranscodingImageTypePNG", "Transcode to png images", original: "转码为 png 图片"),
        ]
    }

    /// iOS `NIMDocTranscodingQuality`.
    public static let docTranscodingQuality = StatusTable(
        .nim, "NIMDocTranscodingQuality", title: "iOS document transcoding quality", kind: .enumeration,
        source: "\(iOSHeaders)/NIMDocTranscodingInfo.h", travel: .sdkEnum
    ) { row in
        [
            row(1, "NIMDocTranscodingQualityHigh", "High transcoding quality", original: "高清转码质量"),
            row(2, "NIMDocTranscodingQualityMedium", "Medium transcoding quality", original: "中等转码质量"),
            row(3, "NIMDocTranscodingQualityLow", "Low transcoding quality", original: "低清转码质量"),
        ]
    }

    /// iOS `NIMDocTranscodingState`.
    public static let docTranscodingState = StatusTable(
        .nim, "NIMDocTranscodingState", title: "iOS document transcoding state", kind: .enumeration,
        source: "\(iOSHeaders)/NIMDocTranscodingInfo.h", travel: .sdkEnum
    ) { row in
        [
            row(0, "NIMDocTranscodingStateUnknown", "Unknown transcoding state", original: "未知转码状态"),
            row(1, "NIMDocTranscodingStatePreparing", "Preparing to transcode", original: "转码准备中"),
            row(2, "NIMDocTranscodingStateOngoing", "Transcoding", original: "转码进行中"),
            row(3, "NIMDocTranscodingStateTimeout", "Transcoding timed out", original: "转码超时"),
            row(4, "NIMDocTranscodingStateCompleted", "Transcoding completed", original: "转码完成"),
            row(5, "NIMDocTranscodingStateFailed", "Transcoding failed", original: "转码失败"),
        ]
    }
}
