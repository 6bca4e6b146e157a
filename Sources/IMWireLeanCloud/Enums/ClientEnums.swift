import IMWireCore

extension LeanCloudStatusCodes {
    static let common = "objc-sdk 12.3.3 AVOS/AVOSCloudIM/AVIMCommon.h (LCIM* with the same values from 13.x)"
    static let commonInternal = "objc-sdk 12.3.3 AVOS/AVOSCloudIM/AVIMCommon_Internal.h"

    /// objc `AVIMClientStatus` (leancloud.md §11, §8): the client's connection state.
    public static let clientStatus = StatusTable(
        .leancloud, "AVIMClientStatus", title: "objc client status", kind: .enumeration, source: common,
        travel: .sdkEnum,
        notes: ["Closed means no automatic recovery (e.g. after 4111 or 4115), per LCIMClientProtocol.h:27-54."]
    ) { row in
        [
            row(0, "AVIMClientStatusNone", "Not opened yet"),
            row(1, "AVIMClientStatusOpening", "Opening the session"),
            row(2, "AVIMClientStatusOpened", "Session open"),
            row(3, "AVIMClientStatusPaused", "Connection lost; waiting to resume"),
            row(4, "AVIMClientStatusResuming", "Reconnecting and reopening the session"),
            row(5, "AVIMClientStatusClosing", "Closing the session"),
            row(6, "AVIMClientStatusClosed", "Closed; no automatic recovery"),
        ]
    }

    /// objc `AVIMClientOpenOption`: sent as the session `r` flag (false for force open, true for reopen).
    public static let clientOpenOption = StatusTable(
        .leancloud, "AVIMClientOpenOption", title: "objc client open option", kind: .enumeration, source: common,
        travel: .sdkEnum,
        notes: [
            """
            Travels as SessionCommand `r` (ForceOpen → r=false, \
            Reopen → r=true), not as this number (leancloud.md §4.2).
            """
        ]
    ) { row in
        [
            row(
                0, "AVIMClientOpenOptionForceOpen",
                "Force open: kicks another client with the same tag (without a tag, a normal open)"),
            row(
                1, "AVIMClientOpenOptionReopen",
                """
                Reopen: fails with 4111 instead of kicking when \
                another device took over (without a tag, a normal open)
                """),
        ]
    }

    /// objc `LCIMSessionConfigOptions`: the bits of `SessionCommand.configBitmap` (field 19).
    public static let sessionConfigOptions = StatusTable(
        .leancloud, "LCIMSessionConfigOptions", title: "session configBitmap feature bits", kind: .options,
        source: commonInternal, travel: .message,
        notes: [
            """
            Values sent: swift and JS 187, objc 171, java 171 (175 \
            with 0x04 on open), old .NET JSON 1 (leancloud.md §4.2).
            """
        ]
    ) { row in
        [
            row(1, "LCIMSessionConfigOptionsPatchMessage", "Supports updating and recalling messages"),
            row(2, "LCIMSessionConfigOptionsTemporaryConversationMessage", "Supports temporary conversations"),
            row(
                4, "LCIMSessionConfigOptionsAutoBindDeviceidAndInstallation",
                "Binds the device id to the Installation"),
            row(8, "LCIMSessionConfigOptionsTransientMessageACK", "Receives acks for transient messages"),
            row(16, "LCIMSessionConfigOptionsNotification", "Reliable (permanent) notifications"),
            row(32, "LCIMSessionConfigOptionsPartialFailedMessage", "Partial results for conversation operations"),
            row(64, "LCIMSessionConfigOptionsGroupChatRCP", "Receipts for group chat messages"),
            row(128, "LCIMSessionConfigOptionsOmitPeerID", "Later commands may omit peerId"),
        ]
    }
}
