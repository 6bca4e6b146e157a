import IMWireCore

extension LeanCloudStatusCodes {
    static let message = "objc-sdk 12.3.3 AVOS/AVOSCloudIM/Message/AVIMMessage.h"

    /// objc `AVIMMessageStatus`: a message's local delivery state.
    public static let messageStatus = StatusTable(
        .leancloud, "AVIMMessageStatus", title: "objc message status", kind: .enumeration, source: message,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "AVIMMessageStatusNone", "No status"),
            row(1, "AVIMMessageStatusSending", "Sending"),
            row(2, "AVIMMessageStatusSent", "Sent (acked by the server)"),
            row(3, "AVIMMessageStatusDelivered", "Delivered to the receiver"),
            row(4, "AVIMMessageStatusFailed", "Sending failed"),
            row(5, "AVIMMessageStatusRead", "Read by the receiver"),
        ]
    }

    /// objc `AVIMMessageIOType`: whether a message was received or sent.
    public static let messageIOType = StatusTable(
        .leancloud, "AVIMMessageIOType", title: "objc message direction", kind: .enumeration, source: message,
        travel: .sdkEnum
    ) { row in
        [
            row(1, "AVIMMessageIOTypeIn", "Incoming"),
            row(2, "AVIMMessageIOTypeOut", "Outgoing"),
        ]
    }

    /// objc `AVIMMessageMediaType`: the typed-message `_lctype` values (leancloud.md §7, §11).
    public static let messageMediaType = StatusTable(
        .leancloud, "AVIMMessageMediaType", title: "typed-message types (`_lctype`)", kind: .enumeration,
        source: message,
        travel: .message,
        notes: [
            """
            Negative values are the SDK's types; positive values are for app-defined \
            types (swift `register()` requires > 0); 0 means no type (leancloud.md §7).
            """
        ]
    ) { row in
        [
            row(0, "kAVIMMessageMediaTypeNone", "No type (reserved)", travel: .sdkEnum),
            row(-1, "kAVIMMessageMediaTypeText", "Text"),
            row(-2, "kAVIMMessageMediaTypeImage", "Image"),
            row(-3, "kAVIMMessageMediaTypeAudio", "Audio"),
            row(-4, "kAVIMMessageMediaTypeVideo", "Video"),
            row(-5, "kAVIMMessageMediaTypeLocation", "Location"),
            row(-6, "kAVIMMessageMediaTypeFile", "File"),
            row(
                -127, "kAVIMMessageMediaTypeRecalled",
                "Recalled message: an SDK-side placeholder (swift ReservedType.recalled)", travel: .sdkEnum),
        ]
    }

    /// objc `AVIMMessageSendOption` (deprecated; a plain C enum, not NS_OPTIONS).
    public static let messageSendOption = StatusTable(
        .leancloud, "AVIMMessageSendOption", title: "objc message send option (deprecated)", kind: .options,
        source: "objc-sdk 12.3.3 AVIMCommon.h:163-169 (removed from LCIMCommon.h in b7939b7b, 2021-05-17)",
        travel: .sdkEnum
    ) { row in
        [
            row(0, "AVIMMessageSendOptionNone", "No option"),
            row(1, "AVIMMessageSendOptionTransient", "Transient message (1 << 0)"),
            row(2, "AVIMMessageSendOptionRequestReceipt", "Request a receipt (1 << 1)"),
        ]
    }

    /// objc `AVIMMessagePriority`, for messages in transient conversations.
    public static let messagePriority = StatusTable(
        .leancloud, "AVIMMessagePriority", title: "objc message priority", kind: .enumeration,
        source: "objc-sdk 12.3.3 AVOS/AVOSCloudIM/Message/AVIMMessageOption.h", travel: .sdkEnum,
        notes: [
            "GenericCommand has an int32 `priority` (field 7); that it carries these values is INFERRED, not stated."
        ]
    ) { row in
        [
            row(1, "AVIMMessagePriorityHigh", "High"),
            row(2, "AVIMMessagePriorityNormal", "Normal"),
            row(3, "AVIMMessagePriorityLow", "Low"),
        ]
    }
}
