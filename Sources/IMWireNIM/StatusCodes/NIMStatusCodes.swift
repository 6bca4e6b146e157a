import IMWireCore

/// NetEase YunXin (NIM) status codes and enums (nim.md §1, §2). Where sources disagree on a
/// number (406, 415, 508, 810, 812), each source is its own table, so every meaning is kept with
/// its source: `NIMRemoteErrorCode` (iOS), `NIMResCode` (C/Node/C#), `web-error` (Web SDK) and
/// `status-page` (doc.commsease.com). `imwire explain 810` prints all four side by side.
public enum NIMStatusCodes {
    static let iOSHeaders = "NIM_iOS_SDK@69fa518 NIMSDK.framework/Headers"
    static let iOSAVHeaders = "NIM_iOS_SDK@69fa518 NIMAVChat.framework/Headers/NIMAVChatDefs.h"
    /// The other NIMAVChat headers (NIMNetCallManagerProtocol.h, NIMRTSManagerProtocol.h, …).
    static let iOSAVFramework = "NIM_iOS_SDK@69fa518 NIMAVChat.framework/Headers"
    static let nodeNIM = "node-nim@290c791 ts/nim_def"
    /// nim.md §2.2 names the files of the C/Node enums together, not per enum.
    static let nodeEnums =
        "node-nim@290c791 ts/nim_def/{client,msglog,session,sysmsg}_def.ts, ts/chatroom_def/chatroom_def.ts"
    static let webBundle = "NIM_Web_Demo@6fa7624 demo/webdemo/imNew/3rd/NIM_Web_NIM_v8.5.0.js (bundle)"
    static let webChatroomBundle = "NIM_Web_Demo@6fa7624 demo/webdemo/imNew/3rd/NIM_Web_Chatroom_v8.5.0.js (bundle)"

    /// Every NIM table: status codes first, then enums, grouped by topic (login and client, messages,
    /// notifications, teams, users, chatrooms, net calls, audio/video settings, media). Together they
    /// hold every code and enum table of nim.md §1, §2 and Appendix A; the only rows left out are the
    /// 18 string-keyed Web SDK errors of §1.4, which have no number (see the `web-error` notes).
    public static let tables: [StatusTable] = [
        remoteErrorCode, resCode, webErrors, statusPage, localErrorCode,
        netCallErrorCode, avLocalErrorCode, avRoomServerErrorCode, avRemoteErrorCode, rtsConferenceErrorCode,
        // Login and client (LoginEnums.swift, ClientEnums.swift)
        loginStep, loginStepC, kickReason, kickReasonC, webKickReason, loginClientType, clientTypeC,
        sdkAuthMode, loginStateC, logoutTypeC, multiSpotNotifyTypeC,
        sdkLogLevelC, sdkTypeC, pushNotificationDisplayType, localAntiSpamOperate, redPacketServiceType,
        // Messages (MessageEnums.swift)
        messageType, messageTypeC, messageDeliveryState, messageAttachmentDownloadState, sessionType, sessionTypeC,
        messageFeatureC, msgLogStatusC, msgLogSubStatusC, messageSearchOrder,
        // Notifications and system messages (NotificationEnums.swift)
        notificationType, systemNotificationType, teamOperationType, notificationIdC, sysMsgStatusC, sysMsgTypeC,
        // Teams (TeamEnums.swift)
        teamUpdateTag, teamType, teamJoinMode, teamInviteMode, teamBeInviteMode, teamUpdateInfoMode,
        teamUpdateClientCustomMode, teamApplyStatus, teamMemberType, teamNotifyState,
        // Users and presence (UserEnums.swift)
        userOperation, userGender, userInfoUpdateTag, subscribeSystemEventType, subscribeEventOnlineValue,
        // Chatrooms (ChatroomEnums.swift, ChatroomMemberEnums.swift)
        chatroomConnectionState, chatroomKickReason, webChatroomKickReason, chatRoomExitReasonC, chatroomEventType,
        chatRoomLoginStateC, chatRoomEnterStepC, chatRoomLinkConditionC, chatRoomProxyTypeC, chatRoomClientTypeC,
        chatRoomMsgTypeC, chatRoomNotificationIdC, chatroomUpdateTag, chatroomQueueModificationLevel,
        chatroomQueueChangeType, chatroomQueueBatchChangeType,
        chatroomMemberType, chatroomFetchMemberType, chatroomMemberInfoUpdateTag, chatRoomGetMemberTypeC,
        chatRoomMemberAttributeC, chatRoomOnlineStateC, chatRoomGuestFlagC,
        // Net calls and RTS (NetCallEnums.swift)
        netCallType, netCallEventType, netCallStatus, netCallControlType, netCallNetStatus, netCallMediaType,
        netCallCamera, rtsStatus, rtsService, rtsConferenceUserLeaveReason,
        // Audio/video settings (AVChatEnums.swift)
        videoOrientation, netCallVideoCaptureFormat, netCallVideoQuality, netCallVideoCrop, netCallVideoCodec,
        netCallVideoFrameRate, avChatScene, avChatVideoAdaptiveStrategy, avChatAcousticEchoCanceler,
        netCallBypassStreamingMixMode, bypassStreamingStatus, netCallFilterType, netCallWaterMarkLocation,
        netCallFocusMode, avChatNetDetectType,
        // Images, audio, documents (MediaEnums.swift)
        imageFormat, audioOutputDevice, audioType, docTranscodingFileType, docTranscodingImageType,
        docTranscodingQuality, docTranscodingState,
    ]

    /// Ranges shared by the server tables.
    static let serverRanges = [
        CodeRange(800, 899, "team (group)", source: "nim.md §1.1 (801–816 are all team codes)"),
        CodeRange(13001, 13006, "chatroom", source: "nim.md §1.1 note: chatroom codes are 13001–13006"),
    ]
}
